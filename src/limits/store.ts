import { lt, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Executor } from '../db/database.js';
import { authFailures, rateWindows, usageCounters } from './schema.js';

export interface WindowHit {
  bucket: string;
  windowStart: Date;
}

/**
 * Counts requests in their windows by batches: the hits that arrive while a batch is being
 * counted wait and go together in the next one, so a busy node sends one statement for many
 * requests, and an idle one sends each at once. The statement adds each bucket's hits and returns
 * its new count; the hits of one bucket in a batch take the counts up to it in their order. Every
 * node counts through PostgreSQL, so a window's count is exact across nodes: no request is
 * admitted past the limit, and none is refused below it.
 */
export class WindowCounter {
  private queue: { hits: WindowHit[]; done: (counts: number[]) => void; failed: (error: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly pool: pg.Pool,
    /** Statements counting at the same time; the others' hits wait for the next batch. */
    private readonly concurrency = 2,
  ) {}

  /** Counts one request in each of `hits`' windows; returns the counts in the order given. */
  count(hits: WindowHit[]): Promise<number[]> {
    return new Promise((done, failed) => {
      this.queue.push({ hits, done, failed });
      this.flush();
    });
  }

  private flush(): void {
    if (this.inFlight >= this.concurrency || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.inFlight++;
    void countBatch(
      this.pool,
      batch.map((item) => item.hits),
    )
      .then(
        (counts) => batch.forEach((item, index) => item.done(counts[index]!)),
        (error: unknown) => batch.forEach((item) => item.failed(error)),
      )
      .finally(() => {
        this.inFlight--;
        this.flush();
      });
  }
}

/** One statement for a batch: each (bucket, window) is added its number of hits. */
async function countBatch(pool: pg.Pool, requests: WindowHit[][]): Promise<number[][]> {
  const totals = new Map<string, { bucket: string; windowStart: string; hits: number }>();
  const keyOf = (hit: WindowHit) => `${hit.bucket}\u0000${hit.windowStart.toISOString()}`;
  for (const hit of requests.flat()) {
    const key = keyOf(hit);
    const total = totals.get(key);
    if (total) total.hits++;
    else totals.set(key, { bucket: hit.bucket, windowStart: hit.windowStart.toISOString(), hits: 1 });
  }
  const rows = [...totals.values()];
  const { rows: counted } = await pool.query<{ bucket: string; window_start: Date; count: number }>({
    name: 'facteur_count_window_batch',
    text: `insert into rate_windows (bucket, window_start, count)
      select * from unnest($1::text[], $2::timestamptz[], $3::int[])
      on conflict (bucket, window_start) do update set count = rate_windows.count + excluded.count
      returning bucket, window_start, count`,
    values: [rows.map((row) => row.bucket), rows.map((row) => row.windowStart), rows.map((row) => row.hits)],
  });
  // The first hit of a bucket in this batch takes the count before the batch plus one, and so on.
  const next = new Map<string, number>();
  for (const row of counted) {
    const key = `${row.bucket}\u0000${new Date(row.window_start).toISOString()}`;
    next.set(key, row.count - totals.get(key)!.hits + 1);
  }
  return requests.map((hits) =>
    hits.map((hit) => {
      const key = keyOf(hit);
      const count = next.get(key)!;
      next.set(key, count + 1);
      return count;
    }),
  );
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
