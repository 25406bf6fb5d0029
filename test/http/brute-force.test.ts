import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomIp, startHarness } from '../support/harness.js';

const unknownKey = `svc_test_${'Z'.repeat(32)}`;

test('brute-force protection', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const limit = h.deps.config.authFailureLimit;

  await t.test('the default thresholds are 20 failures in 10 minutes, then a 10-minute block', () => {
    assert.equal(limit, 20);
    assert.equal(h.deps.config.authFailureWindowSeconds, 600);
    assert.equal(h.deps.config.authBlockSeconds, 600);
  });

  await t.test(
    `after ${limit} invalid keys from one address, the next is 429 with Retry-After until the block lifts`,
    async () => {
      const ip = randomIp();
      for (let i = 0; i < limit; i++) {
        const response = await h.call('GET', '/v1/account', { key: unknownKey, ip });
        assert.equal(response.statusCode, 401, `attempt ${i + 1}`);
      }
      const blocked = await h.call('GET', '/v1/account', { key: unknownKey, ip });
      assert.equal(blocked.statusCode, 429);
      assert.equal(blocked.data.error.type, 'rate_limit_error');
      assert.equal(blocked.data.error.code, 'rate_limit_exceeded');
      assert.equal(blocked.headers['retry-after'], '600');

      h.clock.advance(240_000);
      const later = await h.call('GET', '/v1/account', { key: unknownKey, ip });
      assert.equal(later.statusCode, 429);
      assert.equal(later.headers['retry-after'], '360', 'the block is not extended by further attempts');

      h.clock.advance(360_000);
      const lifted = await h.call('GET', '/v1/account', { key: unknownKey, ip });
      assert.equal(lifted.statusCode, 401, 'the block lifts by itself');
      h.clock.advance(-600_000);
    },
  );

  await t.test('a valid key from a blocked address keeps working', async () => {
    const ip = randomIp();
    const { key } = await h.tenant();
    for (let i = 0; i <= limit; i++) await h.call('GET', '/v1/account', { key: unknownKey, ip });
    assert.equal((await h.call('GET', '/v1/account', { key: unknownKey, ip })).statusCode, 429);
    const valid = await h.call('GET', '/v1/account', { key, ip });
    assert.equal(valid.statusCode, 200);
  });

  await t.test('failures are counted per address: another address is not blocked', async () => {
    const ip = randomIp();
    for (let i = 0; i <= limit; i++) await h.call('GET', '/v1/account', { key: unknownKey, ip });
    assert.equal((await h.call('GET', '/v1/account', { key: unknownKey, ip })).statusCode, 429);
    assert.equal((await h.call('GET', '/v1/account', { key: unknownKey, ip: randomIp() })).statusCode, 401);
  });

  await t.test('the window is ten minutes: failures spread wider never block', async () => {
    const ip = randomIp();
    for (let i = 0; i < limit; i++) await h.call('GET', '/v1/account', { key: unknownKey, ip });
    h.clock.advance(601_000);
    for (let i = 0; i < limit; i++) {
      assert.equal((await h.call('GET', '/v1/account', { key: unknownKey, ip })).statusCode, 401);
    }
    h.clock.advance(-601_000);
  });

  await t.test('revoked and expired keys count as failures; a missing header does not', async () => {
    const ip = randomIp();
    for (let i = 0; i < limit * 2; i++) {
      assert.equal((await h.call('GET', '/v1/account', { ip })).statusCode, 401);
    }
    const companyId = await h.company();
    const key = await h.key(companyId, { expiresAt: new Date(h.clock.now().getTime() + 1000).toISOString() });
    h.clock.advance(2000);
    for (let i = 0; i < limit; i++) {
      assert.equal((await h.call('GET', '/v1/account', { key, ip })).data.error.code, 'api_key_expired');
    }
    assert.equal((await h.call('GET', '/v1/account', { key, ip })).statusCode, 429);
    h.clock.advance(-2000);
  });

  await t.test('the block is shared by every API node (kept in PostgreSQL)', async () => {
    const other = await startHarness();
    t.after(() => other.close());
    other.clock.set(h.clock.now());
    const ip = randomIp();
    for (let i = 0; i < limit; i++) await (i % 2 ? h : other).call('GET', '/v1/account', { key: unknownKey, ip });
    assert.equal((await other.call('GET', '/v1/account', { key: unknownKey, ip })).statusCode, 429);
    assert.equal((await h.call('GET', '/v1/account', { key: unknownKey, ip })).statusCode, 429);
  });
});
