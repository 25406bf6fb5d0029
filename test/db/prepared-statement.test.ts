import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { startHarness } from '../support/harness.js';
import { executePrepared, statementTemplate } from '../../src/db/prepared-statement.js';
import { events } from '../../src/webhooks/schema.js';

test('a prepared statement: parsed once per connection under a name of its text, each text its own name', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const prepared = await h.deps.db.transaction(async (tx) => {
    const first = await executePrepared(tx, sql`select ${1}::int + 1 as two`);
    const again = await executePrepared(tx, sql`select ${41}::int + 1 as two`);
    const other = await executePrepared(tx, sql`select ${1}::int + 2 as three`);
    assert.deepEqual([first.rows, again.rows, other.rows], [[{ two: 2 }], [{ two: 42 }], [{ three: 3 }]]);
    return (await tx.execute(sql`select name, statement from pg_prepared_statements order by statement`)).rows;
  });
  assert.deepEqual(
    prepared.map((row) => row.statement),
    ['select $1::int + 1 as two', 'select $1::int + 2 as three'],
    'one statement per text, kept by the connection',
  );
  for (const row of prepared) assert.match(String(row.name), /^facteur_[0-9a-f]{24}$/);
  assert.notEqual(prepared[0]!.name, prepared[1]!.name);
});

test('a statement template: built once, each run filled with its own values, encoded as their columns encode them', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  let builds = 0;
  const template = statementTemplate<{ n: number; at: Date; data: Record<string, unknown> }>(() => {
    builds += 1;
    return sql`select ${sql.placeholder('n')}::int + 1 as next,
      ${sql.param(sql.placeholder('at'), events.created)}::timestamptz = '2026-03-01T10:00:00.123Z' as on_time,
      ${sql.param(sql.placeholder('data'), events.data)}::jsonb ->> 'number' as number`;
  });
  const runs = await h.deps.db.transaction(async (tx) => {
    const first = await template(tx, { n: 1, at: new Date('2026-03-01T10:00:00.123Z'), data: { number: 'F-1' } });
    const second = await template(tx, { n: 41, at: new Date('2026-03-02T10:00:00Z'), data: { number: 'F-2' } });
    const prepared = await tx.execute(
      sql`select statement from pg_prepared_statements where statement like '%on_time%'`,
    );
    return { rows: [first.rows, second.rows], prepared: prepared.rows.length };
  });
  assert.deepEqual(runs.rows, [
    [{ next: 2, on_time: true, number: 'F-1' }],
    [{ next: 42, on_time: false, number: 'F-2' }],
  ]);
  assert.equal(builds, 1, 'the statement is built once, not at each run');
  assert.equal(runs.prepared, 1, 'one prepared statement for both runs');
  await assert.rejects(
    h.deps.db.transaction((tx) => template(tx, { n: 1, at: new Date() } as never)),
    /No value for placeholder "data"/,
  );
});
