/**
 * Issue #35, the transport fences: every page refuses to be framed, every answer over HTTPS
 * carries HSTS, TLS 1.2 offers forward-secret AEAD suites only, and the plain HTTP port redirects
 * to the configured address whatever `Host` says. The service is started by `serve` itself (its
 * TLS options and redirect target), on the suite's database and the suite's certificate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { connect as connectTcp, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';
import { startHarness } from '../support/harness.js';
import { finalizedInvoice, seller } from '../invoices/support.js';
import { loadConfig } from '../../src/config.js';
import { serve } from '../../src/cli/serve.js';
import { tlsServerOptions } from '../../src/http/tls.js';
import { redirectOrigin } from '../../src/http/https-redirect.js';
import { refusingFrames } from '../../src/http/security-headers.js';

const hsts = 'max-age=31536000; includeSubDomains';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function httpsGet(port: number, ca: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      { host: '127.0.0.1', servername: 'localhost', port, path, ca, agent: false, headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
  });
}

/** Raw bytes to the plain port, the answer's head read back (a real client may send any Host). */
function plainGet(port: number, path: string, host: string): Promise<{ status: number; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve({ status: Number(received.split(' ')[1]), head: received.split('\r\n\r\n')[0]! }));
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

/** A TLS handshake: the suite and version agreed, or the error that ended it. */
function handshake(port: number, options: ConnectionOptions): Promise<{ cipher: string; version: string } | Error> {
  return new Promise((resolve) => {
    const socket = connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false, ...options }, () => {
      const agreed = { cipher: socket.getCipher().name, version: String(socket.getProtocol()) };
      socket.destroy();
      resolve(agreed);
    });
    socket.on('error', (error) => resolve(error));
  });
}

const agreed = async (port: number, options: ConnectionOptions) => {
  const result = await handshake(port, options);
  assert.ok(!(result instanceof Error), `${JSON.stringify(options)}: ${String(result)}`);
  return result;
};

const refused = async (port: number, options: ConnectionOptions) => {
  const result = await handshake(port, options);
  assert.ok(result instanceof Error, `${JSON.stringify(options)} was agreed: ${JSON.stringify(result)}`);
};

function assertRefusesFraming(headers: Record<string, unknown>): void {
  assert.match(String(headers['content-type']), /^text\/html/);
  assert.equal(headers['x-frame-options'], 'DENY');
  assert.match(String(headers['content-security-policy']), /(^|; )frame-ancestors 'none'($|;)/);
}

