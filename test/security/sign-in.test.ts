/**
 * The dashboard's sign-in against brute force (issue #35): the API keys' failure store and
 * thresholds (20 failures in 10 minutes, then 10 minutes locked) applied per account tried and
 * per client address. While locked, the right password is refused like a wrong one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { randomIp, startHarness } from '../support/harness.js';
import { PageClient, userOf } from '../dashboard/support.js';
import { logIn } from '../../src/users/service.js';

const errorCode = (response: LightMyRequestResponse) => /data-code="([^"]+)"/.exec(response.body)?.[1];
const errorText = (response: LightMyRequestResponse) => /role="alert"[^>]*>([^<]+)</.exec(response.body)?.[1];

test('sign-in lockout', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { authFailureLimit: limit, authBlockSeconds: block } = h.deps.config;

  await t.test('the thresholds are the API keys’ ones: 20 failures, then 10 minutes', () => {
    assert.equal(limit, 20);
    assert.equal(block, 600);
  });

  await t.test('30 wrong passwords lock the account: the right one is refused, from a fresh address too', async () => {
    const user = await userOf(h.deps, await h.company());
    const client = new PageClient(h);
    for (let i = 1; i <= 30; i++) {
      const wrong = await client.logIn(user.email, `wrong password ${i}`);
      if (i <= limit) {
        assert.equal(wrong.statusCode, 401, `attempt ${i}`);
        assert.equal(errorCode(wrong), 'invalid_credentials', `attempt ${i}`);
      } else {
        assert.equal(wrong.statusCode, 429, `attempt ${i}`);
        assert.equal(errorCode(wrong), 'brute_force_blocked', `attempt ${i}`);
      }
    }
    const right = await client.logIn(user.email, user.password);
    assert.equal(right.statusCode, 429);
    assert.equal(errorCode(right), 'brute_force_blocked');
    assert.ok(!client.cookies.has('__Host-facteur_session'), 'no session');
    assert.ok(Number(right.headers['retry-after']) > 0 && Number(right.headers['retry-after']) <= block);
    assert.match(errorText(right)!, /Too many failed log-ins for this account or from your network/);
    assert.match(errorText(right)!, /refused for 10 minutes/);

    const elsewhere = new PageClient(h, randomIp());
    const fresh = await elsewhere.logIn(user.email, user.password);
    assert.equal(fresh.statusCode, 429, 'another address does not lift the lock of the account');
    assert.equal(errorCode(fresh), 'brute_force_blocked');
    assert.ok(!elsewhere.cookies.has('__Host-facteur_session'));
  });

  await t.test('while locked, the right and a wrong password get the same answer', async () => {
    const user = await userOf(h.deps, await h.company());
    const ip = randomIp();
    for (let i = 0; i < limit; i++) await logIn(h.deps, { email: user.email, password: `wrong ${i}`, ip });
    const right = await logIn(h.deps, { email: user.email, password: user.password, ip: randomIp() });
    const wrong = await logIn(h.deps, { email: user.email, password: 'still wrong', ip: randomIp() });
    assert.deepEqual(right, { ok: false, reason: 'brute_force_blocked', retryAfter: block });
    assert.deepEqual(wrong, right);
  });

  await t.test('an unknown e-mail locks like a known one (the lock tells no account apart)', async () => {
    const ip = randomIp();
    const email = `nobody.${Date.now()}@example.com`;
    const answers = [];
    for (let i = 0; i <= limit; i++) answers.push(await logIn(h.deps, { email, password: `guess ${i}`, ip }));
    assert.ok(answers.slice(0, limit).every((answer) => !answer.ok && answer.reason === 'invalid_credentials'));
    assert.deepEqual(answers[limit], { ok: false, reason: 'brute_force_blocked', retryAfter: block });
  });

  await t.test('one address trying several accounts is locked for every account, other addresses are not', async () => {
    const company = await h.company();
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => userOf(h.deps, company)));
    const attacker = new PageClient(h, randomIp());
    // 4 wrong passwords on each of 5 accounts: no account reaches the limit, the address does.
    for (const user of users) {
      for (let i = 0; i < limit / users.length; i++) {
        const wrong = await attacker.logIn(user.email, `spray ${i}`);
        assert.equal(errorCode(wrong), 'invalid_credentials');
      }
    }
    const other = await userOf(h.deps, company);
    const refused = await attacker.logIn(other.email, other.password);
    assert.equal(refused.statusCode, 429, 'an account never tried, from the locked address');
    assert.equal(errorCode(refused), 'brute_force_blocked');
    assert.ok(Number(refused.headers['retry-after']) > 0);

    const fresh = new PageClient(h, randomIp());
    assert.equal((await fresh.logIn(users[0]!.email, users[0]!.password)).statusCode, 303, 'the account is not locked');
  });

  await t.test('the lock ends after its time, and the count starts again', async () => {
    const user = await userOf(h.deps, await h.company());
    const ip = randomIp();
    const start = h.clock.now();
    try {
      for (let i = 0; i <= limit; i++) await logIn(h.deps, { email: user.email, password: `wrong ${i}`, ip });
      h.clock.advance((block - 1) * 1000);
      const still = await logIn(h.deps, { email: user.email, password: user.password, ip });
      assert.deepEqual(still, { ok: false, reason: 'brute_force_blocked', retryAfter: 1 });
      h.clock.advance(1000);
      const client = new PageClient(h, ip);
      const lifted = await client.logIn(user.email, user.password);
      assert.equal(lifted.statusCode, 303, 'the lock lifted by itself');
      assert.ok(client.cookies.has('__Host-facteur_session'));
      const again = await logIn(h.deps, { email: user.email, password: 'wrong after', ip });
      assert.deepEqual(again, { ok: false, reason: 'invalid_credentials' });
    } finally {
      h.clock.set(start);
    }
  });

  await t.test('right passwords do not count: many log-ins in a row from one address all succeed', async () => {
    const user = await userOf(h.deps, await h.company());
    const ip = randomIp();
    for (let i = 0; i < limit + 5; i++) {
      const result = await logIn(h.deps, { email: user.email, password: user.password, ip });
      assert.equal(result.ok, true, `log-in ${i + 1}`);
    }
  });

  await t.test('parallel attempts cannot outrun the count: at most 20 passwords are checked', async () => {
    const user = await userOf(h.deps, await h.company());
    const ip = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 2 * limit }, (_, i) => logIn(h.deps, { email: user.email, password: `burst ${i}`, ip })),
    );
    const checked = answers.filter((answer) => !answer.ok && answer.reason === 'invalid_credentials').length;
    const locked = answers.filter((answer) => !answer.ok && answer.reason === 'brute_force_blocked').length;
    // Two counters (address, account) taken in either order: an attempt may pass one and not the other.
    assert.ok(checked <= limit, `${checked} passwords checked`);
    assert.equal(checked + locked, answers.length);
  });

  await t.test('the log-in page asks no challenge any more', async () => {
    const page = await new PageClient(h).get('/dashboard/login');
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /challenge/);
  });
});
