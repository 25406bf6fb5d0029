import type pg from 'pg';

/**
 * A fingerprint of everything a company holds: per tenant table, its rows' count and the newest
 * row version (`xmin`) among them, so that an insert, an update or a delete changes it. Bookkeeping
 * a refused request may legitimately write is left out: API keys (last use), idempotency records
 * (a refusal after validation is replayed, as the README says), rate-limit windows and usage
 * counters, and the dashboard's sessions and users.
 */
const bookkeeping = new Set([
  'api_keys',
  'idempotency_keys',
  'rate_windows',
  'usage_counters',
  'dashboard_sessions',
  'password_links',
  'users',
]);

export type Fingerprint = (companyId: string) => Promise<string>;

export async function tenantFingerprint(pool: pg.Pool): Promise<Fingerprint> {
  const { rows } = await pool.query<{ table_name: string }>(
    `select table_name from information_schema.columns
      where column_name = 'company_id' and table_schema = current_schema() order by table_name`,
  );
  const tables = rows.map((row) => row.table_name).filter((table) => !bookkeeping.has(table));
  if (!tables.includes('invoices') || !tables.includes('events'))
    throw new Error(`tenant tables not found: ${tables.join(', ')}`);
  const parts = [
    ...tables.map(
      (table) =>
        `(select '${table}=' || count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from "${table}" where company_id = $1)`,
    ),
    `(select 'companies=' || coalesce(max(xmin::text::bigint), 0) from companies where id = $1)`,
  ];
  const sql = `select concat_ws(' ', ${parts.join(', ')}) as fingerprint`;
  return async (companyId) => (await pool.query<{ fingerprint: string }>(sql, [companyId])).rows[0]!.fingerprint;
}
