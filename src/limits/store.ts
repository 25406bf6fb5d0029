import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Executor } from '../db/database.js';
import { authFailures, rateWindows, usageCounters } from './schema.js';

export interface WindowHit {
  bucket: string;
  windowStart: Date;
  /** The window's limit: a node leases smaller blocks as the count nears it. */
  limit: number;
}

/** Counts leased from PostgreSQL for one bucket's window, handed out by this node in order. */
interface Lease {
  bucket: string;
  windowStart: Date;
  limit: number;
  /** The next count this node hands out, and the last one it holds. */
  next: number;
  end: number;
  /** The size of the last block leased; the next one doubles it, up to `maxBlock`. */
  block: number;
  /** The window's count in PostgreSQL after the last lease (other nodes' leases included). */
  lastCount: number;
  /** When a lease last found the window full (0: never). */
  fullAt: number;
  usedAt: number;
  waiting: { done: (count: number) => void; failed: (error: unknown) => void }[];
}

const maxBlock = 64;
/** A node gives back the counts it leased and did not hand out after this long without a request. */
const idleReturnMs = 200;
/** A node that found a window full refuses locally this long before asking PostgreSQL again. */
const fullRecheckMs = 100;

/**
 * Counts requests in their windows with counts leased from PostgreSQL by blocks. A window's row in
 * `rate_windows` counts the positions handed out or held by some node; a node leases a block of
 * positions (one statement for every bucket that needs one), hands them to its requests in order,
 * and leases again when it runs out, so a busy key costs one statement per block rather than one
 * per request. A position past the limit is a refusal and is given back at once, as are the
 * positions a node leased and left idle: no node ever admits past the limit, and what one node
 * held unused is available to the others within `idleReturnMs`. Blocks double while the window is
 * far from its limit and shrink to one position near it (a quarter of what is left); a node that
 * found the window full refuses locally for `fullRecheckMs` before asking again.
 */
export class WindowCounter {
  private readonly leases = new Map<string, Lease>();
  private readonly wanting = new Set<Lease>();
  private inFlight = false;
  /** Positions to give back, by window (an idle lease forgotten and a new one may give back at once). */
  private readonly givenBack = new Map<string, { bucket: string; windowStart: Date; amount: number }>();
  private givingBack = false;

  constructor(private readonly pool: pg.Pool) {
    setInterval(() => this.giveBackIdle(), idleReturnMs).unref();
  }

  /** Counts one request in each of `hits`' windows; returns the counts in the order given. */
  count(hits: WindowHit[]): Promise<number[]> {
    return Promise.all(hits.map((hit) => this.take(hit)));
  }

  private take(hit: WindowHit): number | Promise<number> {
    const key = `${hit.bucket}\u0000${hit.windowStart.getTime()}`;
    let lease = this.leases.get(key);
    if (!lease) {
      lease = { ...hit, next: 1, end: 0, block: 0, lastCount: 0, fullAt: 0, usedAt: 0, waiting: [] };
      this.leases.set(key, lease);
    }
    const now = Date.now();
    lease.usedAt = now;
    if (lease.waiting.length === 0) {
      if (lease.next <= lease.end) return lease.next++;
      if (now - lease.fullAt < fullRecheckMs) return lease.limit + 1;
    }
    const waiting = lease;
    return new Promise<number>((done, failed) => {
      waiting.waiting.push({ done, failed });
      this.wanting.add(waiting);
      this.flush();
    });
  }

  private flush(): void {
    if (this.inFlight || this.wanting.size === 0) return;
    // A lease marked while its block was in flight may have been served by that block since.
    const batch = [...this.wanting].filter((lease) => {
      while (lease.waiting.length > 0 && lease.next <= lease.end) lease.waiting.shift()!.done(lease.next++);
      return lease.waiting.length > 0;
    });
    this.wanting.clear();
    if (batch.length === 0) return;
    const wants = batch.map((lease) => {
      const nearLimit = Math.max(1, Math.floor((lease.limit - lease.lastCount) / 4));
      return Math.max(lease.waiting.length, Math.min(maxBlock, Math.max(1, lease.block * 2), nearLimit));
    });
    this.inFlight = true;
    void leaseBlocks(this.pool, batch, wants)
      .then(
        (counts) => batch.forEach((lease, index) => this.received(lease, counts[index]!, wants[index]!)),
        (error: unknown) =>
          batch.forEach((lease) => {
            for (const { failed } of lease.waiting.splice(0)) failed(error);
          }),
      )
      .finally(() => {
        this.inFlight = false;
        this.flush();
      });
  }

  /** A block arrived: its positions go to the waiting requests, those past the limit straight back. */
  private received(lease: Lease, count: number, want: number): void {
    const first = count - want + 1;
    Object.assign(lease, { lastCount: count, block: want, next: first, end: count });
    // Requests that arrived during the statement may outnumber the block: they wait for the next.
    for (const { done } of lease.waiting.splice(0, want)) done(lease.next++);
    if (lease.waiting.length > 0) this.wanting.add(lease);
    const pastLimit = count - Math.max(first - 1, lease.limit);
    if (pastLimit > 0) {
      lease.fullAt = Date.now();
      lease.end = Math.max(first - 1, lease.limit);
      this.giveBack(lease, pastLimit);
    }
  }

