/**
 * No secret reaches a log line (issue #35): the flows that handle each kind of secret run against
 * the service's own logger (cli/logger.ts) at level trace, writing to a stream that keeps every
 * line; no line may contain any of the secrets. Password links and payment / quote page tokens
 * travel in URLs: their logged form is redacted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { startHarness } from '../support/harness.js';
import { stubResolver } from '../support/webhook-receiver.js';
import { systemResolveHost } from '../../src/kernel/outbound-address.js';
import { startCheckedSimulator } from '../platform/support.js';
import { PageClient, userOf } from '../dashboard/support.js';
import { createLogger } from '../../src/cli/logger.js';
import { redactedUrl } from '../../src/cli/log-redaction.js';
import { createUser } from '../../src/users/service.js';
import { chair, customer, finalizedInvoice, seller } from '../invoices/support.js';

class LineCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

const sessionCookie = '__Host-facteur_session';
const webhookHost = stubResolver({ 'hooks.example.com': ['93.184.216.34'] });

/** The full paths of Fastify's route tree (`printRoutes`: each level indented by 4 characters). */
function routePaths(tree: string): string[] {
  const stack: string[] = [];
  return tree.split('\n').flatMap((line) => {
    const match = /^([│├└─ ]*)(\/\S*)/.exec(line);
    if (!match) return [];
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    return [stack.join('')];
  });
}

