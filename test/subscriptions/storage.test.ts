import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, startHarness, type Harness } from '../support/harness.js';
import { inTransaction } from '../../src/db/transaction.js';
import { ApiError } from '../../src/kernel/errors.js';
import { plans } from '../../src/kernel/plans.js';
import { changePlan, releaseStorage, reserveStorage } from '../../src/subscriptions/service.js';

const megabyte = 1024 * 1024;

/** Reserves in a transaction of the scope, as a capability storing a file would; the refusal's code, or null. */
async function reserve(h: Harness, companyId: string, livemode: boolean, bytes: number): Promise<string | null> {
  try {
    await inTransaction(h.deps.db, contextFor(companyId, livemode, h.clock.now()), (tx) =>
      reserveStorage(tx, { companyId, livemode }, bytes),
    );
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    assert.equal(error.status, 402);
    assert.equal(error.type, 'plan_limit_error');
    return error.code;
  }
}

async function stored(h: Harness, key: string): Promise<number> {
  return (await h.call('GET', '/v1/subscription', { key })).data.usage.storageBytes;
}

test("files count against the plan's storage", async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  await t.test(
    'per environment; storage_quota_exceeded past it; a release gives back; a rollback counts nothing',
    async () => {
      const companyId = await h.company({ plan: 'free' });
      const key = await h.key(companyId);
      const live = await h.key(companyId, { env: 'live' });
      const limit = plans.free.storageBytes;
      assert.equal(limit, 100 * megabyte);
      assert.equal(await reserve(h, companyId, false, limit - 10), null);
      assert.equal(await stored(h, key), limit - 10);
      assert.equal(await reserve(h, companyId, false, 11), 'storage_quota_exceeded');
      assert.equal(await reserve(h, companyId, false, 10), null, 'up to the byte');
      assert.equal(await reserve(h, companyId, true, limit), null, 'the live environment has its own');
      assert.equal(await reserve(h, companyId, true, 1), 'storage_quota_exceeded');
      assert.equal(await stored(h, live), limit);

      await inTransaction(h.deps.db, contextFor(companyId, false, h.clock.now()), (tx) =>
        releaseStorage(tx, { companyId, livemode: false }, 20),
      );
      assert.equal(await stored(h, key), limit - 20);
      await assert.rejects(
        inTransaction(h.deps.db, contextFor(companyId, false, h.clock.now()), async (tx) => {
          await reserveStorage(tx, { companyId, livemode: false }, 15);
          throw new Error('the file could not be written');
        }),
        /could not be written/,
      );
      assert.equal(await stored(h, key), limit - 20, 'the rolled-back reservation counts nothing');
      await assert.rejects(
        inTransaction(h.deps.db, null, (tx) => reserveStorage(tx, { companyId, livemode: false }, -1)),
        /cannot reserve -1 bytes/,
      );

      // A larger plan, a larger storage; a release never goes below zero.
      await changePlan(h.deps, null, companyId, 'essential');
      assert.equal(await reserve(h, companyId, true, 500 * megabyte), null);
      await inTransaction(h.deps.db, null, (tx) => releaseStorage(tx, { companyId, livemode: true }, 10 * limit));
      assert.equal(await stored(h, live), 0);

      // The sandbox reset takes the test files away, and their count.
      const reset = await h.call('POST', '/v1/sandbox/reset', { key });
      assert.equal(reset.data.purged.storage, 1);
      assert.equal(await stored(h, key), 0);
    },
  );

  await t.test('concurrent reservations never pass the storage together', async () => {
    const companyId = await h.company({ plan: 'free' });
    const results = await Promise.all(Array.from({ length: 10 }, () => reserve(h, companyId, false, 15 * megabyte)));
    assert.equal(results.filter((code) => code === null).length, 6, '6 x 15 MB fit in 100 MB, the 7th does not');
    assert.equal(results.filter((code) => code === 'storage_quota_exceeded').length, 4);
    const key = await h.key(companyId);
    assert.equal(await stored(h, key), 90 * megabyte);
  });
});