  /** Gives back what idle leases hold, and forgets the leases of windows no longer used. */
  private giveBackIdle(): void {
    const now = Date.now();
    for (const [key, lease] of this.leases) {
      if (lease.waiting.length > 0 || now - lease.usedAt < idleReturnMs) continue;
      if (lease.next <= lease.end) this.giveBack(lease, lease.end - lease.next + 1);
      this.leases.delete(key);
    }
  }

  private giveBack(lease: Lease, amount: number): void {
    const key = `${lease.bucket}\u0000${lease.windowStart.getTime()}`;
    const given = this.givenBack.get(key);
    if (given) given.amount += amount;
    else this.givenBack.set(key, { bucket: lease.bucket, windowStart: lease.windowStart, amount });
    this.flushGivenBack();
  }

  private flushGivenBack(): void {
    if (this.givingBack || this.givenBack.size === 0) return;
    this.givingBack = true;
    setImmediate(() => {
      const given = [...this.givenBack.values()];
      this.givenBack.clear();
      void returnPositions(this.pool, given)
        .catch(() => undefined)
        .finally(() => {
          this.givingBack = false;
          this.flushGivenBack();
        });
    });
  }
}

/** One statement: each lease's window gets `wants[i]` more positions; returns the new counts. */
async function leaseBlocks(pool: pg.Pool, leases: Lease[], wants: number[]): Promise<number[]> {
  const { rows } = await pool.query<{ bucket: string; window_start: Date; count: number }>({
    name: 'facteur_lease_window_blocks',
    text: `insert into rate_windows (bucket, window_start, count)
      select * from unnest($1::text[], $2::timestamptz[], $3::int[])
      on conflict (bucket, window_start) do update set count = rate_windows.count + excluded.count
      returning bucket, window_start, count`,
    values: [leases.map((lease) => lease.bucket), leases.map((lease) => lease.windowStart), wants],
  });
  const counts = new Map(rows.map((row) => [`${row.bucket}\u0000${new Date(row.window_start).getTime()}`, row.count]));
  return leases.map((lease) => counts.get(`${lease.bucket}\u0000${lease.windowStart.getTime()}`)!);
}

/**
 * Gives positions back to their windows. Positions handed out later keep their numbers, so after a
 * return a number may be handed out twice; the count still never falls below what was admitted.
 */
async function returnPositions(
  pool: pg.Pool,
  given: { bucket: string; windowStart: Date; amount: number }[],
): Promise<void> {
  await pool.query({
    name: 'facteur_return_window_positions',
    text: `update rate_windows set count = greatest(0, rate_windows.count - given.amount)
      from unnest($1::text[], $2::timestamptz[], $3::int[]) as given (bucket, window_start, amount)
      where rate_windows.bucket = given.bucket and rate_windows.window_start = given.window_start`,
    values: [given.map((row) => row.bucket), given.map((row) => row.windowStart), given.map((row) => row.amount)],
  });
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
 * Records one failed authentication against `subject` (a client address, or a prefixed subject
 * such as a sign-in account) and returns the end of its block, if any. A window opens at the
 * first failure; the failure past `limit` inside it blocks the subject for `blockSeconds`; a
 * block is never extended, and once lifted the count starts again.
 */
export async function recordAuthFailure(
  db: Executor,
  subject: string,
  now: Date,
  policy: FailurePolicy,
): Promise<Date | null> {
  const f = authFailures;
  const at = sql`${now.toISOString()}::timestamptz`;
  const blocked = sql`(${f.blockedUntil} is not null and ${f.blockedUntil} > ${at})`;
  const restart = sql`(${f.blockedUntil} is not null or ${f.windowStartedAt} <= ${at} - make_interval(secs => ${policy.windowSeconds}::int))`;
  const [row] = await db
    .insert(f)
    .values({ ip: subject, windowStartedAt: now, failures: 1, blockedUntil: null })
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

/**
 * Takes back one failure counted in advance (an attempt that proved right): never below zero,
 * and never inside a block, which stays what it was.
 */
export async function decrementAuthFailures(db: Executor, subject: string, now: Date): Promise<void> {
  const f = authFailures;
  await db
    .update(f)
    .set({ failures: sql`greatest(0, ${f.failures} - 1)` })
    .where(and(eq(f.ip, subject), or(isNull(f.blockedUntil), lte(f.blockedUntil, now))));
}

/** Subjects whose window ended and whose block, if any, lifted: nothing left to remember. */
export async function deleteStaleAuthFailures(db: Executor, now: Date, windowSeconds: number): Promise<number> {
  const f = authFailures;
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await db
    .delete(f)
    .where(
      sql`${f.windowStartedAt} < ${at} - make_interval(secs => ${windowSeconds}::int)
        and (${f.blockedUntil} is null or ${f.blockedUntil} <= ${at})`,
    )
    .returning({ subject: f.ip });
  return rows.length;
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
