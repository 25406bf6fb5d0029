import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { authFailures, rateWindows, usageCounters } from './schema.js';

export interface WindowHit {
  bucket: string;
  windowStart: Date;
}

/** Counts one request in each window, in one statement; returns the counts in the order given. */
export async function countHits(db: Executor, hits: WindowHit[]): Promise<number[]> {
  const rows = await db
    .insert(rateWindows)
    .values(hits.map((hit) => ({ ...hit, count: 1 })))
    .onConflictDoUpdate({ target: [rateWindows.bucket, rateWindows.windowStart], set: { count: sql`${rateWindows.count} + 1` } })
    .returning({ bucket: rateWindows.bucket, count: rateWindows.count });
  const counts = new Map(rows.map((row) => [row.bucket, row.count]));
  return hits.map((hit) => counts.get(hit.bucket) ?? 0);
}

export async function deleteWindowsBefore(db: Executor, before: Date): Promise<number> {
  const rows = await db.delete(rateWindows).where(lt(rateWindows.windowStart, before)).returning({ bucket: rateWindows.bucket });
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
export async function recordAuthFailure(db: Executor, ip: string, now: Date, policy: FailurePolicy): Promise<Date | null> {
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
export async function consumeUsage(db: Executor, companyId: string, period: string, metric: string, amount: number, limit: number): Promise<boolean> {
  if (amount > limit) return false;
  const rows = await db
    .insert(usageCounters)
    .values({ companyId, period, metric, count: amount })
    .onConflictDoUpdate({
      target: [usageCounters.companyId, usageCounters.period, usageCounters.metric],
      set: { count: sql`${usageCounters.count} + ${amount}::int` },
      setWhere: sql`${usageCounters.count} + ${amount}::int <= ${limit}::int`,
    })
    .returning({ count: usageCounters.count });
  return rows.length > 0;
}

export async function readUsage(db: Executor, companyId: string, period: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ metric: usageCounters.metric, count: usageCounters.count })
    .from(usageCounters)
    .where(and(eq(usageCounters.companyId, companyId), eq(usageCounters.period, period)));
  return Object.fromEntries(rows.map((row) => [row.metric, row.count]));
}
