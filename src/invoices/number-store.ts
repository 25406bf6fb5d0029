import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { numberCounters } from './schema.js';

/**
 * Takes the next value of a series inside the caller's transaction. The counter row stays
 * locked until that transaction ends, so finalizations of one series line up, and a rollback
 * (a refusal, a crash) gives its value back: the sequence has no gap and no duplicate.
 */
export async function takeNextValue(tx: Executor, scope: Scope, series: string): Promise<number> {
  const [row] = await tx
    .insert(numberCounters)
    .values({ ...scope, series, lastValue: 1 })
    .onConflictDoUpdate({
      target: [numberCounters.companyId, numberCounters.livemode, numberCounters.series],
      set: { lastValue: sql`${numberCounters.lastValue} + 1` },
    })
    .returning({ value: numberCounters.lastValue });
  return row!.value;
}

/** Sandbox reset: a series restarts beyond `atLeast` (the fixtures' numbers), never below where it was. */
export async function moveCounterBeyond(tx: Executor, scope: Scope, series: string, atLeast: number): Promise<void> {
  await tx
    .insert(numberCounters)
    .values({ ...scope, series, lastValue: atLeast })
    .onConflictDoUpdate({
      target: [numberCounters.companyId, numberCounters.livemode, numberCounters.series],
      set: { lastValue: sql`greatest(${numberCounters.lastValue}, ${atLeast}::bigint)` },
    });
}

export async function currentValue(db: Executor, scope: Scope, series: string): Promise<number> {
  const [row] = await db
    .select({ value: numberCounters.lastValue })
    .from(numberCounters)
    .where(
      and(
        eq(numberCounters.companyId, scope.companyId),
        eq(numberCounters.livemode, scope.livemode),
        eq(numberCounters.series, series),
      ),
    );
  return row?.value ?? 0;
}
