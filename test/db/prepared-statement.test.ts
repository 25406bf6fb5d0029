import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { startHarness } from '../support/harness.js';
import { executePrepared, rowInsert, statementTemplate } from '../../src/db/prepared-statement.js';
import { events } from '../../src/webhooks/schema.js';
import type { EventRow } from '../../src/webhooks/event-store.js';
import { products } from '../../src/products/schema.js';

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

test('a row inserted by its template: the row the query builder would write, null staying SQL NULL, a left-out column its default', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const companyId = await h.company();
  const insert = rowInsert(events);
  const at = new Date('2026-03-01T10:00:00.123Z');
  const row = (id: string, request: EventRow['request']): EventRow => ({
    companyId,
    livemode: false,
    id,
    type: 'customer.created',
    apiVersion: '2026-01-01',
    created: at,
    data: { object: 'customer', nested: { list: [1, 'two', null] } },
    retainedUntil: at,
    request,
  });
  await insert(h.deps.db, row('evt_template_null', null));
  await insert(h.deps.db, row('evt_template_request', { id: 'req_1', idempotency_key: null }));
  await h.deps.db.insert(events).values(row('evt_builder_null', null));
  const read = await h.deps.db.execute(
    sql`select id, created, data, request, request is null as sql_null from events where company_id = ${companyId} and id in ('evt_builder_null', 'evt_template_null', 'evt_template_request') order by id`,
  );
  assert.deepEqual(
    read.rows.map((r) => [r.id, r.sql_null, r.request]),
    [
      ['evt_builder_null', true, null],
      ['evt_template_null', true, null],
      ['evt_template_request', false, { id: 'req_1', idempotency_key: null }],
    ],
  );
  const [byBuilder, byTemplate] = read.rows;
  assert.deepEqual(
    { created: byTemplate!.created, data: byTemplate!.data },
    { created: byBuilder!.created, data: byBuilder!.data },
  );

  // A column left out (undefined) takes its default through the query builder, as `values()` does.
  const productRows = rowInsert(products);
  await assert.rejects(productRows(h.deps.db, { companyId, id: 'prd_template' } as never), (error: Error) => {
    // Not the template's own refusal of a missing value: the builder sent DEFAULT, PostgreSQL refused the row.
    assert.doesNotMatch(error.message, /No value for placeholder/);
    assert.match(`${error.message} ${String((error as { cause?: unknown }).cause)}`, /null value in column/);
    return true;
  });
});
