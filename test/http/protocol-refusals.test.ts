import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect as connectTcp, type AddressInfo, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { startHarness } from '../support/harness.js';
import { buildApp } from '../../src/app.js';
import { createRedirectServer } from '../../src/http/https-redirect.js';
import { answerClientError } from '../../src/http/protocol-refusals.js';
import { createServer } from 'node:http';

/**
 * Requests that Fastify's router or Node's HTTP parser refuses before any route runs, sent as raw
 * bytes over a real socket (app.inject cannot produce them): each answer is the contract's
 * envelope with a request id in `X-Request-Id` (the dashboard's HTML page on its paths).
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw bytes and reads one answer (up to its Content-Length, or to the connection's end). */
function send(socket: Socket, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer; got ${JSON.stringify(received.toString('latin1'))}`));
    }, 5000);
    const tryParse = (ended: boolean) => {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return ended ? reject(new Error(`no answer; got ${JSON.stringify(text)}`)) : undefined;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = headers['content-length'] === undefined ? null : Number(headers['content-length']);
      const body = received.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
      if (length !== null ? body.length < length : !ended) return undefined;
      clearTimeout(timer);
      socket.destroy();
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: body.subarray(0, length ?? body.length).toString('utf8'),
      });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('error', (error) => {
      if (received.length > 0) tryParse(true);
      else reject(error);
    });
    socket.write(bytes);
  });
}

function assertEnvelope(answer: RawAnswer, status: number, code: string): void {
  assert.equal(answer.status, status, answer.body);
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  const requestId = answer.headers['x-request-id'];
  assert.match(requestId ?? '', /^req_[0-9a-z]{26}$/);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  const envelope = JSON.parse(answer.body);
  assert.deepEqual(Object.keys(envelope), ['error']);
  assert.equal(envelope.error.code, code);
  assert.equal(envelope.error.request_id, requestId);
  assert.equal(typeof envelope.error.message, 'string');
  assert.ok(envelope.error.doc_url.endsWith(`#${code}`));
}

function assertPage(answer: RawAnswer, status: number, message: RegExp): void {
  assert.equal(answer.status, status, answer.body);
  assert.match(answer.headers['content-type'] ?? '', /^text\/html/);
  assert.match(answer.headers['x-request-id'] ?? '', /^req_/);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  assert.match(answer.headers['content-security-policy'] ?? '', /default-src 'none'/);
  assert.match(answer.body, /<!doctype html>/);
  assert.match(answer.body, message);
}

