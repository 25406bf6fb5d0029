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
