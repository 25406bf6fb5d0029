import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
