/**
 * Row-level security around every table that holds a tenant's or a user's data (migration 0024),
 * and the service's database role: no superuser, no BYPASSRLS, for every pool the service uses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import { contextFor, startHarness, type Harness } from '../support/harness.js';
import { inTransaction } from '../../src/db/transaction.js';
import { connect, disconnect, openDatabase } from '../../src/db/database.js';
import { checkServiceRole, effectiveRole, serviceRole } from '../../src/db/service-role.js';
import { createUserWithPassword, issuePasswordLink } from '../../src/users/service.js';
import { userRecords } from '../../src/users/data-export.js';

/** Tables with no tenant's or user's data: the tenant role may read them whole. */
const sharedTables = new Set(['rate_windows', 'periodic_passes']);

/** A company with a dashboard user (a password, a session, a link) and a failed sign-in of its e-mail. */
async function companyWithUser(h: Harness) {
  const { companyId, key } = await h.tenant();
  const email = `rls-${randomBytes(4).toString('hex')}@example.com`;
  const user = await createUserWithPassword(h.deps, { companyId, email, password: 'a long enough password 1' });
  await issuePasswordLink(h.deps, user.id);
  await h.deps.pool.query(
    `insert into dashboard_sessions (token_hash, user_id, company_id, csrf_token, reauth_failures, created,
       last_seen_at, expires_at, absolute_expires_at)
     values ($1, $2, $3, 'csrf', 0, now(), now(), now() + interval '1 hour', now() + interval '1 day')`,
    [randomBytes(16).toString('hex'), user.id, companyId],
  );
  await h.deps.pool.query(
    `insert into auth_failures (ip, window_started_at, failures) values ($1, now(), 1) on conflict do nothing`,
    [`sign-in:account:${email}`],
  );
  return { companyId, key, userId: user.id, email };
}

interface TableShape {
  name: string;
  /** The column naming the row's company: company_id, companies' id, or none. */
  owner: string | null;
}

async function tables(pool: pg.Pool): Promise<TableShape[]> {
  const { rows } = await pool.query<{ name: string; has_company: boolean }>(`
    select t.table_name as name, exists (select 1 from information_schema.columns c where c.table_schema = 'public'
      and c.table_name = t.table_name and c.column_name = 'company_id') as has_company
    from information_schema.tables t where t.table_schema = 'public' and t.table_type = 'BASE TABLE'
    order by t.table_name`);
  return rows.map((row) => ({
    name: row.name,
    owner: row.name === 'companies' ? 'id' : row.has_company ? 'company_id' : null,
  }));
}

/**
 * The rows of `table` that the tenant role sees and that are not `visibleCompany`'s (all of them
 * when it has none), each counted in its own savepoint: a table the role may not read shows none.
 */
