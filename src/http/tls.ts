import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SecureContextOptions } from 'node:tls';
import type { Config } from '../config.js';
import { selfSigned } from '../kernel/self-signed-certificate.js';

export interface Certificate {
  cert: string;
  key: string;
  certPath: string;
  generated: boolean;
}

/**
 * The certificate named by FACTEUR_TLS_CERT / FACTEUR_TLS_KEY, or a self-signed one generated
 * once into the data directory (for localhost, 127.0.0.1, ::1 and this host's name).
 */
export async function loadCertificate(config: Config, log: (message: string) => void): Promise<Certificate> {
  if (config.tlsCertPath && config.tlsKeyPath) {
    return {
      cert: await readFile(config.tlsCertPath, 'utf8'),
      key: await readFile(config.tlsKeyPath, 'utf8'),
      certPath: config.tlsCertPath,
      generated: false,
    };
  }
  const dir = join(config.dataDir, 'tls');
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) {
    return { cert: await readFile(certPath, 'utf8'), key: await readFile(keyPath, 'utf8'), certPath, generated: false };
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const pems = await selfSigned();
  await writeFile(keyPath, pems.private, { mode: 0o600 });
  await writeFile(certPath, pems.cert, { mode: 0o644 });
  log(`generated a self-signed TLS certificate: ${certPath} (trust it with NODE_EXTRA_CA_CERTS or curl --cacert)`);
  return { cert: pems.cert, key: pems.private, certPath, generated: true };
}

/**
 * TLS 1.2 suites offered: forward-secret key exchange (ECDHE) with an AEAD cipher (AES-GCM,
 * ChaCha20-Poly1305) only, for an ECDSA (the generated certificate) or an RSA certificate; no CBC,
 * no SHA-1, no RSA key exchange. TLS 1.3 keeps Node's suites (all AEAD): none is named here.
 */
export const tls12Ciphers = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

export type TlsServerOptions = SecureContextOptions & { minVersion: 'TLSv1.2' };

/** The HTTPS server's TLS options: TLS 1.2 or later, the suites above, in the server's order. */
export function tlsServerOptions(certificate: Pick<Certificate, 'cert' | 'key'>): TlsServerOptions {
  return {
    cert: certificate.cert,
    key: certificate.key,
    minVersion: 'TLSv1.2',
    ciphers: tls12Ciphers,
    honorCipherOrder: true,
  };
}
