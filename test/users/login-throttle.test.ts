import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { drawChallenge, isCorrectAnswer } from '../../src/users/login-challenge.js';
import { challengeFor, logIn, loginThrottlePolicy } from '../../src/users/sessions.js';
import { randomIp, startHarness } from '../support/harness.js';
import { userOf } from '../dashboard/support.js';

const words = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

function solve(question: string): string {
  const [, a, op, b] = /^What is (\w+) (plus|minus) (\w+)\?$/.exec(question)!;
  const x = words.indexOf(a!);
  const y = words.indexOf(b!);
  return String(op === 'plus' ? x + y : x - y);
}

test('the challenge is a sum or a difference in words, never negative, its answer in digits', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 20 }),
      fc.integer({ min: 2, max: 20 }),
      fc.integer({ min: 0, max: 1 }),
      (a, b, op) => {
        const draws = [a, b, op];
        const challenge = drawChallenge(() => draws.shift()!);
        assert.equal(solve(challenge.question), challenge.answer);
        assert.ok(Number(challenge.answer) >= 0);
      },
    ),
  );
  assert.equal(isCorrectAnswer(' 12 ', '12'), true);
  assert.equal(isCorrectAnswer('twelve', '12'), false);
  assert.equal(isCorrectAnswer(undefined, '12'), false);
});

test('the log-in throttle', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { limit, challengeSeconds } = loginThrottlePolicy;

  await t.test(
    `after ${limit} failures from one address, a challenge comes before any check of the password, and lifts by itself`,
    async () => {
      const companyId = await h.company();
      const user = await userOf(h.deps, companyId);
      const ip = randomIp();
      const start = h.clock.now();
      try {
        for (let i = 1; i < limit; i++) {
          const result = await logIn(h.deps, { email: user.email, password: `wrong ${i}`, ip });
          assert.deepEqual(result, { ok: false, reason: 'invalid_credentials', challenge: null }, `failure ${i}`);
        }
        const last = await logIn(h.deps, { email: user.email, password: 'wrong again', ip });
        assert.equal(last.ok, false);
        assert.ok(!last.ok && last.challenge, `failure ${limit} brings a challenge`);

        const without = await logIn(h.deps, { email: user.email, password: user.password, ip });
        assert.ok(!without.ok && without.reason === 'captcha_required', 'the right password alone is not enough');

        const challenge = (await challengeFor(h.deps, ip))!;
        const wrongAnswer = await logIn(h.deps, {
          email: user.email,
          password: user.password,
          ip,
          challengeId: challenge.id,
          challengeAnswer: String(Number(solve(challenge.question)) + 1),
        });
        assert.ok(!wrongAnswer.ok && wrongAnswer.reason === 'captcha_required');
        const reused = await logIn(h.deps, {
          email: user.email,
          password: user.password,
          ip,
          challengeId: challenge.id,
          challengeAnswer: solve(challenge.question),
        });
        assert.ok(
          !reused.ok && reused.reason === 'captcha_required',
          'a challenge is used once, even when answered wrong',
        );

        const other = (await challengeFor(h.deps, ip))!;
        const elsewhere = await logIn(h.deps, {
          email: user.email,
          password: user.password,
          ip: randomIp(),
          challengeId: other.id,
          challengeAnswer: solve(other.question),
        });
        assert.equal(elsewhere.ok, true, 'another address is not throttled');
        const stolen = await logIn(h.deps, {
          email: user.email,
          password: user.password,
          ip: randomIp(),
          challengeId: other.id,
          challengeAnswer: solve(other.question),
        });
        assert.equal(stolen.ok, true);

        const fresh = (await challengeFor(h.deps, ip))!;
        const solved = await logIn(h.deps, {
          email: user.email,
          password: user.password,
          ip,
          challengeId: fresh.id,
          challengeAnswer: solve(fresh.question),
        });
        assert.equal(solved.ok, true, 'solved challenge and right password');

        const stillThrottled = await challengeFor(h.deps, ip);
        assert.ok(stillThrottled, 'the requirement lasts until it lifts by itself');
        h.clock.advance(challengeSeconds * 1000 + 1000);
        assert.equal(await challengeFor(h.deps, ip), null, `${challengeSeconds / 60} minutes without failure lift it`);
        const plain = await logIn(h.deps, { email: user.email, password: 'wrong after', ip });
        assert.ok(
          !plain.ok && plain.reason === 'invalid_credentials' && plain.challenge === null,
          'the count starts again',
        );
      } finally {
        h.clock.set(start);
      }
    },
  );

  await t.test('a challenge answered at the address it was given to only', async () => {
    const ip = randomIp();
    for (let i = 0; i < limit; i++) await logIn(h.deps, { email: 'nobody@example.com', password: 'x', ip });
    const challenge = (await challengeFor(h.deps, ip))!;
    const thief = randomIp();
    for (let i = 0; i < limit; i++) await logIn(h.deps, { email: 'nobody@example.com', password: 'x', ip: thief });
    const result = await logIn(h.deps, {
      email: 'nobody@example.com',
      password: 'x',
      ip: thief,
      challengeId: challenge.id,
      challengeAnswer: solve(challenge.question),
    });
    assert.ok(!result.ok && result.reason === 'captcha_required');
  });

  await t.test('the dashboard shows the challenge with the contract code captcha_required, over HTTP', async () => {
    const { PageClient } = await import('../dashboard/support.js');
    const companyId = await h.company();
    const user = await userOf(h.deps, companyId);
    const client = new PageClient(h);
    for (let i = 0; i < limit; i++) await client.logIn(user.email, `wrong ${i}`);
    const page = await client.get('/dashboard/login');
    const question = /id="challenge-question">([^<]+)</.exec(page.body)![1]!;
    const id = /name="challenge_id" value="([^"]+)"/.exec(page.body)![1]!;
    const refused = await client.post('/dashboard/login', { email: user.email, password: user.password });
    assert.equal(refused.statusCode, 401);
    assert.match(refused.body, /data-code="captcha_required"/);
    assert.match(refused.body, /solve the challenge before retrying/);
    // The challenge shown earlier is still open (none was submitted with the refused attempt).
    const accepted = await client.post('/dashboard/login', {
      email: user.email,
      password: user.password,
      challenge_id: id,
      challenge_answer: solve(question),
    });
    assert.equal(accepted.statusCode, 303);
    assert.ok(client.cookies.has('__Host-facteur_session'));
  });
});
