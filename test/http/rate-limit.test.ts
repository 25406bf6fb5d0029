import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { probeRoutes } from '../support/probe-routes.js';

test('rate limits', async (t) => {
  const h = await startHarness({ extraV1Routes: probeRoutes, clockStart: '2026-11-22T10:00:05.000Z' });
  t.after(() => h.close());

  await t.test(
    'per key, per fixed UTC minute, at the plan limit: then 429 with Retry-After to the next minute',
    async () => {
      h.clock.set('2026-11-22T10:00:05.000Z');
      const { key } = await h.tenant({ env: 'live', plan: 'free' });
      for (let i = 1; i <= 100; i++) {
        const response = await h.call('GET', '/v1/account', { key });
        assert.equal(response.statusCode, 200, `request ${i}`);
        assert.equal(response.headers['x-ratelimit-limit'], '100');
        assert.equal(response.headers['x-ratelimit-remaining'], String(100 - i));
      }
      h.clock.set('2026-11-22T10:00:42.400Z');
      const refused = await h.call('GET', '/v1/account', { key });
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.data.error.type, 'rate_limit_error');
      assert.equal(refused.data.error.code, 'rate_limit_exceeded');
      assert.equal(refused.headers['retry-after'], '18');
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      assert.equal(refused.headers['x-ratelimit-limit'], '100');
      assert.equal(refused.headers['x-ratelimit-reset'], String(Date.parse('2026-11-22T10:01:00Z') / 1000));

      h.clock.set('2026-11-22T10:01:00.000Z');
      const next = await h.call('GET', '/v1/account', { key });
      assert.equal(next.statusCode, 200, 'a fixed window: the next UTC minute starts afresh');
      assert.equal(next.headers['x-ratelimit-remaining'], '99');
    },
  );

  await t.test('the limit follows the plan', async () => {
    for (const [plan, limit] of [
      ['essential', '300'],
      ['pro', '1000'],
    ]) {
      const { key } = await h.tenant({ env: 'live', plan });
      assert.equal((await h.call('GET', '/v1/account', { key })).headers['x-ratelimit-limit'], limit);
    }
  });

  await t.test('the counter is per key: another key of the company has its own', async () => {
    h.clock.set('2026-11-22T11:00:00.000Z');
    const companyId = await h.company({ plan: 'free' });
    const first = await h.key(companyId, { env: 'live' });
    const second = await h.key(companyId, { env: 'live' });
    for (let i = 0; i < 100; i++) await h.call('GET', '/v1/account', { key: first });
    assert.equal((await h.call('GET', '/v1/account', { key: first })).statusCode, 429);
    assert.equal((await h.call('GET', '/v1/account', { key: second })).statusCode, 200);
  });

  await t.test('test-mode reads are exempt; test-mode writes are counted', async () => {
    h.clock.set('2026-11-22T12:00:00.000Z');
    const { key } = await h.tenant({ plan: 'free' });
    for (let i = 0; i < 120; i++) {
      const response = await h.call('GET', '/v1/account', { key });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['x-ratelimit-remaining'], 'not_applied');
    }
    const write = await h.call('POST', '/v1/probe/limited', { key });
    assert.equal(write.headers['x-ratelimit-limit'], '100');
    assert.equal(write.headers['x-ratelimit-remaining'], '99');
  });

  await t.test('a per-route limit applies to live keys only', async () => {
    h.clock.set('2026-11-22T13:00:10.000Z');
    const companyId = await h.company();
    const live = await h.key(companyId, { env: 'live' });
    const test = await h.key(companyId, { env: 'test' });
    for (let i = 0; i < 3; i++)
      assert.equal((await h.call('POST', '/v1/probe/limited', { key: live })).statusCode, 200);
    const refused = await h.call('POST', '/v1/probe/limited', { key: live });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.data.error.code, 'rate_limit_exceeded');
    assert.equal(refused.headers['retry-after'], '50');
    for (let i = 0; i < 10; i++)
      assert.equal((await h.call('POST', '/v1/probe/limited', { key: test })).statusCode, 200, 'the sandbox is exempt');
    assert.equal((await h.call('GET', '/v1/account', { key: live })).statusCode, 200, 'other routes are not affected');
  });

  await t.test('counters live in PostgreSQL: two API nodes share them', async () => {
    const other = await startHarness();
    t.after(() => other.close());
    h.clock.set('2026-11-22T14:00:00.000Z');
    other.clock.set('2026-11-22T14:00:30.000Z');
    const { key } = await h.tenant({ env: 'live', plan: 'free' });
    for (let i = 0; i < 100; i++) await (i % 2 ? h : other).call('GET', '/v1/account', { key });
    assert.equal((await h.call('GET', '/v1/account', { key })).statusCode, 429);
    assert.equal((await other.call('GET', '/v1/account', { key })).statusCode, 429);
  });

  await t.test(
    'two API nodes racing on one key: never past the limit, and what one node held is given back',
    async () => {
      const other = await startHarness({ poolSize: 4 });
      t.after(() => other.close());
      h.clock.set('2026-11-22T14:30:10.000Z');
      other.clock.set('2026-11-22T14:30:20.000Z');
      const { key } = await h.tenant({ env: 'live', plan: 'free' });
      // Three times the limit, all at once, half through each node: both lease blocks of positions.
      const burst = await Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 2 ? h : other).call('GET', '/v1/account', { key })),
      );
      assert.ok(burst.every((answer) => answer.statusCode === 200 || answer.statusCode === 429));
      const admitted = burst.filter((answer) => answer.statusCode === 200);
      assert.ok(admitted.length <= 100, `never more than the limit (${admitted.length} admitted)`);
      const remaining = admitted.map((answer) => Number(answer.headers['x-ratelimit-remaining']));
      assert.equal(new Set(remaining).size, remaining.length, 'each admitted request has its own position');
      assert.ok(remaining.every((value) => value >= 0 && value < 100));
      for (const refused of burst.filter((answer) => answer.statusCode === 429)) {
        assert.equal(refused.headers['x-ratelimit-remaining'], '0');
        // Each node answers on its own clock: 10 s or 20 s into the minute.
        assert.ok(['50', '40'].includes(String(refused.headers['retry-after'])));
      }
      // A node gives back the positions it leased and did not use once idle: later requests get them,
      // and the minute's total reaches the limit exactly, never beyond.
      let total = admitted.length;
      for (let wave = 0; wave < 5 && total < 100; wave++) {
        await new Promise((resolve) => setTimeout(resolve, 600));
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) => (i % 2 ? h : other).call('GET', '/v1/account', { key })),
        );
        total += answers.filter((answer) => answer.statusCode === 200).length;
        assert.ok(total <= 100, `never more than the limit (${total} admitted after wave ${wave + 1})`);
      }
      assert.equal(total, 100, 'every position of the minute is used in the end');
    },
  );

  await t.test('refusals before the rate check do not count', async () => {
    h.clock.set('2026-11-22T15:00:00.000Z');
    const companyId = await h.company({ plan: 'free' });
    const key = await h.key(companyId, { env: 'live', scopes: ['customers:read'] });
    for (let i = 0; i < 5; i++) assert.equal((await h.call('GET', '/v1/events', { key })).statusCode, 403);
    assert.equal((await h.call('GET', '/v1/account', { key })).headers['x-ratelimit-remaining'], '99');
  });
});
