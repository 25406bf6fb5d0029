import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { numberCounters } from './schema.js';

/**
 * The upsert that takes the next value of a series, as a statement to embed (a data-modifying
 * CTE returning `last_value`): the finalization writes its number in the same statement.
 */
export function nextValueStatement(scope: Scope, series: string): SQL {
  return sql`insert into number_counters (company_id, livemode, series, last_value) values (${scope.companyId}, ${scope.livemode}, ${series}, 1)
      on conflict (company_id, livemode, series) do update set last_value = number_counters.last_value + 1
      returning last_value`;
}

/** The number of `value` in `series`, in SQL: the very format of `formatNumber` (series.ts), tested against it. */
export function numberSql(series: string, value: SQL): SQL {
  return sql`${series} || '-' || lpad(${value}::text, greatest(6, length(${value}::text)), '0')`;
}

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
