import { lt, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Executor } from '../db/database.js';
import { authFailures, rateWindows, usageCounters } from './schema.js';

export interface WindowHit {
  bucket: string;
  windowStart: Date;
}

/**
 * Counts one request in each window (one or two), in one statement; returns the counts in the
 * order given. On the hot path of every counted request: a named, prepared-once statement.
 */
export async function countHits(pool: pg.Pool, hits: WindowHit[]): Promise<number[]> {
  const values = hits.flatMap((hit) => [hit.bucket, hit.windowStart.toISOString()]);
  const tuples = hits.map((_, i) => `($${i * 2 + 1}, $${i * 2 + 2}::timestamptz, 1)`).join(', ');
  const { rows } = await pool.query<{ bucket: string; count: number }>({
    name: `facteur_count_hits_${hits.length}`,
    text: `insert into rate_windows (bucket, window_start, count) values ${tuples}
      on conflict (bucket, window_start) do update set count = rate_windows.count + 1 returning bucket, count`,
    values,
  });
  const counts = new Map(rows.map((row) => [row.bucket, row.count]));
  return hits.map((hit) => counts.get(hit.bucket) ?? 0);
}

export async function deleteWindowsBefore(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(rateWindows)
    .where(lt(rateWindows.windowStart, before))
    .returning({ bucket: rateWindows.bucket });
  return rows.length;
}

export interface FailurePolicy {
  limit: number;
  windowSeconds: number;
  blockSeconds: number;
}

/**
 * Records one failed authentication from `ip` and returns the end of its block, if any. A window
 * opens at the first failure; the failure past `limit` inside it blocks the address for
 * `blockSeconds`; a block is never extended, and once lifted the count starts again.
 */
export async function recordAuthFailure(
  db: Executor,
  ip: string,
  now: Date,
  policy: FailurePolicy,
): Promise<Date | null> {
  const f = authFailures;
  const at = sql`${now.toISOString()}::timestamptz`;
  const blocked = sql`(${f.blockedUntil} is not null and ${f.blockedUntil} > ${at})`;
  const restart = sql`(${f.blockedUntil} is not null or ${f.windowStartedAt} <= ${at} - make_interval(secs => ${policy.windowSeconds}::int))`;
  const [row] = await db
    .insert(f)
    .values({ ip, windowStartedAt: now, failures: 1, blockedUntil: null })
    .onConflictDoUpdate({
      target: f.ip,
      set: {
        windowStartedAt: sql`case when ${blocked} then ${f.windowStartedAt} when ${restart} then ${at} else ${f.windowStartedAt} end`,
        failures: sql`case when ${blocked} then ${f.failures} + 1 when ${restart} then 1 else ${f.failures} + 1 end`,
        blockedUntil: sql`case when ${blocked} then ${f.blockedUntil}
          when ${restart} then null
          when ${f.failures} + 1 > ${policy.limit}::int then ${at} + make_interval(secs => ${policy.blockSeconds}::int)
          else null end`,
      },
    })
    .returning({ blockedUntil: f.blockedUntil });
  const until = row?.blockedUntil ?? null;
  return until && until.getTime() > now.getTime() ? until : null;
}

/** Adds `amount` to a usage counter unless that would pass `limit`; false when refused. */
export async function consumeUsage(
  db: Executor,
  companyId: string,
  period: string,
  metric: string,
  amount: number,
  limit: number,
): Promise<boolean> {
  if (amount > limit) return false;
  const rows = await db
    .insert(usageCounters)
    .values({ companyId, livemode: true, period, metric, count: amount })
    .onConflictDoUpdate({
      target: [usageCounters.companyId, usageCounters.period, usageCounters.metric],
      set: { count: sql`${usageCounters.count} + ${amount}::int` },
      setWhere: sql`${usageCounters.count} + ${amount}::int <= ${limit}::int`,
    })
    .returning({ count: usageCounters.count });
  return rows.length > 0;
}

export async function readUsage(pool: pg.Pool, companyId: string, period: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ metric: string; count: number }>({
    name: 'facteur_read_usage',
    text: 'select metric, count from usage_counters where company_id = $1 and period = $2',
    values: [companyId, period],
  });
  return Object.fromEntries(rows.map((row) => [row.metric, row.count]));
}