test('security headers, TLS suites and the HTTPS redirect', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  // A live invoice first: the database then holds a company, so `serve` makes no demo account.
  const live = await seller(h, { env: 'live' });
  const invoice = await finalizedInvoice(h, live.key);
  const ca = readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8');
  const dataDir = await mkdtemp(join(tmpdir(), 'facteur-headers-'));
  const config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    PORT: '0',
    HTTP_PORT: '0',
    HOST: '127.0.0.1',
    FACTEUR_TLS_CERT: process.env.FACTEUR_TEST_RECEIVER_CERT,
    FACTEUR_TLS_KEY: process.env.FACTEUR_TEST_RECEIVER_KEY,
    FACTEUR_DATA_DIR: dataDir,
    FACTEUR_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  const service = await serve(config, 'api');
  t.after(async () => {
    await service.stop();
    await h.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const port = (service.app!.server.address() as AddressInfo).port;
  const httpPort = (service.redirect!.address() as AddressInfo).port;

  await t.test('a public payment page over HTTPS: HSTS, framing refused, its own CSP kept', async () => {
    const page = await httpsGet(port, ca, new URL(invoice.paymentPortalUrl).pathname);
    assert.equal(page.status, 200, page.body);
    assert.equal(page.headers['strict-transport-security'], hsts);
    assertRefusesFraming(page.headers);
    assert.match(String(page.headers['content-security-policy']), /^default-src 'none'; style-src 'unsafe-inline'/);
  });

  await t.test('dashboard, error and docs pages over HTTPS: HSTS, framing refused', async () => {
    for (const path of ['/dashboard/login', '/dashboard/%zz', '/docs/errors']) {
      const page = await httpsGet(port, ca, path);
      assert.equal(page.headers['strict-transport-security'], hsts, path);
      assertRefusesFraming(page.headers);
    }
  });

  await t.test('API answers over HTTPS, success and refusals: HSTS and nosniff', async () => {
    const { key } = await h.tenant();
    const account = await httpsGet(port, ca, '/v1/account', { authorization: `Bearer ${key}` });
    assert.equal(account.status, 200, account.body);
    const refusal = await httpsGet(port, ca, '/v1/account');
    assert.equal(refusal.status, 401);
    const routerRefusal = await httpsGet(port, ca, '/v1/customers/%zz');
    assert.equal(routerRefusal.status, 400);
    for (const answer of [account, refusal, routerRefusal]) {
      assert.match(String(answer.headers['content-type']), /^application\/json/);
      assert.equal(answer.headers['strict-transport-security'], hsts);
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    }
  });

  await t.test("a request Node's parser refuses on the HTTPS port still gets HSTS", async () => {
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connectTls({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () =>
        socket.write('GET /v1/ac count HTTP/1.1\r\nHost: localhost\r\n\r\n'),
      );
      let received = '';
      socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
      socket.on('end', () => resolve(received.split('\r\n\r\n')[0]!));
      socket.on('error', reject);
    });
    assert.match(head, /^HTTP\/1\.1 400/);
    assert.match(head, /\r\nStrict-Transport-Security: max-age=31536000; includeSubDomains\r\n/i);
  });

  await t.test('over plain HTTP (app.inject) pages refuse framing but get no HSTS', async () => {
    for (const path of ['/dashboard/login', '/docs/errors']) {
      const page = await h.call('GET', path);
      assertRefusesFraming(page.headers);
      assert.equal(page.headers['strict-transport-security'], undefined, path);
    }
  });

  await t.test('the plain HTTP port redirects to the bound address, never to the Host header', async () => {
    const moved = await plainGet(httpPort, '/dashboard/login?next=%2Fdashboard', 'evil.example');
    assert.equal(moved.status, 308);
    const location = /\r\nLocation: ([^\r]*)/i.exec(moved.head)?.[1];
    assert.equal(location, `https://127.0.0.1:${port}/dashboard/login?next=%2Fdashboard`);
    assert.doesNotMatch(moved.head, /strict-transport-security/i, 'no HSTS over plain HTTP');
  });

  await t.test('the redirect target: the public URL when set, else HOST, else localhost, on the HTTPS port', () => {
    const target = (env: Record<string, string>, httpsPort: number) => redirectOrigin(loadConfig(env), httpsPort);
    assert.equal(target({ FACTEUR_PUBLIC_URL: 'https://factures.example.fr/' }, 8443), 'https://factures.example.fr');
    assert.equal(target({}, 8443), 'https://localhost:8443');
    assert.equal(target({ HOST: '::' }, 443), 'https://localhost');
    assert.equal(target({ HOST: '192.0.2.7' }, 8443), 'https://192.0.2.7:8443');
    assert.equal(target({ HOST: '::1' }, 8443), 'https://[::1]:8443');
  });

  await t.test('TLS 1.2 with the service certificate (ECDSA): AEAD with ECDHE only', async () => {
    for (const ciphers of ['ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA', 'ECDHE-ECDSA-AES128-SHA256'])
      await refused(port, { maxVersion: 'TLSv1.2', ciphers });
    for (const ciphers of [
      'ECDHE-ECDSA-AES128-GCM-SHA256',
      'ECDHE-ECDSA-AES256-GCM-SHA384',
      'ECDHE-ECDSA-CHACHA20-POLY1305',
    ])
      assert.equal((await agreed(port, { maxVersion: 'TLSv1.2', ciphers })).cipher, ciphers);
    // The server's order wins over the client's.
    const chosen = await agreed(port, {
      maxVersion: 'TLSv1.2',
      ciphers: 'ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256',
    });
    assert.equal(chosen.cipher, 'ECDHE-ECDSA-AES128-GCM-SHA256');
    assert.equal((await agreed(port, {})).version, 'TLSv1.3');
    await refused(port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' });
  });

  await t.test('TLS 1.2 with an RSA certificate: no RSA key exchange, no CBC, no SHA-1', async () => {
    const { generate } = await import('selfsigned');
    const rsa = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, algorithm: 'sha256' });
    const server = https.createServer(tlsServerOptions({ cert: rsa.cert, key: rsa.private }), (_request, response) =>
      response.end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const rsaPort = (server.address() as AddressInfo).port;
    for (const ciphers of [
      'AES128-SHA',
      'AES128-GCM-SHA256',
      'ECDHE-RSA-AES128-SHA',
      'ECDHE-RSA-AES256-SHA384',
      'DHE-RSA-AES128-GCM-SHA256',
    ])
      await refused(rsaPort, { maxVersion: 'TLSv1.2', ciphers });
    for (const ciphers of ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305'])
      assert.equal((await agreed(rsaPort, { maxVersion: 'TLSv1.2', ciphers })).cipher, ciphers);
  });

  await t.test("a page's own frame-ancestors gives way to 'none'; other directives stay", () => {
    assert.equal(refusingFrames(''), "frame-ancestors 'none'");
    assert.equal(
      refusingFrames("default-src 'none'; frame-ancestors 'self' https://x.example; style-src 'self';"),
      "default-src 'none'; style-src 'self'; frame-ancestors 'none'",
    );
  });
});
