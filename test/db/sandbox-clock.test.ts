/**
 * `dueOnScopeClock`, the due test of every leased queue: live rows on real time, test rows on
 * their company's sandbox clock; the company's offset read only for rows that real time alone
 * does not make due (a queue's claim may test every waiting row).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { startHarness } from '../support/harness.js';
import { dueOnScopeClock } from '../../src/db/sandbox-clock.js';
import { advanceSandboxOffset } from '../../src/companies/store.js';

test('due on the scope clock: real time for live rows, the sandbox clock for test rows; the offset read only when real time is not enough', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const companyId = await h.company();
  await advanceSandboxOffset(h.deps.db, companyId, 3_600_000);
  const now = new Date('2026-06-01T12:00:00.000Z');
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
  const rows = [
    { name: 'test, past', livemode: false, due: at(-5) },
    { name: 'test, in 30 min (sandbox clock one hour ahead)', livemode: false, due: at(30) },
    { name: 'test, in 2 h', livemode: false, due: at(120) },
    { name: 'live, past', livemode: true, due: at(-5) },
    { name: 'live, in 30 min', livemode: true, due: at(30) },
  ];
  const values = sql.join(
    rows.map((row) => sql`(${row.name}::text, ${companyId}::text, ${row.livemode}::boolean, ${row.due}::timestamptz)`),
    sql`, `,
  );
  const due = dueOnScopeClock(
    sql.raw('t.due'),
    { companyId: sql.raw('t.company_id'), livemode: sql.raw('t.livemode') },
    now,
  );
  const table = sql`(values ${values}) as t(name, company_id, livemode, due)`;
  const found = await h.deps.db.execute(sql`select t.name from ${table} where ${due} order by t.name`);
  assert.deepEqual(
    found.rows.map((row) => row.name),
    ['live, past', 'test, in 30 min (sandbox clock one hour ahead)', 'test, past'],
  );
  // The company's offset: looked up for the three rows real time does not make due, of which two
  // are test rows (a live row's offset is 0 without a look).
  const plan = await h.deps.db.execute(sql`explain (analyze, format json) select t.name from ${table} where ${due}`);
  const lookups: number[] = [];
  const walk = (node: Record<string, unknown>) => {
    if (node['Relation Name'] === 'companies') lookups.push(Number(node['Actual Loops']));
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  const [explained] = (plan.rows[0] as { 'QUERY PLAN': { Plan: Record<string, unknown> }[] })['QUERY PLAN'];
  walk(explained!.Plan);
  assert.deepEqual(
    lookups,
    [2],
    'the offset read for the two test rows not due in real time, not for the test row already due',
  );
});

test('the database refuses a sandbox clock set behind real time, the premise of the due test', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const companyId = await h.company();
  await assert.rejects(
    h.deps.pool.query('update companies set sandbox_clock_offset_ms = -1 where id = $1', [companyId]),
    (error: { code?: string; constraint?: string }) =>
      error.code === '23514' && error.constraint === 'companies_sandbox_clock_forward',
  );
  await advanceSandboxOffset(h.deps.db, companyId, 1_000);
  const { rows } = await h.deps.pool.query(
    'select sandbox_clock_offset_ms::int as offset from companies where id = $1',
    [companyId],
  );
  assert.equal(rows[0].offset, 1_000);
});
