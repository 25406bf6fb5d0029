import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from './database.js';
import { executePrepared } from './prepared-statement.js';

/**
 * The claim of every leased queue (jobs, webhook deliveries, e-mails, periodic passes), written
 * once: due rows whose lease is free or lapsed are locked `FOR UPDATE SKIP LOCKED` (two workers
 * never take one row), leased to `token` until `now + leaseMs` (a worker that dies gives them
 * back when the lease lapses), and returned. Rows are keyed by `key` (the columns that identify
 * one) and must have `locked_until` and `lock_token` columns.
 */
export interface LeasedClaim {
  /** The table, as it is named in SQL; aliased `t` in the conditions below. */
  table: string;
  key: readonly string[];
  /** What makes a row due, on alias `t` (its lease aside). */
  due: SQL;
  order: SQL;
  /** More columns to set with the lease (`attempts = t.attempts + 1`). */
  set?: SQL;
  /** The columns returned, on alias `t`. */
  returning: SQL;
  /** Only these companies' rows (a worker dedicated to some tenants, or a test's own). */
  companyIds?: readonly string[] | undefined;
  /**
   * Rows of other tables read with the claimed ones, in the same statement: `joins` on the
   * claimed rows (alias `c`, the `returning` columns) and the `columns` they add.
   */
  joined?: { columns: SQL; joins: SQL };
}

export async function claimLeased(
  db: Executor,
  claim: LeasedClaim,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
): Promise<Record<string, unknown>[]> {
  if (lease.limit <= 0 || (claim.companyIds && claim.companyIds.length === 0)) return [];
  const at = sql`${lease.now.toISOString()}::timestamptz`;
  const table = sql.raw(claim.table);
  const keyList = sql.raw(claim.key.map((column) => `t.${column}`).join(', '));
  const joined = sql.raw(claim.key.map((column) => `t.${column} = due.${column}`).join(' and '));
  const tenants = claim.companyIds
    ? sql`and t.company_id in (${sql.join(
        claim.companyIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const due = sql`due as (
      select ${keyList} from ${table} t
      where ${claim.due} and (t.locked_until is null or t.locked_until < ${at}) ${tenants}
      order by ${claim.order}
      limit ${lease.limit}
      for update of t skip locked
    )`;
  const lock = sql`update ${table} t set locked_until = ${at} + make_interval(secs => ${lease.leaseMs / 1000}::float8),
      lock_token = ${lease.token} ${claim.set ? sql`, ${claim.set}` : sql``}
    from due where ${joined}
    returning ${claim.returning}`;
  // Prepared: a queue's claim has one text (its tenants aside), run by every worker many times a second.
  const result = await executePrepared(
    db,
    claim.joined
      ? sql`with ${due}, c as (${lock}) select c.*, ${claim.joined.columns} from c ${claim.joined.joins}`
      : sql`with ${due} ${lock}`,
  );
  return result.rows;
}

/** A claimed row as its holder knows it: its key's values (in `key` order) and its lease's token. */
export interface HeldLease {
  key: readonly unknown[];
  token: string;
}

/**
 * The renewal of every leased queue's leases (the holder alive, its work still under way): of
 * `held`, the rows still leased to their token get `now + leaseMs`, all in one statement. Returns
 * the items still the holder's; the others were lost (another holder claimed them after a lapse,
 * or they were settled or removed) and their outcome is to be dropped. A row that another
 * transaction has locked at that moment (its holder settling it, a claim) is not waited for: it
 * counts as held if it still was at the statement's start, and the next renewal extends it.
 */
export async function renewLeased<T>(
  db: Executor,
  claim: Pick<LeasedClaim, 'table' | 'key'>,
  held: readonly T[],
  leaseOf: (item: T) => HeldLease,
  lease: { now: Date; leaseMs: number },
): Promise<T[]> {
  if (held.length === 0) return [];
  const items = held.map((item) => {
    const { key, token } = leaseOf(item);
    return Object.fromEntries([...claim.key.map((column, index) => [column, key[index]]), ['lock_token', token]]);
  });
  const table = sql.raw(claim.table);
  const keyOf = (alias: string) => sql.raw(claim.key.map((column) => `${alias}.${column}`).join(', '));
  const same = (left: string, right: string) =>
    sql.raw([...claim.key, 'lock_token'].map((column) => `${left}.${column} = ${right}.${column}`).join(' and '));
  // The items typed by the table's own row type: one text per table, whatever the key's types.
  const result = await executePrepared(
    db,
    sql`with held as (
        select e.n, ${keyOf('h')}, h.lock_token
        from jsonb_array_elements(${JSON.stringify(items)}::jsonb) with ordinality e(item, n),
          jsonb_populate_record(null::${table}, e.item) h
      ), free as (
        select ${keyOf('t')} from ${table} t join held h on ${same('t', 'h')}
        for update of t skip locked
      ), renewed as (
        update ${table} t set locked_until = ${lease.now.toISOString()}::timestamptz
          + make_interval(secs => ${lease.leaseMs / 1000}::float8)
        from free f where ${sql.raw(claim.key.map((column) => `t.${column} = f.${column}`).join(' and '))}
        returning 1
      )
      select h.n from held h join ${table} t on ${same('t', 'h')}`,
  );
  const kept = new Set(result.rows.map((row) => Number(row.n)));
  return held.filter((_, index) => kept.has(index + 1));
}
