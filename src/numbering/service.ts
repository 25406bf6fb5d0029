/**
 * Numbering: one counter per company, environment and series (`F2026`, `AV2026`, `D2026`, and
 * their `TEST-` twins), taken inside the caller's transaction so that a refusal or a crash gives
 * its value back: the sequence has no gap and no duplicate. The formats are in series.ts.
 */
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import * as counters from './store.js';

/**
 * Takes the next value of a series in the caller's transaction (a finalization's): the counter
 * stays locked until it ends, and a rollback gives the value back.
 */
export function takeNextValue(tx: Executor, scope: Scope, series: string): Promise<number> {
  return counters.takeNextValue(tx, scope, series);
}

/** The same, as a statement for a caller that takes its numbers in a statement of its own (`returning last_value`). */
export function nextValueStatement(scope: Scope, series: string): SQL {
  return counters.nextValueStatement(scope, series);
}

/** A document's number in SQL from a value (the very format of `formatNumber`). */
export function numberSql(series: string, value: SQL): SQL {
  return counters.numberSql(series, value);
}

/** Moves a series past a value used outside the counter (the sandbox's fixtures): never backwards. */
export function moveCounterBeyond(tx: Executor, scope: Scope, series: string, atLeast: number): Promise<void> {
  return counters.moveCounterBeyond(tx, scope, series, atLeast);
}

/** The last value taken in a series (0 before the first). */
export function currentValue(db: Executor, scope: Scope, series: string): Promise<number> {
  return counters.currentValue(db, scope, series);
}
