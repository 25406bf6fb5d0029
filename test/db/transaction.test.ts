import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inTransaction } from '../../src/db/transaction.js';
import { startHarness } from '../support/harness.js';

test('a transaction that loses a deadlock runs again; other errors do not', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  let runs = 0;
  const result = await inTransaction(h.deps.db, null, async (tx) => {
    runs++;
    await tx.execute('select 1');
    if (runs === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    return 'done';
  });
  assert.equal(result, 'done');
  assert.equal(runs, 2);

  let failures = 0;
  await assert.rejects(
    inTransaction(h.deps.db, null, async () => {
      failures++;
      throw Object.assign(new Error('could not serialize'), { code: '40001' });
    }),
    /could not serialize/,
  );
  assert.equal(failures, 3, 'at most three attempts');

  let once = 0;
  await assert.rejects(
    inTransaction(h.deps.db, null, async () => {
      once++;
      throw Object.assign(new Error('unique violation'), { code: '23505' });
    }),
  );
  assert.equal(once, 1);
});
