/**
 * The dashboard's pages over `app.inject`: what each one does through the services, and that a
 * session only ever reaches its own company's data, in the environment of the URL.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { stubResolver } from '../support/webhook-receiver.js';
import { PageClient, signedIn, userOf } from './support.js';
import { createUser } from '../../src/users/service.js';
import { createEndpoint } from '../../src/webhooks/service.js';
import { contextFor } from '../support/harness.js';

const secretIn = (body: string) => /value="(svc_(?:test|live)_[0-9A-Za-z]{32})"/.exec(body)?.[1];
const whsecIn = (body: string) =>
  /id="endpoint-secret" class="secret" readonly value="(whsec_[A-Za-z0-9_-]+)"/.exec(body)?.[1];

test('dashboard pages', async (t) => {
  const resolver = stubResolver({ 'hooks.example.com': ['93.184.216.34'], 'internal.example.com': ['10.0.0.5'] });
  const h = await startHarness({ deps: { resolveHost: resolver } });
  t.after(() => h.close());

  await t.test(
    'keys: create with scopes and expiry, the secret shown once, used on the API, revoked at once',
    async () => {
      const { client } = await signedIn(h);
      await client.get('/dashboard/test/keys');
      const created = await client.post('/dashboard/test/keys', {
        scopes: ['webhooks:read', 'invoices:write'],
        expires: '2099-12-31',
      });
      assert.equal(created.statusCode, 201);
      const secret = secretIn(created.body);
      assert.ok(secret?.startsWith('svc_test_'), 'the secret is on the page');
      assert.match(created.body, /data-copy="new-secret"/);
      const keyId = /Your new key (key_[0-9a-z]+)/.exec(created.body)![1]!;
      const list = await client.get('/dashboard/test/keys');
      assert.ok(!list.body.includes(secret!), 'never shown again');
      assert.match(
        list.body,
        new RegExp(
          `data-key="${keyId}"[\\s\\S]*?webhooks:read[\\s\\S]*?invoices:write[\\s\\S]*?2099-12-31[\\s\\S]*?active`,
        ),
      );
      assert.equal((await h.call('GET', '/v1/events', { key: secret! })).statusCode, 200);
      const revoked = await client.post(`/dashboard/test/keys/${keyId}/revoke`);
      assert.equal(revoked.statusCode, 303);
      assert.equal(revoked.headers.location, '/dashboard/test/keys?notice=key_revoked');
      const refused = await h.call('GET', '/v1/events', { key: secret! });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.data.error.code, 'api_key_revoked');
      assert.match((await client.get('/dashboard/test/keys?notice=key_revoked')).body, /The key is revoked/);
    },
  );

  await t.test('keys: a bad expiry or scope is shown on the form, nothing created', async () => {
    const { client } = await signedIn(h);
    await client.get('/dashboard/test/keys');
    const past = await client.post('/dashboard/test/keys', { expires: '2001-01-01' });
    assert.equal(past.statusCode, 400);
    assert.match(past.body, /class="error"[^>]*>expiresAt must be in the future/);
    const scope = await client.post('/dashboard/test/keys', { scopes: 'root:all' });
    assert.equal(scope.statusCode, 422);
    assert.match(scope.body, /Unknown scope root:all/);
    assert.match((await client.get('/dashboard/test/keys')).body, /No test key yet/);
  });

  await t.test(
    'the environment of the URL decides: a live key is on the live page only, and is a live key',
    async () => {
      const { client } = await signedIn(h);
      await client.get('/dashboard/live/keys');
      const created = await client.post('/dashboard/live/keys');
      const secret = secretIn(created.body)!;
      assert.ok(secret.startsWith('svc_live_'));
      assert.match(created.body, /class="banner banner-live"/);
      const keyId = /Your new key (key_[0-9a-z]+)/.exec(created.body)![1]!;
      assert.ok(!(await client.get('/dashboard/test/keys')).body.includes(keyId));
      assert.ok((await client.get('/dashboard/live/keys')).body.includes(keyId));
      const wrongSide = await client.post(`/dashboard/test/keys/${keyId}/revoke`);
      assert.equal(wrongSide.statusCode, 404, 'a live key is not revoked from the test side');
      assert.equal((await h.call('GET', '/v1/account', { key: secret })).statusCode, 200);
    },
  );

  await t.test(
    'webhooks: the API URL rules apply; the plan limit is shown; the secret needs the password',
    async () => {
      const { client, user } = await signedIn(h);
      await client.get('/dashboard/test/webhooks');
      for (const [url, message] of [
        ['http://hooks.example.com/x', 'must use https'],
        ['https://internal.example.com/x', 'non-public address'],
        ['https://nowhere.example.com/x', 'does not resolve'],
      ] as const) {
        const refused = await client.post('/dashboard/test/webhooks', { url, events: '*' });
        assert.equal(refused.statusCode, 400, url);
        assert.match(refused.body, new RegExp(message));
        assert.ok(refused.body.includes(`value="${url}"`), 'the form keeps what was typed');
      }
      const none = await client.post('/dashboard/test/webhooks', { url: 'https://hooks.example.com/x' });
      assert.equal(none.statusCode, 422, 'no event chosen');
      const created = await client.post('/dashboard/test/webhooks', {
        url: 'https://hooks.example.com/x',
        events: ['invoice.paid', 'invoice.created'],
        description: 'ERP',
      });
      assert.equal(created.statusCode, 201);
      const secret = whsecIn(created.body)!;
      assert.ok(secret);
      const id = /<dt>Id<\/dt><dd><code>(we_[0-9a-z]+)<\/code>/.exec(created.body)![1]!;
      const detail = await client.get(`/dashboard/test/webhooks/${id}`);
      assert.ok(!detail.body.includes(secret), 'masked afterwards');
      assert.match(detail.body, /whsec_…/);

      const wrong = await client.post(`/dashboard/test/webhooks/${id}/reveal-secret`, { password: 'nope nope nope' });
      assert.equal(wrong.statusCode, 422);
      assert.ok(!wrong.body.includes(secret));
      const right = await client.post(`/dashboard/test/webhooks/${id}/reveal-secret`, { password: user.password });
      assert.equal(right.statusCode, 200);
      assert.equal(whsecIn(right.body), secret);

      const disabled = await client.post(`/dashboard/test/webhooks/${id}/status`, { status: 'disabled' });
      assert.equal(disabled.headers.location, `/dashboard/test/webhooks/${id}?notice=endpoint_disabled`);
      const ping = await client.post(`/dashboard/test/webhooks/${id}/ping`);
      assert.equal(ping.statusCode, 400, 'a disabled endpoint is not pinged');
      assert.match(ping.body, /inactive or not subscribed/);
      await client.post(`/dashboard/test/webhooks/${id}/status`, { status: 'enabled' });
      const pinged = await client.post(`/dashboard/test/webhooks/${id}/ping`);
      assert.equal(pinged.statusCode, 303);
      assert.match(String(pinged.headers.location), /^\/dashboard\/test\/events\/evt_[0-9a-z]+\?notice=ping_sent$/);

      const unconfirmed = await client.post(`/dashboard/test/webhooks/${id}/delete`);
      assert.equal(unconfirmed.statusCode, 422);
      const deleted = await client.post(`/dashboard/test/webhooks/${id}/delete`, { confirm: 'yes' });
      assert.equal(deleted.headers.location, '/dashboard/test/webhooks?notice=endpoint_deleted');
      assert.equal((await client.get(`/dashboard/test/webhooks/${id}`)).statusCode, 404);

      // The free plan allows one endpoint per environment: the refusal is on the form.
      const free = await signedIn(h);
      await h.deps.pool.query(`update subscriptions set plan = 'free' where company_id = $1`, [free.companyId]);
      await free.client.get('/dashboard/test/webhooks');
      assert.equal(
        (await free.client.post('/dashboard/test/webhooks', { url: 'https://hooks.example.com/1', events: '*' }))
          .statusCode,
        201,
      );
      const over = await free.client.post('/dashboard/test/webhooks', {
        url: 'https://hooks.example.com/2',
        events: '*',
      });
      assert.equal(over.statusCode, 402);
      assert.match(over.body, /allows 1 webhook endpoint/);
    },
  );

  await t.test('five wrong passwords when revealing a secret end the session', async () => {
    const { client, companyId } = await signedIn(h);
    const endpoint = await createEndpoint(h.deps, contextFor(companyId, false, h.clock.now()), 'pro', {
      url: 'https://hooks.example.com/r',
    });
    await client.get(`/dashboard/test/webhooks/${endpoint.id}`);
    for (let i = 0; i < 4; i++)
      assert.equal(
        (await client.post(`/dashboard/test/webhooks/${endpoint.id}/reveal-secret`, { password: `guess ${i}` }))
          .statusCode,
        422,
      );
    const ended = await client.post(`/dashboard/test/webhooks/${endpoint.id}/reveal-secret`, { password: 'guess 5' });
    assert.equal(ended.statusCode, 303);
    assert.equal(ended.headers.location, '/dashboard/login?notice=session_ended');
    assert.equal((await client.get('/dashboard/test/keys')).statusCode, 303);
  });

  await t.test('events: filtered by type and delivery, newest first, paginated by 25', async () => {
    const { client, companyId } = await signedIn(h);
    const endpoint = await createEndpoint(h.deps, contextFor(companyId, false, h.clock.now()), 'pro', {
      url: 'https://hooks.example.com/e',
    });
    await client.get(`/dashboard/test/webhooks/${endpoint.id}`);
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      h.clock.advance(1);
      const pinged = await client.post(`/dashboard/test/webhooks/${endpoint.id}/ping`);
      ids.push(/evt_[0-9a-z]+/.exec(String(pinged.headers.location))![0]);
    }
    const first = await client.get('/dashboard/test/events?type=ping');
    const shown = [...first.body.matchAll(/data-event="(evt_[0-9a-z]+)"/g)].map((m) => m[1]);
    assert.deepEqual(shown, ids.slice(2).reverse(), 'the 25 newest, newest first');
    const next = /href="([^"]+)" rel="next"/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    assert.match(next, /type=ping/, 'the filter stays in the next page link');
    const second = await client.get(next);
    assert.deepEqual(
      [...second.body.matchAll(/data-event="(evt_[0-9a-z]+)"/g)].map((m) => m[1]),
      [ids[1], ids[0]],
    );
    assert.match(second.body, /Newest events/);
    const delivered = await client.get('/dashboard/test/events?delivery=delivered');
    assert.doesNotMatch(delivered.body, /data-event=/, 'nothing was delivered yet');
    const pending = await client.get('/dashboard/test/events?delivery=undelivered&type=invoice.paid');
    assert.match(pending.body, /No event matches these filters/);
    const page = await client.get(`/dashboard/test/events/${ids[0]}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Replay to every failed endpoint/);
    assert.match(page.body, /&quot;type&quot;: &quot;ping&quot;/, 'the payload, escaped');
    const replay = await client.post(`/dashboard/test/events/${ids[0]}/replay`);
    assert.equal(
      replay.headers.location,
      `/dashboard/test/events/${ids[0]}?notice=nothing_to_replay`,
      'nothing failed yet',
    );
    const targeted = await client.post(`/dashboard/test/events/${ids[0]}/replay`, { endpoint: endpoint.id });
    assert.equal(targeted.headers.location, `/dashboard/test/events/${ids[0]}?notice=replayed`);
    assert.equal(
      (await client.get(`/dashboard/test/events/${ids[0]}`)).body.match(/<td>2<\/td>/)?.length,
      1,
      'generation 2',
    );
    assert.equal(
      (await client.get(`/dashboard/live/events/${ids[0]}`)).statusCode,
      404,
      'a test event is not on the live side',
    );
  });

  await t.test('account: company, plan, limits and the month usage against the quota', async () => {
    const { client, companyId } = await signedIn(h);
    const period = h.clock.now().toISOString().slice(0, 7);
    await h.deps.pool.query(
      `insert into usage_counters (company_id, period, metric, count) values ($1, $2, 'documents', 1234)`,
      [companyId, period],
    );
    const page = await client.get('/dashboard/live/account');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Test SAS/);
    assert.match(page.body, new RegExp(companyId));
    assert.match(page.body, /<strong>1,234<\/strong> of 50,000 live documents \(2 %\)/);
    assert.match(page.body, /<progress max="50000" value="1234"/);
    assert.match(page.body, /1,000 per key/);
  });

  await t.test('another company sees none of it, whatever the id it puts in the URL', async () => {
    const alice = await signedIn(h);
    const bob = await signedIn(h);
    await alice.client.get('/dashboard/test/keys');
    const key = await alice.client.post('/dashboard/test/keys');
    const keyId = /Your new key (key_[0-9a-z]+)/.exec(key.body)![1]!;
    const secret = secretIn(key.body)!;
    const endpoint = await createEndpoint(h.deps, contextFor(alice.companyId, false, h.clock.now()), 'pro', {
      url: 'https://hooks.example.com/a',
    });
    await alice.client.get(`/dashboard/test/webhooks/${endpoint.id}`);
    const ping = await alice.client.post(`/dashboard/test/webhooks/${endpoint.id}/ping`);
    const eventId = /evt_[0-9a-z]+/.exec(String(ping.headers.location))![0];

    for (const path of ['keys', 'webhooks', 'events', 'account']) {
      const page = await bob.client.get(`/dashboard/test/${path}`);
      for (const id of [keyId, endpoint.id, eventId, alice.companyId])
        assert.ok(!page.body.includes(id), `${path} shows ${id}`);
    }
    await bob.client.get('/dashboard/test/keys');
    const attempts = [
      await bob.client.get(`/dashboard/test/webhooks/${endpoint.id}`),
      await bob.client.get(`/dashboard/test/events/${eventId}`),
      await bob.client.post(`/dashboard/test/keys/${keyId}/revoke`),
      await bob.client.post(`/dashboard/test/webhooks/${endpoint.id}/ping`),
      await bob.client.post(`/dashboard/test/webhooks/${endpoint.id}/reveal-secret`, { password: bob.user.password }),
      await bob.client.post(`/dashboard/test/webhooks/${endpoint.id}/rotate-secret`),
      await bob.client.post(`/dashboard/test/webhooks/${endpoint.id}/status`, { status: 'disabled' }),
      await bob.client.post(`/dashboard/test/webhooks/${endpoint.id}/delete`, { confirm: 'yes' }),
      await bob.client.post(`/dashboard/test/webhooks/${endpoint.id}`, {
        url: 'https://hooks.example.com/b',
        events: '*',
      }),
      await bob.client.post(`/dashboard/test/events/${eventId}/replay`),
      await bob.client.post(`/dashboard/test/events/${eventId}/replay`, { endpoint: endpoint.id }),
    ];
    for (const attempt of attempts) {
      assert.equal(attempt.statusCode, 404, attempt.body.slice(0, 400));
      assert.ok(!attempt.body.includes('whsec_') || !attempt.body.includes(endpoint.id));
    }
    assert.equal((await h.call('GET', '/v1/account', { key: secret })).statusCode, 200, "Alice's key still works");
    const still = await alice.client.get(`/dashboard/test/webhooks/${endpoint.id}`);
    assert.match(still.body, /https:\/\/hooks\.example\.com\/a/);
    assert.match(still.body, /status-active">enabled/);
  });

  await t.test('a password link sets the password once; then the user logs in', async () => {
    const companyId = await h.company();
    const email = `link.${Date.now()}@example.com`;
    const { passwordLink } = await createUser(h.deps, { companyId, email });
    const path = new URL(passwordLink.url).pathname;
    assert.match(passwordLink.url, /^https:\/\/api\.facteur\.test\/dashboard\/password\/[A-Za-z0-9_-]{43}$/);
    const client = new PageClient(h);
    const form = await client.get(path);
    assert.equal(form.statusCode, 200);
    assert.ok(form.body.includes(email));
    const short = await client.post(path, { password: 'short', confirmation: 'short' });
    assert.equal(short.statusCode, 422);
    assert.match(short.body, /at least 12 characters/);
    const differ = await client.post(path, { password: 'a long enough one', confirmation: 'another long one' });
    assert.equal(differ.statusCode, 422);
    const set = await client.post(path, { password: 'a long enough one', confirmation: 'a long enough one' });
    assert.equal(set.statusCode, 303);
    assert.equal(set.headers.location, '/dashboard/login?notice=password_set');
    assert.equal((await client.get(path)).statusCode, 404, 'the link works once');
    assert.equal((await client.logIn(email, 'a long enough one')).statusCode, 303);
  });

  await t.test('a password link expires after 7 days; a new one replaces the old', async () => {
    const companyId = await h.company();
    const email = `expiry.${Date.now()}@example.com`;
    const { user, passwordLink } = await createUser(h.deps, { companyId, email });
    const client = new PageClient(h);
    const start = h.clock.now();
    try {
      h.clock.advance(7 * 86_400_000 + 1000);
      assert.equal((await client.get(new URL(passwordLink.url).pathname)).statusCode, 404);
    } finally {
      h.clock.set(start);
    }
    const { issuePasswordLink } = await import('../../src/users/service.js');
    const again = await issuePasswordLink(h.deps, user.id);
    assert.equal(
      (await client.get(new URL(passwordLink.url).pathname)).statusCode,
      404,
      'the old link stopped working',
    );
    assert.equal((await client.get(new URL(again.url).pathname)).statusCode, 200);
  });

  await t.test('changing the password keeps this session and ends the others', async () => {
    const companyId = await h.company();
    const user = await userOf(h.deps, companyId);
    const here = new PageClient(h);
    const there = new PageClient(h);
    assert.equal((await here.logIn(user.email, user.password)).statusCode, 303);
    assert.equal((await there.logIn(user.email, user.password)).statusCode, 303);
    await here.get('/dashboard/test/password');
    const wrong = await here.post('/dashboard/test/password', {
      current: 'not it at all',
      password: 'a brand new password',
      confirmation: 'a brand new password',
    });
    assert.equal(wrong.statusCode, 422);
    const changed = await here.post('/dashboard/test/password', {
      current: user.password,
      password: 'a brand new password',
      confirmation: 'a brand new password',
    });
    assert.equal(changed.statusCode, 303);
    assert.equal(changed.headers.location, '/dashboard/test/account?notice=password_changed');
    assert.equal((await here.get('/dashboard/test/account')).statusCode, 200);
    assert.equal((await there.get('/dashboard/test/account')).statusCode, 303);
    assert.equal((await new PageClient(h).logIn(user.email, user.password)).statusCode, 401);
    assert.equal((await new PageClient(h).logIn(user.email, 'a brand new password')).statusCode, 303);
  });

  await t.test('the log-in only sends back to dashboard pages', async () => {
    const companyId = await h.company();
    const user = await userOf(h.deps, companyId);
    for (const [next, expected] of [
      ['/dashboard/live/events', '/dashboard/live/events'],
      ['https://evil.example/', '/dashboard/test/keys'],
      ['//evil.example/dashboard', '/dashboard/test/keys'],
      ['/dashboard/../v1', '/dashboard/test/keys'],
    ]) {
      const client = new PageClient(h);
      await client.get('/dashboard/login');
      const response = await client.post('/dashboard/login', {
        email: user.email,
        password: user.password,
        next: next!,
      });
      assert.equal(response.headers.location, expected, next);
    }
  });
});
