import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { inTransaction } from '../../src/db/transaction.js';
import { sql } from 'drizzle-orm';
import { currentValue, moveCounterBeyond, numberSql, takeNextValue } from '../../src/numbering/service.js';
import { formatNumber, seriesOf } from '../../src/numbering/series.js';

test('200 concurrent takers of one counter (quotes take theirs this way), some rolling back after taking a value: consecutive values, no gap, no duplicate', async (t) => {
  const h = await startHarness({ poolSize: 30 });
  t.after(() => h.close());
  const { companyId } = await h.tenant();
  const scope = { companyId, livemode: true };
  const series = seriesOf('invoice', true, 2026);
  const results = await Promise.allSettled(
    Array.from({ length: 200 }, (_, i) =>
      inTransaction(h.deps.db, null, async (tx) => {
        const value = await takeNextValue(tx, scope, series);
        await tx.execute('select pg_sleep(0.001)');
        if (i % 7 === 3) throw new Error(`finalization ${i} refused after its number was taken`);
        return formatNumber(series, value);
      }),
    ),
  );
  const numbers = results
    .filter((r): r is PromiseFulfilledResult<string> => r.status === 'fulfilled')
    .map((r) => r.value);
  const failed = results.filter((r) => r.status === 'rejected').length;
  const refusals = Array.from({ length: 200 }, (_, i) => i).filter((i) => i % 7 === 3).length;
  assert.equal(failed, refusals);
  assert.equal(numbers.length, 200 - refusals);
  const sequence = numbers.map((n) => Number(n.split('-').at(-1))).sort((a, b) => a - b);
  assert.deepEqual(
    sequence,
    Array.from({ length: 200 - refusals }, (_, i) => i + 1),
    'consecutive from 1, no gap, no duplicate',
  );
  assert.equal(await currentValue(h.deps.db, scope, series), 200 - refusals);
});

test('series are per company, environment and kind: a test document never takes a live number', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const a = await h.company();
  const b = await h.company();
  const take = (companyId: string, livemode: boolean, kind: 'invoice' | 'credit_note') =>
    h.deps.db.transaction((tx) => takeNextValue(tx, { companyId, livemode }, seriesOf(kind, livemode, 2026)));
  assert.equal(await take(a, true, 'invoice'), 1);
  assert.equal(await take(a, false, 'invoice'), 1);
  assert.equal(await take(a, true, 'invoice'), 2);
  assert.equal(await take(a, true, 'credit_note'), 1);
  assert.equal(await take(b, true, 'invoice'), 1);
  assert.notEqual(seriesOf('invoice', true, 2026), seriesOf('invoice', false, 2026));
});

test('a sandbox reset moves a series beyond the fixtures, never back', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const companyId = await h.company();
  const scope = { companyId, livemode: false };
  const series = seriesOf('invoice', false, 2026);
  await h.deps.db.transaction((tx) => moveCounterBeyond(tx, scope, series, 5));
  assert.equal(await h.deps.db.transaction((tx) => takeNextValue(tx, scope, series)), 6);
  await h.deps.db.transaction((tx) => moveCounterBeyond(tx, scope, series, 3));
  assert.equal(await h.deps.db.transaction((tx) => takeNextValue(tx, scope, series)), 7);
});

test('the number written in SQL by the finalization is the one formatNumber writes', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  for (const value of [1, 42, 999_999, 1_000_000, 123_456_789]) {
    for (const series of [seriesOf('invoice', true, 2026), seriesOf('credit_note', false, 2027)]) {
      const result = await h.deps.db.execute(sql`select ${numberSql(series, sql`${value}::bigint`)} as number`);
      assert.equal((result.rows[0] as { number: string }).number, formatNumber(series, value));
    }
  }
});