test('no secret of any kind reaches a log line', async (t) => {
  const capture = new LineCapture();
  const log = createLogger('trace', capture);
  const sim = await startCheckedSimulator();
  const h = await startHarness({
    clockStart: '2026-10-15T10:00:00Z',
    // The webhooks' host stands for a public one; the simulator's is looked up as usual.
    deps: { log, resolveHost: (host) => (host === 'hooks.example.com' ? webhookHost(host) : systemResolveHost(host)) },
  });
  t.after(async () => {
    await h.close();
    await sim.stop();
  });
  /** Every secret a flow handled, with what it is, checked against every line at the end. */
  const secrets = new Map<string, string>();
  const keep = (what: string, secret: string) => {
    assert.ok(secret && secret.length >= 8, `${what}: ${secret}`);
    secrets.set(secret, what);
  };

  await t.test('password link, password values, session cookie, API keys, webhook secret', async () => {
    const companyId = await h.company();
    const { passwordLink } = await createUser(h.deps, { companyId, email: `links.${Date.now()}@example.com` });
    const linkPath = new URL(passwordLink.url).pathname;
    keep('password link token', linkPath.split('/').at(-1)!);
    const client = new PageClient(h);
    assert.equal((await client.get(linkPath)).statusCode, 200);
    const password = 'a password nobody logs';
    keep('password', password);
    const set = await client.post(linkPath, { password, confirmation: password });
    assert.equal(set.statusCode, 303, set.body);
    assert.equal((await client.get(`${linkPath}?token=${linkPath.split('/').at(-1)}`)).statusCode, 404);

    const user = await userOf(h.deps, companyId);
    keep('other password', user.password);
    const wrongPassword = 'a wrong password typed';
    keep('wrong password', wrongPassword);
    assert.equal((await client.logIn(user.email, wrongPassword)).statusCode, 401);
    assert.equal((await client.logIn(user.email, user.password)).statusCode, 303);
    keep('session cookie', client.cookies.get(sessionCookie)!);
    assert.equal((await client.get('/dashboard/test/keys')).statusCode, 200);

    const key = await h.key(companyId);
    keep('test API key', key);
    const live = await h.key(companyId, { env: 'live' });
    keep('live API key', live);
    assert.equal((await h.call('GET', '/v1/account', { key })).statusCode, 200);
    assert.equal((await h.call('GET', `/v1/account?api_key=${live}`)).statusCode, 401);
    const unknown = `svc_test_${'Q'.repeat(32)}`;
    keep('unknown API key', unknown);
    assert.equal((await h.call('GET', '/v1/account', { key: unknown })).statusCode, 401);
    assert.equal((await h.call('GET', `/v1/nowhere/${key}`, { key })).statusCode, 404);

    const hook = await h.call('POST', '/v1/webhook-endpoints', {
      key,
      body: { url: 'https://hooks.example.com/facteur' },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    keep('webhook signing secret', hook.data.secret);
    const created = await client.post('/dashboard/test/webhooks', {
      url: 'https://hooks.example.com/dashboard',
      events: ['invoice.paid'],
    });
    assert.equal(created.statusCode, 201);
    keep('webhook secret shown in the dashboard', /whsec_[A-Za-z0-9_-]+/.exec(created.body)![0]);
    const rotated = await h.call('POST', `/v1/webhook-endpoints/${hook.data.id}/rotate-secret`, { key });
    keep('rotated webhook secret', rotated.data.secret);
  });

  await t.test('payment and quote page tokens', async () => {
    const { key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    const payPath = new URL(invoice.paymentPortalUrl).pathname;
    keep('payment page token', payPath.split('/').at(-1)!);
    assert.equal((await h.call('GET', payPath)).statusCode, 409, 'a test invoice: no payment, but the URL is logged');
    assert.equal((await h.call('GET', `${payPath}/more`)).statusCode, 404, 'an unmatched URL is logged too');

    const customerId = await customer(h, key);
    const quote = await h.call('POST', '/v1/quotes', { key, body: { customerId, lines: [chair] } });
    assert.equal(quote.statusCode, 201, quote.body);
    const finalized = await h.call('POST', `/v1/quotes/${quote.data.id}/finalize`, { key });
    const quotePath = new URL(finalized.data.publicUrl).pathname;
    keep('quote page token', quotePath.split('/').at(-1)!);
    assert.equal((await h.call('GET', quotePath)).statusCode, 200);
  });

  await t.test('platform client secret: connecting an establishment, rightly and wrongly', async () => {
    const client = sim.simulator.clients[0]!;
    keep('platform client secret', client.clientSecret);
    const companyId = await h.company();
    const live = await h.key(companyId, { env: 'live' });
    const siren: string = (await h.call('GET', '/v1/account', { key: live })).data.siren;
    const head = (await h.call('GET', '/v1/establishments', { key: live })).data.data[0];
    sim.simulator.seedDirectory([{ siren, siret: head.siret }]);
    const wrongSecret = 'not-the-platform-secret-123';
    keep('wrong platform client secret', wrongSecret);
    const refused = await h.call('POST', `/v1/establishments/${head.id}`, {
      key: live,
      body: { platform: { baseUrl: sim.url, clientId: client.clientId, clientSecret: wrongSecret } },
    });
    assert.ok(refused.statusCode >= 400, refused.body);
    const connected = await h.call('POST', `/v1/establishments/${head.id}`, {
      key: live,
      body: { platform: { baseUrl: sim.url, clientId: client.clientId, clientSecret: client.clientSecret } },
    });
    assert.equal(connected.statusCode, 200, connected.body);
  });

  await t.test(
    'a secret in any field the code logs is scrubbed (API key and webhook secret shapes, page paths)',
    () => {
      const key = `svc_live_${'K'.repeat(32)}`;
      const whsec = `whsec_${'W'.repeat(32)}`;
      const token = 'T'.repeat(43);
      keep('logged API key', key);
      keep('logged webhook secret', whsec);
      keep('logged link token', token);
      h.deps.log.error(
        { err: new Error(`failed with ${key} for https://api.facteur.test/dashboard/password/${token}`), hint: whsec },
        `while sending /pay/${token}`,
      );
    },
  );

  await t.test('every route with a token in its path is redacted by the one serializer', () => {
    const routes = h.app.printRoutes({ commonPrefix: false });
    const withToken = routePaths(routes).filter((path) => path.includes(':token'));
    assert.ok(withToken.length >= 3, routes);
    for (const route of withToken) {
      const url = route.replace(':token', 'S3cretT0ken_xyz');
      assert.ok(!redactedUrl(url).includes('S3cretT0ken_xyz'), `${route} keeps its token in the log`);
    }
  });

  await t.test('the captured lines: requests logged, secrets redacted, none present', () => {
    const lines = capture.lines;
    assert.ok(secrets.size >= 15 && lines.length > 50, `${secrets.size} secrets, ${lines.length} lines`);
    const leaks = lines.flatMap((line) =>
      [...secrets].filter(([secret]) => line.includes(secret)).map(([, what]) => `${what} in ${line}`),
    );
    assert.deepEqual(leaks, []);
    assert.ok(
      lines.some((line) => line.includes('"url":"/pay/[redacted]"')),
      'the payment page was logged, redacted',
    );
    assert.ok(lines.some((line) => line.includes('"url":"/quote/[redacted]"')));
    assert.ok(lines.some((line) => line.includes('"url":"/dashboard/password/[redacted]')));
    assert.ok(lines.some((line) => line.includes('api_key=[redacted]')));
  });
});
