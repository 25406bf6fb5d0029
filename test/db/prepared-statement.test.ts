import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { startHarness } from '../support/harness.js';
import { executePrepared } from '../../src/db/prepared-statement.js';

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
