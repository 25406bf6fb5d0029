/**
 * Issue #35, item 1: an establishment's platform connection is a user's word. Its addresses must
 * be https and public (FACTEUR_ALLOW_PRIVATE_PLATFORMS opens private ones for a simulator on the
 * same host), nothing connects to an internal address, what answered must be an AFNOR platform,
 * and a refusal never describes what listens at the address.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type AddressInfo } from 'node:net';
import { startHarness, type Harness } from '../support/harness.js';
import { stubResolver } from '../support/webhook-receiver.js';
import { siretOf } from '../tax/support.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { connectorFor } from '../../src/establishments/platform-access.js';
import { AfnorConnector } from '../../src/platform/afnor-connector.js';
import { failureSummary } from '../../src/platform/connector.js';
import { selfSigned } from '../../src/kernel/self-signed-certificate.js';

const address = { line1: '5 avenue Foch', postalCode: '69006', city: 'Lyon', country: 'FR' };
const credentials = { clientId: 'erp', clientSecret: 'secret' };

/** A plain TCP listener on loopback (v4, and v6 when the host has it) that counts who connects. */
async function loopbackListener(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const servers: TcpServer[] = [];
  const listen = (host: string, port: number) =>
    new Promise<TcpServer>((resolve, reject) => {
      const server = createTcpServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      server.once('error', reject);
      server.listen(port, host, () => resolve(server));
    });
  const v4 = await listen('127.0.0.1', 0);
  servers.push(v4);
  const port = (v4.address() as AddressInfo).port;
  await listen('::1', port).then(
    (v6) => servers.push(v6),
    () => undefined,
  );
  return {
    port,
    connections: () => connections,
    close: async () => {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/** An HTTPS server on 127.0.0.1 with the suite's trusted certificate (or the one given); its URL says localhost. */
async function httpsServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  tls?: { cert: string; key: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const server: HttpsServer = createHttpsServer(
    tls ?? {
      cert: readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8'),
      key: readFileSync(process.env.FACTEUR_TEST_RECEIVER_KEY!, 'utf8'),
    },
    (request, response) => request.resume().on('end', () => handler(request, response)),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const isToken = (request: IncomingMessage) => request.method === 'POST' && request.url!.includes('/auth-service/');

async function liveHeadOffice(h: Harness) {
  const companyId = await h.company();
  const live = await h.key(companyId, { env: 'live' });
  const head = (await h.call('GET', '/v1/establishments', { key: live })).data.data[0];
  return { companyId, live, head, siren: head.siret.slice(0, 9) as string };
}

test('FACTEUR_ALLOW_PRIVATE_PLATFORMS: off by default, refused in production', () => {
  assert.equal(loadConfig({}).allowPrivatePlatforms, false);
  assert.equal(loadConfig({ FACTEUR_ALLOW_PRIVATE_PLATFORMS: 'true' }).allowPrivatePlatforms, true);
  assert.throws(() => loadConfig({ FACTEUR_ALLOW_PRIVATE_PLATFORMS: 'true', NODE_ENV: 'production' }), ConfigError);
});

test('setting off: every internal form of a platform address is refused, and nothing connects there', async (t) => {
  const listener = await loopbackListener();
  const resolveHost = stubResolver({
    localhost: ['127.0.0.1', '::1'],
    'loopback.example.com': ['127.0.0.1'],
    'rebind.example.com': ['127.0.0.1'],
    'pa.example.com': ['93.184.216.34'],
  });
  const h = await startHarness({ config: { allowPrivatePlatforms: false }, deps: { resolveHost } });
  t.after(async () => {
    await h.close();
    await listener.close();
  });
  const { live, head, siren } = await liveHeadOffice(h);
  const port = listener.port;
  const internal = [
    `https://127.0.0.1:${port}`,
    `https://localhost:${port}`,
    `https://[::1]:${port}`,
    `https://2130706433:${port}`,
    `https://0x7f000001:${port}`,
    `https://[::ffff:127.0.0.1]:${port}`,
    `https://loopback.example.com:${port}`,
    `https://10.20.30.40:${port}`,
  ];

  for (const url of internal) {
    await t.test(`baseUrl ${url}: refused on update and on create`, async () => {
      const updated = await h.call('POST', `/v1/establishments/${head.id}`, {
        key: live,
        body: { platform: { baseUrl: url, ...credentials } },
      });
      assert.equal(updated.statusCode, 400, updated.body);
      assert.equal(updated.data.error.code, 'invalid_field_value');
      assert.equal(updated.data.error.param, 'platform.baseUrl');
      assert.match(updated.body, /not a public address/);
      const created = await h.call('POST', '/v1/establishments', {
        key: live,
        body: { siret: siretOf(siren, '0042'), address, platform: { baseUrl: url, ...credentials } },
      });
      assert.equal(created.statusCode, 400, created.body);
      assert.equal(created.data.error.param, 'platform.baseUrl');
    });
    await t.test(`tokenUrl ${url}: refused beside a public baseUrl`, async () => {
      const updated = await h.call('POST', `/v1/establishments/${head.id}`, {
        key: live,
        body: { platform: { baseUrl: 'https://pa.example.com', tokenUrl: `${url}/token`, ...credentials } },
      });
      assert.equal(updated.statusCode, 400, updated.body);
      assert.equal(updated.data.error.code, 'invalid_field_value');
      assert.equal(updated.data.error.param, 'platform.tokenUrl');
    });
  }

  await t.test('a stored connection is checked again at every connection: DNS changed, literal address', async () => {
    // Stored while its host resolved to a public address, the name now points at loopback: the
    // connector's pinned lookup refuses it; an address stored before the rule is refused too.
    for (const baseUrl of [`https://rebind.example.com:${port}`, `https://127.0.0.1:${port}`]) {
      const connector = connectorFor(h.deps, { baseUrl, ...credentials });
      const answer = await connector.lookupFacility(head.siret, { retryBudgetMs: 0 });
      assert.equal(answer.ok, false, baseUrl);
      if (!answer.ok) {
        assert.equal(answer.errorCode, 'EBLOCKED', baseUrl);
        assert.equal(failureSummary(answer), 'platform_unavailable: the address is not a public address');
      }
    }
  });

  assert.equal(listener.connections(), 0, 'no connection reached the loopback listener');
  assert.equal((await h.call('GET', `/v1/establishments/${head.id}`, { key: live })).data.platform, null);
});

test('setting on: what does not answer as an AFNOR platform fails the trial and is not stored', async (t) => {
  const h = await startHarness();
  const html = (response: ServerResponse) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Router admin</body></html>');
  const servers = {
    'a web server answering 200 HTML': await httpsServer((_request, response) => html(response)),
    'a 302 to elsewhere': await httpsServer((request, response) =>
      response.writeHead(302, { location: `https://example.com${request.url}` }).end(),
    ),
    'a token endpoint, then 200 HTML for the facility': await httpsServer((request, response) =>
      isToken(request) ? json(response, 200, { access_token: 't', expires_in: 300 }) : html(response),
    ),
  };
  t.after(async () => {
    await h.close();
    for (const server of Object.values(servers)) await server.close();
  });
  const { live, head } = await liveHeadOffice(h);
  for (const [name, server] of Object.entries(servers)) {
    await t.test(name, async () => {
      const answer = await h.call('POST', `/v1/establishments/${head.id}`, {
        key: live,
        body: { platform: { baseUrl: server.url, ...credentials } },
      });
      assert.equal(answer.statusCode, 400, answer.body);
      assert.equal(answer.data.error.code, 'invalid_field_value');
      assert.equal(answer.data.error.param, 'platform.baseUrl');
      assert.match(answer.body, /did not answer as an AFNOR/);
      assert.ok(!answer.body.includes('Router admin'));
      assert.equal((await h.call('GET', `/v1/establishments/${head.id}`, { key: live })).data.platform, null);
    });
  }
});

test('setting on: a refused trial names a category, never what answered at the address', async (t) => {
  const h = await startHarness();
  const closedPort = await new Promise<number>((resolve) => {
    const probe = createTcpServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const dropping = createTcpServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
  const untrusted = await selfSigned();
  const banner = 'Apache/2.4.1 internal admin console';
  const servers = {
    untrusted: await httpsServer((_request, response) => json(response, 200, {}), {
      cert: untrusted.cert,
      key: untrusted.private,
    }),
    failing: await httpsServer((request, response) =>
      isToken(request)
        ? json(response, 200, { access_token: 't', expires_in: 300 })
        : json(response, 500, { errorCode: 'BANNER_500', errorMessage: banner }),
    ),
    refusing: await httpsServer((request, response) =>
      isToken(request)
        ? json(response, 200, { access_token: 't', expires_in: 300 })
        : json(response, 400, { errorCode: 'BANNER_400', errorMessage: banner }),
    ),
    deniedToken: await httpsServer((_request, response) =>
      json(response, 401, { error: 'invalid_client', error_description: banner }),
    ),
  };
  t.after(async () => {
    await h.close();
    await new Promise((resolve) => dropping.close(resolve));
    for (const server of Object.values(servers)) await server.close();
  });
  const { live, head } = await liveHeadOffice(h);
  const cases = [
    { url: `https://127.0.0.1:${closedPort}`, status: 503, code: 'pa_unavailable' },
    { url: `https://127.0.0.1:${(dropping.address() as AddressInfo).port}`, status: 503, code: 'pa_unavailable' },
    { url: servers.untrusted.url, status: 503, code: 'pa_unavailable' },
    { url: servers.failing.url, status: 503, code: 'pa_unavailable' },
    { url: servers.refusing.url, status: 400, code: 'invalid_field_value' },
    { url: servers.deniedToken.url, status: 400, code: 'invalid_field_value' },
  ];
  for (const { url, status, code } of cases) {
    await t.test(url, async () => {
      const answer = await h.call('POST', `/v1/establishments/${head.id}`, {
        key: live,
        body: { platform: { baseUrl: url, ...credentials } },
      });
      assert.equal(answer.statusCode, status, answer.body);
      assert.equal(answer.data.error.code, code);
      for (const leak of [
        /ECONNREFUSED|ECONNRESET|EPROTO/,
        /socket|disconnected|hang up/i,
        /certificate|self[- ]signed|CERT_|TLS/i,
        /BANNER|Apache|admin console|invalid_client/,
        /127\.0\.0\.1/,
      ])
        assert.doesNotMatch(answer.body, leak);
    });
  }
});

test("a poll's recorded failure is a category, not the platform's words", async (t) => {
  const server = await httpsServer((request, response) =>
    isToken(request)
      ? json(response, 200, { access_token: 't', expires_in: 300 })
      : json(response, 404, { errorCode: 'BANNER_404', errorMessage: 'nginx internal status page' }),
  );
  const connector = new AfnorConnector({ connection: { baseUrl: server.url, ...credentials } });
  t.after(async () => {
    await connector.close();
    await server.close();
  });
  const read = await connector.readLifecycle(null, { retryBudgetMs: 0 });
  assert.equal(read.ok, false);
  if (!read.ok) assert.equal(failureSummary(read), 'unknown: the platform answered HTTP 404');
});
