import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';

/**
 * What e-reporting reads of issued documents and refunds: the ones whose tax decision made an
 * e-reporting axis due, from a day on, by keyset pages (a month of consumer sales is read with
 * constant memory), in the order of the accounting index (issue date, finalization, id).
 */

export interface EreportableDocumentRow {
  id: string;
  kind: 'invoice' | 'credit_note';
  number: string;
  issue_date: string;
  /** The finalization instant (microseconds): with the issue date and id, the key of the pages (the books' index). */
  finalized_at: string;
  currency: string;
  buyer_country: string | null;
  buyer_vat_number: string | null;
  /** A credit note's invoice (its number frozen at creation, its issue date): flow 10.1 names it. */
  related_invoice_number: string | null;
  related_invoice_issue_date: string | null;
  lines: { nature: string; vatCode: string | null; vatRate: string | null; netAmount: number }[];
  vat_breakdown: { vatCode: string; vatRate: string | null; taxableAmount: number; taxAmount: number }[] | null;
  obligations: Record<string, { state: string; reason: string }> | null;
}

export async function pageEreportableDocuments(
  db: Executor,
  scope: Scope,
  from: string,
  after: { day: string; at: string; id: string } | null,
  limit: number,
): Promise<EreportableDocumentRow[]> {
  const result = await db.execute(sql`
    select i.id, i.kind, i.number, i.issue_date, i.currency,
      i.buyer->'address'->>'country' as buyer_country, i.buyer->>'vatNumber' as buyer_vat_number,
      i.lines, to_char(i.finalized_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as finalized_at,
      i.tax->'vatBreakdown' as vat_breakdown, i.tax->'obligations' as obligations,
      i.related_invoice_number,
      (select r.issue_date from invoices r where r.company_id = i.company_id and r.livemode = i.livemode
        and r.id = i.related_invoice_id) as related_invoice_issue_date
    from invoices i
    where i.company_id = ${scope.companyId} and i.livemode = ${scope.livemode} and i.number is not null
      and i.issue_date >= ${from}
      and i.tax->'obligations'->'ereportingTransaction'->>'state' = 'due'
      ${after ? sql`and (i.issue_date, i.finalized_at, i.id) > (${after.day}, ${after.at}::timestamptz, ${after.id})` : sql``}
    order by i.issue_date, i.finalized_at, i.id
    limit ${limit}`);
  return result.rows as unknown as EreportableDocumentRow[];
}

export interface EreportableRefundRow {
  id: string;
  amount: string;
  currency: string;
  refunded_at: string;
  credit_note_number: string | null;
  credit_note_issue_date: string | null;
  vat_breakdown: EreportableDocumentRow['vat_breakdown'];
  obligations: EreportableDocumentRow['obligations'];
}

export async function pageEreportableRefunds(
  db: Executor,
  scope: Scope,
  fromInstant: string,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<EreportableRefundRow[]> {
  const result = await db.execute(sql`
    select r.id, r.amount, r.currency,
      to_char(r.refunded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as refunded_at,
      c.number as credit_note_number, c.issue_date as credit_note_issue_date, c.tax->'vatBreakdown' as vat_breakdown, c.tax->'obligations' as obligations
    from refunds r
    join invoices c on c.company_id = r.company_id and c.livemode = r.livemode and c.id = r.credit_note_id
    where r.company_id = ${scope.companyId} and r.livemode = ${scope.livemode}
      and r.refunded_at >= ${fromInstant}::timestamptz
      and c.tax->'obligations'->'ereportingPayment'->>'state' = 'due'
      ${after ? sql`and (r.refunded_at, r.id) > (${after.at}::timestamptz, ${after.id})` : sql``}
    order by r.refunded_at, r.id
    limit ${limit}`);
  return result.rows as unknown as EreportableRefundRow[];
}

export interface PaymentInvoiceFactsRow {
  id: string;
  number: string | null;
  issue_date: string | null;
  vat_breakdown: EreportableDocumentRow['vat_breakdown'];
  obligations: EreportableDocumentRow['obligations'];
}

/** The facts of the invoices these payments settle. */
export async function paymentInvoiceFacts(
  db: Executor,
  scope: Scope,
  ids: string[],
): Promise<PaymentInvoiceFactsRow[]> {
  if (ids.length === 0) return [];
  const result = await db.execute(sql`
    select i.id, i.number, i.issue_date, i.tax->'vatBreakdown' as vat_breakdown, i.tax->'obligations' as obligations
    from invoices i
    where i.company_id = ${scope.companyId} and i.livemode = ${scope.livemode} and i.id = any(${sql.param(ids)}::text[])`);
  return result.rows as unknown as PaymentInvoiceFactsRow[];
}
