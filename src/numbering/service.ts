/**
 * Numbering: one counter per company, environment and series (`F2026`, `AV2026`, `D2026`, and
 * their `TEST-` twins), taken inside the caller's transaction so that a refusal or a crash gives
 * its value back: the sequence has no gap and no duplicate. The formats are in series.ts.
 */
export { currentValue, moveCounterBeyond, nextValueStatement, numberSql, takeNextValue } from './store.js';
