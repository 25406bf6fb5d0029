import { hostname } from 'node:os';

/**
 * A new self-signed certificate (EC P-256, 825 days) for localhost, 127.0.0.1, ::1 and this host's
 * name: the server's own when none is configured, and the sandbox platform's (kept in memory).
 */
export async function selfSigned(): Promise<{ cert: string; private: string }> {
  const now = Date.now();
  // Loaded when a certificate is made: rarely, and ~15 MB.
  const { generate } = await import('selfsigned');
  const pems = await generate(
    [
      { name: 'commonName', value: 'localhost' },
      { name: 'organizationName', value: 'facteur (self-signed)' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now - 3_600_000),
      notAfterDate: new Date(now + 825 * 86_400_000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 2, value: hostname() },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    },
  );
  return pems;
}
