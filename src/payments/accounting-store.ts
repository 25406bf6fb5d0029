import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';

/**
 * The period's payments in the order of the books (the instant the money was received, then
 * id), by keyset pages: the accounting exports read any number of them with constant memory.
 */

export interface AccountingPaymentRow {
  id: string;
  invoice_id: string;
  amount: string;
  currency: string;
  method: string;
  reference: string | null;
  paid_at: string;
  created: string;
}

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** `start` and `end` are the instants of the period: `[start, end)`. */
const received = (scope: Scope, start: string, end: string) =>
  sql`p.company_id = ${scope.companyId} and p.livemode = ${scope.livemode}
    and p.paid_at >= ${start}::timestamptz and p.paid_at < ${end}::timestamptz`;

export async function pageAccountingPayments(
  db: Executor,
  scope: Scope,
  start: string,
  end: string,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<AccountingPaymentRow[]> {
  const result = await db.execute(sql`
    select p.id, p.invoice_id, p.amount, p.currency, p.method, p.reference,
      ${iso('p.paid_at')} as paid_at, ${iso('p.created')} as created
    from payments p
    where ${received(scope, start, end)}
      ${after ? sql`and (p.paid_at, p.id) > (${after.at}::timestamptz, ${after.id})` : sql``}
    order by p.paid_at, p.id
    limit ${limit}`);
  return result.rows as unknown as AccountingPaymentRow[];
}

export async function countAccountingPayments(db: Executor, scope: Scope, start: string, end: string): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from payments p where ${received(scope, start, end)}`);
  return Number((result.rows[0] as { n: number }).n);
}

/** E-reporting: the payments received from `fromInstant` on, by keyset pages (their invoice's facts are read apart). */
export async function pageEreportablePayments(
  db: Executor,
  scope: Scope,
  fromInstant: string,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<AccountingPaymentRow[]> {
  const result = await db.execute(sql`
    select p.id, p.invoice_id, p.amount, p.currency, p.method, p.reference,
      ${iso('p.paid_at')} as paid_at, ${iso('p.created')} as created
    from payments p
    where p.company_id = ${scope.companyId} and p.livemode = ${scope.livemode}
      and p.paid_at >= ${fromInstant}::timestamptz
      ${after ? sql`and (p.paid_at, p.id) > (${after.at}::timestamptz, ${after.id})` : sql``}
    order by p.paid_at, p.id
    limit ${limit}`);
  return result.rows as unknown as AccountingPaymentRow[];
}
