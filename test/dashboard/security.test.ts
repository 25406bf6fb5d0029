/**
 * The dashboard's fences, fast, over `app.inject`: security headers, cookie flags, CSRF on every
 * form, session expiry and log-out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { PageClient, signedIn, userOf } from './support.js';
import { listApiKeys } from '../../src/api-keys/service.js';

test('dashboard security', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  await t.test(
    'every page carries a CSP, no framing, no-store; the API does not get the dashboard headers',
    async () => {
      const client = new PageClient(h);
      const page = await client.get('/dashboard/login');
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      const csp = String(page.headers['content-security-policy']);
      for (const directive of [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'none'",
        "object-src 'none'",
      ]) {
        assert.ok(csp.includes(directive), `CSP has ${directive}: ${csp}`);
      }
      assert.ok(!csp.includes('unsafe-inline'), 'no inline script or style allowed');
      assert.equal(page.headers['x-frame-options'], 'DENY');
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
      assert.equal(page.headers['referrer-policy'], 'same-origin');
      // app.inject is plain HTTP: HSTS is sent over TLS only (test/security/headers-and-tls.test.ts).
      assert.equal(page.headers['strict-transport-security'], undefined);
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.ok(!/<script>|style=|onclick=/i.test(page.body), 'no inline script, style or handler');

      const api = await h.call('GET', '/v1/openapi.json');
      assert.equal(api.statusCode, 200);
      assert.equal(api.headers['content-security-policy'], undefined, 'the dashboard headers stay in its context');
    },
  );

  await t.test('the session cookie is __Host-, HttpOnly, Secure, SameSite=Strict, for path /', async () => {
    const companyId = await h.company();
    const user = await userOf(h.deps, companyId);
    const client = new PageClient(h);
    const login = await client.get('/dashboard/login');
    const formCookie = String(login.headers['set-cookie']);
    assert.match(
      formCookie,
      /^__Host-facteur_form=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; Secure; HttpOnly; SameSite=Strict$/,
    );
    const response = await client.post('/dashboard/login', { email: user.email, password: user.password });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/dashboard/test/keys');
    const cookies = [response.headers['set-cookie']].flat().map(String);
    const session = cookies.find((cookie) => cookie.startsWith('__Host-facteur_session='));
    assert.ok(session, `a session cookie: ${cookies.join(' | ')}`);
    assert.match(
      session,
      /^__Host-facteur_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; Secure; HttpOnly; SameSite=Strict$/,
    );
    const keys = await client.get('/dashboard/test/keys');
    assert.equal(keys.statusCode, 200);
    assert.ok(keys.body.includes(user.email));
  });

  await t.test('only the token is in the cookie; the database keeps its SHA-256', async () => {
    const { client } = await signedIn(h);
    const token = client.cookies.get('__Host-facteur_session')!;
    const { rows } = await h.deps.pool.query(
      "select token_hash from dashboard_sessions where token_hash = encode(sha256($1::bytea), 'hex')",
      [token],
    );
    assert.equal(rows.length, 1);
    const plain = await h.deps.pool.query('select 1 from dashboard_sessions where token_hash = $1', [token]);
    assert.equal(plain.rows.length, 0);
  });

  await t.test('a wrong password is 401 and opens no session', async () => {
    const companyId = await h.company();
    const user = await userOf(h.deps, companyId);
    const client = new PageClient(h);
    const response = await client.logIn(user.email, 'not the password at all');
    assert.equal(response.statusCode, 401);
    assert.match(response.body, /data-code="invalid_credentials"/);
    assert.equal(client.cookies.has('__Host-facteur_session'), false);
    const unknown = await client.logIn('nobody@example.com', 'whatever password');
    assert.equal(unknown.statusCode, 401, 'an unknown address answers the same');
    assert.match(unknown.body, /data-code="invalid_credentials"/);
  });

  await t.test('a page without a session redirects to the log-in, keeping where it was going', async () => {
    const client = new PageClient(h);
    const response = await client.get('/dashboard/live/events?type=ping');
    assert.equal(response.statusCode, 303);
    assert.equal(
      response.headers.location,
      `/dashboard/login?next=${encodeURIComponent('/dashboard/live/events?type=ping')}`,
    );
    const forged = new PageClient(h);
    forged.cookies.set('__Host-facteur_session', 'A'.repeat(43));
    assert.equal((await forged.get('/dashboard/test/keys')).statusCode, 303, 'an unknown token is no session');
  });

  await t.test(
    'CSRF: a form without the token, with another token, or from another site is refused and does nothing',
    async () => {
      const { client, companyId } = await signedIn(h);
      await client.get('/dashboard/test/keys');
      const count = async () => (await listApiKeys(h.deps, companyId)).length;
      const before = await count();
      const refusals = [
        await client.post('/dashboard/test/keys', {}, { csrf: null }),
        await client.post('/dashboard/test/keys', {}, { csrf: 'x'.repeat(43) }),
        await client.post('/dashboard/test/keys', {}, { headers: { origin: 'https://evil.example' } }),
        await client.post('/dashboard/test/keys', {}, { headers: { 'sec-fetch-site': 'cross-site' } }),
        await client.post('/dashboard/test/keys', {}, { headers: { origin: 'null' } }),
      ];
      for (const refusal of refusals) {
        assert.equal(refusal.statusCode, 403, refusal.body.slice(0, 300));
        assert.match(refusal.body, /data-code="csrf_token_invalid"/);
      }
      assert.equal(await count(), before, 'no key was created');
      const other = await signedIn(h);
      await other.client.get('/dashboard/test/keys');
      const crossed = await client.post('/dashboard/test/keys', {}, { csrf: other.client.csrf });
      assert.equal(crossed.statusCode, 403, "another session's token does not do");
      const accepted = await client.post(
        '/dashboard/test/keys',
        {},
        { headers: { origin: 'https://api.facteur.test', 'sec-fetch-site': 'same-origin' } },
      );
      assert.equal(accepted.statusCode, 201);
      assert.equal(await count(), before + 1);
    },
  );

  await t.test('CSRF on the log-in form: the form cookie and the field must match', async () => {
    const companyId = await h.company();
    const user = await userOf(h.deps, companyId);
    const client = new PageClient(h);
    const noCookie = await client.post(
      '/dashboard/login',
      { email: user.email, password: user.password },
      { csrf: 'A'.repeat(43) },
    );
    assert.equal(noCookie.statusCode, 403);
    await client.get('/dashboard/login');
    const mismatch = await client.post(
      '/dashboard/login',
      { email: user.email, password: user.password },
      { csrf: 'B'.repeat(43) },
    );
    assert.equal(mismatch.statusCode, 403);
    assert.equal(client.cookies.has('__Host-facteur_session'), false);
  });

  await t.test('a session ends after an hour idle, and after 12 hours whatever the activity', async () => {
    const { client } = await signedIn(h);
    const start = h.clock.now();
    try {
      h.clock.advance(59 * 60_000);
      assert.equal((await client.get('/dashboard/test/keys')).statusCode, 200, 'still there after 59 minutes');
      h.clock.advance(59 * 60_000);
      assert.equal((await client.get('/dashboard/test/keys')).statusCode, 200, 'use pushed the idle expiry');
      h.clock.advance(61 * 60_000);
      const idle = await client.get('/dashboard/test/keys');
      assert.equal(idle.statusCode, 303, 'idle for 61 minutes');
      assert.match(String(idle.headers['set-cookie']), /__Host-facteur_session=; .*Max-Age=0/);

      h.clock.set(start);
      const busy = await signedIn(h);
      for (let hour = 0; hour < 12; hour++) {
        h.clock.advance(59 * 60_000);
        assert.equal((await busy.client.get('/dashboard/test/account')).statusCode, 200, `hour ${hour + 1}`);
      }
      h.clock.advance(13 * 60_000);
      assert.equal(
        (await busy.client.get('/dashboard/test/account')).statusCode,
        303,
        'over 12 hours after the log-in',
      );
    } finally {
      h.clock.set(start);
    }
  });

  await t.test('log-out ends the session on the server: the old cookie no longer opens anything', async () => {
    const { client } = await signedIn(h);
    const page = await client.get('/dashboard/test/account');
    assert.equal(page.statusCode, 200);
    const stolen = client.cookies.get('__Host-facteur_session')!;
    const out = await client.post('/dashboard/logout');
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/dashboard/login?notice=signed_out');
    assert.match(String(out.headers['set-cookie']), /__Host-facteur_session=; Path=\/; Max-Age=0/);
    const replay = new PageClient(h);
    replay.cookies.set('__Host-facteur_session', stolen);
    assert.equal((await replay.get('/dashboard/test/account')).statusCode, 303);
  });

  await t.test('the dashboard refuses what it does not know with an HTML page', async () => {
    const { client } = await signedIn(h);
    const missing = await client.get('/dashboard/test/nothing-here');
    assert.equal(missing.statusCode, 404);
    assert.match(String(missing.headers['content-type']), /^text\/html/);
    const otherEnv = await client.get('/dashboard/staging/keys');
    assert.equal(otherEnv.statusCode, 404);
  });
});