const get = (path: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`;

test('refusals before routing, over a real socket', async (t) => {
  const h = await startHarness();
  const apps: FastifyInstance[] = [h.app];
  t.after(async () => {
    for (const app of apps.slice(1)) await app.close();
    await h.close();
  });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (h.app.server.address() as AddressInfo).port;
  const plain = (bytes: string | Buffer) => send(connectTcp(port, '127.0.0.1'), bytes);

  const cert = readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8');
  const key = readFileSync(process.env.FACTEUR_TEST_RECEIVER_KEY!, 'utf8');
  const secure = await buildApp(h.deps, { https: { cert, key, minVersion: 'TLSv1.2' } });
  apps.push(secure);
  await secure.listen({ host: '127.0.0.1', port: 0 });
  const securePort = (secure.server.address() as AddressInfo).port;
  const overTls = (bytes: string | Buffer) =>
    send(connectTls({ host: '127.0.0.1', port: securePort, ca: cert, servername: 'localhost' }), bytes);

  await t.test('a path that is not percent-encoded UTF-8 is 400 invalid_field_value', async () => {
    for (const path of ['/v1/customers/%zz', '/v1/customers/%ED%A0%80', '/v1/customers/%', '/pay/%C3%28'])
      assertEnvelope(await plain(get(path)), 400, 'invalid_field_value');
  });

  await t.test('a path parameter over 100 characters is 414 not_found', async () => {
    const answer = await plain(get(`/v1/customers/cus_${'x'.repeat(120)}`));
    assertEnvelope(answer, 414, 'not_found');
    assert.equal(answer.headers['service-version'], '2026-09-01');
    assert.ok(answer.headers['x-ratelimit-reset'], 'a /v1 answer carries the rate-limit headers');
    assertEnvelope(await plain(get(`/quote/${'t'.repeat(101)}`)), 414, 'not_found');
  });

  await t.test('a request line Node cannot parse is 400 invalid_field_value', async () => {
    for (const bytes of [
      'GET /v1/cus tomers HTTP/1.1\r\nHost: localhost\r\n\r\n',
      'FOO /v1/account HTTP/1.1\r\nHost: localhost\r\n\r\n',
      'GET /v1/account\x01 HTTP/1.1\r\nHost: localhost\r\n\r\n',
      'GET /v1/account HTTP/9.9\r\nHost: localhost\r\n\r\n',
      Buffer.concat([Buffer.from('GET /v1/customers/'), Buffer.from([0xff, 0x00]), Buffer.from(' HTTP/1.1\r\n\r\n')]),
    ])
      assertEnvelope(await plain(bytes), 400, 'invalid_field_value');
  });

  await t.test('an HTTP/1.1 request without Host is 400 invalid_field_value naming it', async () => {
    const answer = await plain('GET /v1/openapi.json HTTP/1.1\r\nConnection: close\r\n\r\n');
    assertEnvelope(answer, 400, 'invalid_field_value');
    assert.equal(JSON.parse(answer.body).error.param, 'Host');
    assertEnvelope(await overTls('GET /pay/token HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'invalid_field_value');
    // HTTP/1.0 has no Host requirement: the request goes on, to the key check.
    assertEnvelope(await plain('GET /v1/account HTTP/1.0\r\n\r\n'), 401, 'missing_api_key');
    assertPage(await plain('GET /dashboard/login HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, /Host header/);
  });

  await t.test('a method Node knows but no route has is 404 not_found', async () => {
    assertEnvelope(
      await plain('PROPFIND /v1/account HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
      404,
      'not_found',
    );
  });

  await t.test('a control character in a header is 400 invalid_field_value', async () => {
    assertEnvelope(await plain(get('/v1/account', 'X-Note: a\x01b\r\n')), 400, 'invalid_field_value');
    assertEnvelope(await plain(get('/v1/account', 'Authorization: Bearer \x00x\r\n')), 400, 'invalid_field_value');
    assertEnvelope(await plain(get('/v1/account', 'Bad Name: x\r\n')), 400, 'invalid_field_value');
  });

  await t.test('a malformed Content-Length or chunked body is 400 invalid_field_value', async () => {
    const post = (headers: string, body: string) =>
      plain(
        `POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${headers}\r\n${body}`,
      );
    assertEnvelope(await post('Content-Length: abc\r\n', '{}'), 400, 'invalid_field_value');
    assertEnvelope(await post('Content-Length: 2\r\nContent-Length: 3\r\n', '{}'), 400, 'invalid_field_value');
    assertEnvelope(await post('Transfer-Encoding: chunked\r\n', 'zz\r\n{}\r\n0\r\n\r\n'), 400, 'invalid_field_value');
    assertEnvelope(
      await post('Transfer-Encoding: chunked\r\nContent-Length: 2\r\n', '2\r\n{}\r\n0\r\n\r\n'),
      400,
      'invalid_field_value',
    );
  });

  await t.test('headers over 16 KiB are 431 payload_too_large', async () => {
    assertEnvelope(await plain(get('/v1/account', `X-Padding: ${'p'.repeat(20_000)}\r\n`)), 431, 'payload_too_large');
    assertEnvelope(await plain(get(`/v1/customers?email=${'e'.repeat(20_000)}`)), 431, 'payload_too_large');
  });

  await t.test('over TLS too', async () => {
    assertEnvelope(await overTls(get('/v1/customers/%zz')), 400, 'invalid_field_value');
    assertEnvelope(await overTls('GET /v1/cus tomers HTTP/1.1\r\nHost: localhost\r\n\r\n'), 400, 'invalid_field_value');
    assertEnvelope(await overTls(get('/v1/account', `X-Padding: ${'p'.repeat(20_000)}\r\n`)), 431, 'payload_too_large');
  });

  await t.test('on the dashboard paths, its HTML error page', async () => {
    assertPage(await plain(get('/dashboard/%zz')), 400, /percent-encoding/);
    assertPage(await plain(get(`/dashboard/test/events/${'e'.repeat(120)}`)), 414, /at most 100 characters/);
    assertPage(
      await plain('GET /dashboard/lo gin HTTP/1.1\r\nHost: localhost\r\n\r\n'),
      400,
      /request line is malformed/,
    );
    assertPage(await plain(get('/dashboard/login', 'X-Note: a\x01b\r\n')), 400, /header/);
  });

  await t.test('a well-formed request on the same server still answers', async () => {
    const answer = await plain(get('/v1/openapi.json'));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  });

  await t.test('the plain HTTP port that redirects answers the envelope too', async () => {
    const redirect = createRedirectServer('https://api.facteur.test', 'https://api.facteur.test/docs/errors');
    await new Promise<void>((resolve) => redirect.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => redirect.close(() => resolve())));
    const redirectPort = (redirect.address() as AddressInfo).port;
    const moved = await send(connectTcp(redirectPort, '127.0.0.1'), get('/v1/account'));
    assert.equal(moved.status, 308);
    assert.equal(moved.headers.location, 'https://api.facteur.test/v1/account');
    const refused = await send(connectTcp(redirectPort, '127.0.0.1'), 'GET /v1/ac count HTTP/1.1\r\n\r\n');
    assertEnvelope(refused, 400, 'invalid_field_value');
    assert.match(JSON.parse(refused.body).error.doc_url, /^https:\/\/api\.facteur\.test\/docs\/errors#/);
  });

  await t.test('a request that does not arrive in time is 408 with the envelope', async () => {
    // Node's own timers, made short: the listener is the one the service installs.
    const slow = createServer({ requestTimeout: 300, headersTimeout: 300, connectionsCheckingInterval: 50 });
    slow.on('clientError', answerClientError({ docsUrl: 'https://api.facteur.test/docs/errors' }));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => slow.close(() => resolve())));
    const answer = await send(
      connectTcp((slow.address() as AddressInfo).port, '127.0.0.1'),
      'GET /v1/account HTTP/1.1\r\nHost: x\r\n',
    );
    assertEnvelope(answer, 408, 'invalid_field_value');
  });
});