async function foreignRowsSeen(client: pg.PoolClient, table: TableShape, visibleCompany: string | null) {
  const foreign =
    table.owner && visibleCompany !== null
      ? `where ${table.owner} is distinct from ${client.escapeLiteral(visibleCompany)}`
      : '';
  await client.query('savepoint probe');
  try {
    // Only columns the role may be granted: count(*) reads none (the users' hashes are refused below).
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from "${table.name}" ${foreign}`);
    await client.query('release savepoint probe');
    return rows[0]!.n;
  } catch (error) {
    await client.query('rollback to savepoint probe');
    if ((error as { code?: string }).code === '42501') return 0;
    throw error;
  }
}

/** Runs `work` as facteur_tenant with the settings of `companyId` (none when null), then rolls back. */
async function asTenant<T>(h: Harness, companyId: string | null, work: (client: pg.PoolClient) => Promise<T>) {
  const client = await h.deps.pool.connect();
  try {
    await client.query('begin; set local role facteur_tenant');
    if (companyId !== null)
      await client.query(
        `select set_config('facteur.company_id', $1, true), set_config('facteur.livemode', 'false', true)`,
        [companyId],
      );
    return await work(client);
  } finally {
    await client.query('rollback');
    client.release();
  }
}

test('the service works as a role that cannot bypass row-level security', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  for (const pool of [h.deps.pool, h.deps.fast.pool]) {
    const role = await effectiveRole(pool);
    assert.equal(role.role, serviceRole, 'the pools work as the service role');
    assert.equal(role.superuser, false, 'rolsuper');
    assert.equal(role.bypassesRls, false, 'rolbypassrls');
  }
  const { rows } = await h.deps.pool.query(
    `select rolsuper, rolbypassrls, pg_has_role($1, 'facteur_tenant', 'MEMBER') as tenant,
       pg_has_role($1, 'facteur_worker', 'MEMBER') as worker from pg_roles where rolname = $1`,
    [serviceRole],
  );
  assert.deepEqual(rows, [{ rolsuper: false, rolbypassrls: false, tenant: true, worker: true }]);

  // The start refuses a pool that would bypass the fence: here the suite's superuser login, kept as is.
  const owner = connect(process.env.DATABASE_URL!, 1, null);
  t.after(() => disconnect(owner));
  if ((await effectiveRole(owner.pool)).superuser)
    await assert.rejects(
      checkServiceRole(owner.pool, () => undefined),
      /superuser, has BYPASSRLS or owns the tables/,
    );
  // The service's own pool passes; its login (this suite's superuser) is said to be the weaker way.
  const warnings: string[] = [];
  await checkServiceRole(h.deps.pool, (message) => warnings.push(message));
  const login = await effectiveRole(h.deps.pool);
  assert.equal(warnings.length, login.loginBypassesRls ? 1 : 0);
});

test("the tenant role reads no one else's row in any table, with no settings or another company's", async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const a = await companyWithUser(h);
  const b = await companyWithUser(h);

  // What there is to hide, seen by the service's role outside a tenant's transaction.
  const seeded = await h.deps.pool.query(
    `select (select count(*)::int from users where company_id = $1 and password_hash is not null) as users,
       (select count(*)::int from dashboard_sessions where company_id = $1) as sessions,
       (select count(*)::int from password_links where user_id = $2) as links,
       (select count(*)::int from subscriptions where company_id = $1) as subscriptions,
       (select count(*)::int from companies where id = $1) as companies,
       (select count(*)::int from auth_failures where ip = $3) as failures`,
    [a.companyId, a.userId, `sign-in:account:${a.email}`],
  );
  assert.deepEqual(seeded.rows[0], { users: 1, sessions: 1, links: 1, subscriptions: 1, companies: 1, failures: 1 });

  const all = await tables(h.deps.pool);
  for (const name of ['users', 'dashboard_sessions', 'password_links', 'companies', 'subscriptions'])
    assert.ok(
      all.some((table) => table.name === name),
      `${name} is listed`,
    );
  for (const [label, settings] of [
    ['no settings', null],
    ["company B's settings", b.companyId],
  ] as const) {
    const leaks = await asTenant(h, settings, async (client) => {
      const seen: string[] = [];
      for (const table of all) {
        if (sharedTables.has(table.name)) continue;
        const n = await foreignRowsSeen(client, table, settings);
        if (n > 0) seen.push(`${table.name}: ${n}`);
      }
      return seen;
    });
    assert.deepEqual(leaks, [], `rows of other companies or users seen with ${label}`);
  }

  // The password hashes above all: not even the company's own are readable by its tenant.
  for (const settings of [null, b.companyId, a.companyId])
    await asTenant(h, settings, async (client) => {
      await assert.rejects(client.query('select password_hash from users'), (error: { code?: string }) => {
        assert.equal(error.code, '42501');
        return true;
      });
    });
  // Nor written into someone else's company: the fence's check refuses it.
  await asTenant(h, b.companyId, async (client) => {
    const moved = await client.query(`update companies set name = 'Taken' where id = $1`, [a.companyId]);
    assert.equal(moved.rowCount, 0);
    await assert.rejects(
      client.query(`update companies set id = $1 where id = $2`, [a.companyId, b.companyId]),
      (error: { code?: string }) => error.code === '42501',
    );
  });
});

test("the fence keeps what a tenant's transaction reads of its own: its company, subscription and users", async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const a = await companyWithUser(h);
  const b = await companyWithUser(h);
  const ctx = contextFor(a.companyId, false, h.clock.now());

  const own = await inTransaction(h.deps.db, ctx, async (tx) => {
    // No company filter on purpose: the fence alone decides what is seen.
    const count = async (table: string) =>
      ((await tx.execute(sql.raw(`select count(*)::int as n from ${table}`))).rows[0] as { n: number }).n;
    return {
      companies: await count('companies'),
      subscriptions: await count('subscriptions'),
      users: await userRecords(tx, ctx.scope, null, 10),
      sessions: await count('dashboard_sessions').catch((error: { cause?: { code?: string } }) => error.cause?.code),
    };
  });
  assert.equal(own.companies, 1, 'its own company row');
  assert.equal(own.subscriptions, 1, 'its own subscription');
  assert.deepEqual(
    own.users.map(({ record }) => [record.id, record.email, record.passwordSet, record.company]),
    [[a.userId, a.email, true, a.companyId]],
    'its users in the data-protection export, the password said set without its hash',
  );
  assert.equal(own.sessions, '42501', 'sessions are never a tenant transaction’s to read');

  // A tenant's own company row is still updated in its transaction, and only its own.
  const renamed = await inTransaction(h.deps.db, ctx, (tx) =>
    tx.execute(sql`update companies set trade_name = 'Fenced' where id in (${a.companyId}, ${b.companyId})`),
  );
  assert.equal(renamed.rowCount, 1);

  // The API that reads company and subscription in the tenant's scope still answers.
  const account = await h.call('GET', '/v1/account', { key: a.key });
  assert.equal(account.statusCode, 200, account.body);

  // A worker (no tenant) still sees every company's users, as the sign-in and the sessions need.
  const users = await inTransaction(h.deps.db, null, (tx) =>
    tx.execute(
      sql`select count(*)::int as n from users where company_id in (${a.companyId}, ${b.companyId}) and password_hash is not null`,
    ),
  );
  assert.equal((users.rows[0] as { n: number }).n, 2);
});

test(
  'the embedded server: migrated as its superuser, the service logs in as its own role',
  { timeout: 180_000, skip: process.platform === 'win32' },
  async (t) => {
    const root = await mkdtemp(join(tmpdir(), 'facteur-service-role-'));
    const warnings: string[] = [];
    const database = await openDatabase({
      databaseUrl: null,
      dataDir: join(root, 'data'),
      log: () => undefined,
      warn: (message) => warnings.push(message),
      ownsServer: true,
      poolSize: 2,
    });
    t.after(async () => {
      await database.close();
      await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    });
    const role = await effectiveRole(database.pool);
    assert.deepEqual(
      { role: role.role, login: role.login, superuser: role.superuser, bypassesRls: role.bypassesRls },
      { role: serviceRole, login: serviceRole, superuser: false, bypassesRls: false },
    );
    assert.equal(role.loginBypassesRls, false);
    assert.deepEqual(warnings, []);
    assert.equal(new URL(database.url).username, serviceRole, "the URL of the pools is the service role's login");
  },
);
