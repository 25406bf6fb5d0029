/**
 * The forms that ask for the password again inside a session (issue #35): revealing a webhook
 * secret and changing the password share one count of wrong passwords per session, and the
 * fifth ends the session, so a stolen session cookie is no way to guess the password. The wrong
 * ones also count toward the account's sign-in lockout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, startHarness } from '../support/harness.js';
import { stubResolver } from '../support/webhook-receiver.js';
import { PageClient, signedIn, type Fields } from '../dashboard/support.js';
import { createEndpoint } from '../../src/webhooks/service.js';
import { hashToken } from '../../src/users/tokens.js';

const sessionCookie = '__Host-facteur_session';
const newPassword = 'a brand new password';

test('password prompts inside a session', async (t) => {
  const h = await startHarness({ deps: { resolveHost: stubResolver({ 'hooks.example.com': ['93.184.216.34'] }) } });
  t.after(() => h.close());

  const sessionRows = async (token: string) =>
    (await h.deps.pool.query('select 1 from dashboard_sessions where token_hash = $1', [hashToken(token)])).rowCount;

  const changePassword = (client: PageClient, current: string) =>
    client.post('/dashboard/test/password', { current, password: newPassword, confirmation: newPassword });

  /** A signed-in client on the change-password form, with a webhook endpoint to reveal the secret of. */
  async function onTheForms() {
    const { client, companyId, user } = await signedIn(h);
    const endpoint = await createEndpoint(h.deps, contextFor(companyId, false, h.clock.now()), 'pro', {
      url: 'https://hooks.example.com/prompts',
    });
    const token = client.cookies.get(sessionCookie)!;
    await client.get('/dashboard/test/password');
    const reveal = (password: string) =>
      client.post(`/dashboard/test/webhooks/${endpoint.id}/reveal-secret`, { password } satisfies Fields);
    return { client, user, token, reveal };
  }

  function assertSessionEnded(response: Awaited<ReturnType<PageClient['post']>>, client: PageClient) {
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/dashboard/login?notice=session_ended');
    assert.ok(!client.cookies.has(sessionCookie), 'the cookie is cleared');
  }

  await t.test('five wrong current passwords on the account page end the session', async () => {
    const { client, user, token } = await onTheForms();
    for (let i = 1; i <= 4; i++) {
      const wrong = await changePassword(client, `guess ${i}`);
      assert.equal(wrong.statusCode, 422, `attempt ${i}`);
      assert.match(wrong.body, /The current password is not right/);
    }
    assertSessionEnded(await changePassword(client, 'guess 5'), client);
    assert.equal(await sessionRows(token), 0, 'the session row is gone');

    const next = await client.get('/dashboard/test/account');
    assert.equal(next.statusCode, 303);
    assert.match(String(next.headers.location), /^\/dashboard\/login/, 'the next page asks to log in');
    const login = await client.get('/dashboard/login?notice=session_ended');
    assert.match(login.body, /Your session ended after 5 wrong passwords/);

    // The stolen cookie is worth nothing any more, even with the right password.
    const thief = new PageClient(h);
    thief.cookies.set(sessionCookie, token);
    assert.equal((await thief.get('/dashboard/test/password')).statusCode, 303);
    assert.equal((await changePassword(thief, user.password)).statusCode, 303);
    assert.equal((await new PageClient(h).logIn(user.email, user.password)).statusCode, 303, 'password unchanged');
    assert.equal((await new PageClient(h).logIn(user.email, newPassword)).statusCode, 401);
  });

  await t.test('the reveal prompt and the change-password form share one count', async () => {
    const { client, token, reveal } = await onTheForms();
    assert.equal((await reveal('guess 1')).statusCode, 422);
    assert.equal((await changePassword(client, 'guess 2')).statusCode, 422);
    assert.equal((await reveal('guess 3')).statusCode, 422);
    assert.equal((await changePassword(client, 'guess 4')).statusCode, 422);
    assertSessionEnded(await reveal('guess 5'), client);
    assert.equal(await sessionRows(token), 0);

    const other = await onTheForms();
    for (let i = 1; i <= 4; i++) assert.equal((await other.reveal(`guess ${i}`)).statusCode, 422);
    assertSessionEnded(await changePassword(other.client, 'guess 5'), other.client);
    assert.equal(await sessionRows(other.token), 0);
  });

  await t.test('the right current password before the limit still changes the password', async () => {
    const { client, user, token, reveal } = await onTheForms();
    assert.equal((await reveal('guess 1')).statusCode, 422);
    for (let i = 2; i <= 4; i++) assert.equal((await changePassword(client, `guess ${i}`)).statusCode, 422);
    const changed = await changePassword(client, user.password);
    assert.equal(changed.statusCode, 303);
    assert.equal(changed.headers.location, '/dashboard/test/account?notice=password_changed');
    assert.equal(await sessionRows(token), 1, 'this session stays');
    assert.equal((await client.get('/dashboard/test/account')).statusCode, 200);
    assert.equal((await new PageClient(h).logIn(user.email, newPassword)).statusCode, 303);
    // The right password took back only its own count: the four wrong ones still stand.
    assertSessionEnded(await reveal('guess 5'), client);
  });

  await t.test('a count at the limit ends the session before the password is looked at', async () => {
    // What a burst of parallel guesses leaves behind: each is counted before it is checked, so
    // past the limit even the right password is not checked.
    const { client, user, token, reveal } = await onTheForms();
    await h.deps.pool.query('update dashboard_sessions set reauth_failures = 5 where token_hash = $1', [
      hashToken(token),
    ]);
    assertSessionEnded(await reveal(user.password), client);
    assert.equal(await sessionRows(token), 0);
  });

  await t.test('wrong passwords at the prompts count toward the account’s sign-in lockout', async () => {
    const { authFailureLimit: limit } = h.deps.config;
    const first = await onTheForms();
    // Sessions of the same account (stolen one after the other), each guessing until it ends.
    for (let i = 1; i <= 5; i++) await first.reveal(`guess ${i}`);
    for (let session = 2; session <= limit / 5; session++) {
      const client = new PageClient(h);
      assert.equal((await client.logIn(first.user.email, first.user.password)).statusCode, 303, `log-in ${session}`);
      await client.get('/dashboard/test/password');
      for (let i = 1; i <= 5; i++) await changePassword(client, `guess ${session}.${i}`);
      assert.ok(!client.cookies.has(sessionCookie));
    }
    const locked = await new PageClient(h).logIn(first.user.email, first.user.password);
    assert.equal(locked.statusCode, 429, 'the account is locked');
    assert.match(locked.body, /data-code="brute_force_blocked"/);
  });
});
