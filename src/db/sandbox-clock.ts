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

/** `due <= now` on the row's clock: real time for live rows, the sandbox clock for test rows. */
export function dueOnScopeClock(due: SQLWrapper, row: TenantColumns, now: Date): SQL {
  return sql`${due} <= ${now.toISOString()}::timestamptz + ${sandboxOffsetMs(row)} * interval '1 millisecond'`;
}
