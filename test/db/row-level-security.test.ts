import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { contextFor, startHarness } from '../support/harness.js';
import { inTransaction } from '../../src/db/transaction.js';

test('every tenant table carries livemode and is fenced by row-level security for both roles', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { rows } = await h.deps.pool.query(`
    select c.table_name,
      exists (select 1 from information_schema.columns l where l.table_schema = 'public'
        and l.table_name = c.table_name and l.column_name = 'livemode') as has_livemode,
      (select relrowsecurity from pg_class where oid = format('public.%I', c.table_name)::regclass) as fenced,
      (select array_agg(policyname::text order by policyname) from pg_policies p
        where p.schemaname = 'public' and p.tablename = c.table_name) as policies
    from information_schema.columns c
    where c.table_schema = 'public' and c.column_name = 'company_id'
      -- Users and their dashboard sessions belong to the company, in both environments (contract, 2),
      -- and so does the account holder's subscription, with the operator's billing events that move it
      -- (private to the service: no tenant role reads them).
      and c.table_name not in ('users', 'dashboard_sessions', 'subscriptions', 'billing_events')
      and c.table_name not in (select table_name from information_schema.views)`);
  assert.ok(rows.length >= 20, `tenant tables found: ${rows.length}`);
  for (const row of rows) {
    assert.equal(row.has_livemode, true, `${row.table_name} has livemode`);
    assert.equal(row.fenced, true, `${row.table_name} has row-level security`);
    assert.deepEqual(row.policies, ['tenant_scope', 'worker_claims'], `${row.table_name} policies`);
  }
});

test('a query that forgets its scope sees only its own tenant, and none without one; a worker sees all', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const a = await h.tenant();
  const b = await h.tenant();
  for (const { key } of [a, b]) {
    const created = await h.call('POST', '/v1/customers', { key, body: { name: 'Fence SARL' } });
    assert.equal(created.statusCode, 201);
  }
  const count = async (scope: { companyId: string; livemode: boolean } | null) =>
    inTransaction(h.deps.db, scope ? contextFor(scope.companyId, scope.livemode, h.clock.now()) : null, async (tx) => {
      // No company filter on purpose: the fence alone decides what is seen.
      const result = await tx.execute(
        sql`select count(*)::int as n, count(distinct company_id)::int as companies from customers
            where company_id in (${a.companyId}, ${b.companyId})`,
      );
      return result.rows[0] as { n: number; companies: number };
    });
  assert.deepEqual(await count({ companyId: a.companyId, livemode: false }), { n: 1, companies: 1 });
  assert.deepEqual(await count({ companyId: a.companyId, livemode: true }), { n: 0, companies: 0 });
  assert.deepEqual(await count(null), { n: 2, companies: 2 });

  // The tenant role with no scope set at all sees nothing.
  const client = await h.deps.pool.connect();
  try {
    await client.query('begin; set local role facteur_tenant');
    const { rows } = await client.query('select count(*)::int as n from customers where company_id = $1', [
      a.companyId,
    ]);
    assert.equal(rows[0].n, 0);
    await client.query('rollback');
  } finally {
    client.release();
  }

  // Writing into another tenant's scope is refused by the fence, whatever the query says.
  await assert.rejects(
    inTransaction(h.deps.db, contextFor(a.companyId, false, h.clock.now()), (tx) =>
      tx.execute(sql`update customers set name = 'Taken' where company_id = ${b.companyId}`).then((result) => {
        // An update the fence hides touches nothing; make that visible as a failure to the test.
        if ((result.rowCount ?? 0) === 0) throw Object.assign(new Error('hidden'), { code: 'HIDDEN' });
      }),
    ),
    (error: { code?: string }) => error.code === 'HIDDEN',
  );
  await assert.rejects(
    inTransaction(h.deps.db, contextFor(a.companyId, false, h.clock.now()), (tx) =>
      tx.execute(sql`insert into emails (company_id, livemode, id, subject, body, status, created)
        values (${b.companyId}, false, 'email_fence', 's', 'b', 'logged', now())`),
    ),
    (error: { cause?: { code?: string }; code?: string }) => (error.cause?.code ?? error.code) === '42501',
  );
});
