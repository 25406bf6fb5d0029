import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * The sandbox clock in SQL, written once. Test-mode rows fall due on their company's sandbox
 * clock (real time plus the company's offset, `companies.sandbox_clock_offset_ms`); live rows on
 * real time. The offset is read only for test rows (the `case` short-circuits).
 */

/** A tenant row's columns, as Drizzle columns or raw SQL (`sql.raw('d.company_id')`). */
export interface TenantColumns {
  companyId: SQLWrapper;
  livemode: SQLWrapper;
}

/** The sandbox offset of the row's company in milliseconds: 0 for a live row. */
export function sandboxOffsetMs(row: TenantColumns): SQL {
  return sql`(case when ${row.livemode} then 0 else coalesce((select c.sandbox_clock_offset_ms from companies c where c.id = ${row.companyId}), 0) end)`;
}

/**
 * `due <= now` on the row's clock: real time for live rows, the sandbox clock for test rows. A
 * sandbox clock only moves forward (its offset is never negative), so a row due on the real clock
 * is due on its own: the company's offset is read only for rows not yet due in real time. (A queue's
 * claim tests every waiting row when the planner sorts them: with the offset read for each, a
 * backlog of 300 deposits cost 600 buffer reads per claim.)
 */
export function dueOnScopeClock(due: SQLWrapper, row: TenantColumns, now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql`(${due} <= ${at} or ${due} <= ${at} + ${sandboxOffsetMs(row)} * interval '1 millisecond')`;
}
