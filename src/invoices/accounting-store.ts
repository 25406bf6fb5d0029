import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';

/**
 * What the accounting exports read of invoices, credit notes and refunds: the period's rows in
 * the order of the books (date, then the instant they were recorded, then id), by keyset pages
 * so that a job reads a period of any size with constant memory and resumes after a crash from
 * the last key it committed. The natures and amounts per line and per rate come as four short
 * JSON arrays of scalars taken by JSON paths, rather than the lines' JSON (parsing it cost Node
 * more than the rest of the row) or lists aggregated from `jsonb_to_recordset` (a set-returning
 * subquery per row: about twice the database's time of the paths, measured on 180,000 invoices).
 */

/** Calendar days, inclusive. */
export interface AccountingPeriod {
  from: string;
  to: string;
}

/** Where a page of documents starts: after this (issue date, finalization instant, id). */
export interface DocumentKey {
  day: string;
  at: string;
  id: string;
}

/** Where a page of refunds (or payments) starts: after this (instant, id). */
export interface InstantKey {
  at: string;
  id: string;
}

export interface AccountingDocumentRow {
  id: string;
  kind: string;
  number: string;
  issue_date: string;
  finalized_at: string;
  customer_id: string | null;
  buyer_name: string | null;
  buyer_siren: string | null;
  currency: string;
  total: string;
  /** The lines' natures and nets (cents), as JSON arrays in the lines' order (`["goods", "services"]`). */
  line_natures: string | null;
  line_nets: string | null;
  /** The VAT groups' rates (null: none) and amounts (cents), as JSON arrays in the groups' order. */
  vat_rates: string | null;
  vat_amounts: string | null;
  /** The document's own allowances and charges (BG-20 / BG-21): their amounts (cents), as JSON arrays. */
  allowance_amounts: string | null;
  charge_amounts: string | null;
  /** `standard` or `deposit`. */
  invoice_type: string;
  /** A final invoice: its deposits' nets summed (cents), and their VAT groups' rates and amounts as JSON arrays; null otherwise. */
  deducted_net: string | null;
  deducted_vat_rates: string | null;
  deducted_vat_amounts: string | null;
}

const issued = (scope: Scope, period: AccountingPeriod) =>
  sql`i.company_id = ${scope.companyId} and i.livemode = ${scope.livemode} and i.number is not null
    and i.issue_date >= ${period.from} and i.issue_date <= ${period.to}`;

export async function pageAccountingDocuments(
  db: Executor,
  scope: Scope,
  period: AccountingPeriod,
  after: DocumentKey | null,
  limit: number,
): Promise<AccountingDocumentRow[]> {
  const result = await db.execute(sql`
    select i.id, i.kind, i.number, i.issue_date,
      to_char(i.finalized_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as finalized_at,
      i.customer_id, i.buyer->>'name' as buyer_name, i.buyer->>'siren' as buyer_siren, i.currency, i.total,
      jsonb_path_query_array(i.lines, '$[*].nature')::text as line_natures,
      jsonb_path_query_array(i.lines, '$[*].netAmount')::text as line_nets,
      jsonb_path_query_array(i.tax, '$.vatBreakdown[*].vatRate')::text as vat_rates,
      jsonb_path_query_array(i.tax, '$.vatBreakdown[*].taxAmount')::text as vat_amounts,
      jsonb_path_query_array(i.allowances, '$[*].amount')::text as allowance_amounts,
      jsonb_path_query_array(i.charges, '$[*].amount')::text as charge_amounts,
      i.invoice_type,
      deducted.net::text as deducted_net, deducted.vat_rates as deducted_vat_rates, deducted.vat_amounts as deducted_vat_amounts
    from invoices i
    -- A final invoice's deposits, by their keys (frozen on it): what they invoiced, taken back by it.
    left join lateral (
      select sum(d.total - d.total_tax) as net,
        jsonb_path_query_array(coalesce(jsonb_agg(d.tax->'vatBreakdown'), '[]'::jsonb), '$[*][*].vatRate')::text as vat_rates,
        jsonb_path_query_array(coalesce(jsonb_agg(d.tax->'vatBreakdown'), '[]'::jsonb), '$[*][*].taxAmount')::text as vat_amounts
      from invoices d
      where d.company_id = i.company_id and d.livemode = i.livemode
        and d.id in (select jsonb_array_elements(i.deposits)->>'invoiceId')
    ) deducted on i.amount_deducted > 0
    where ${issued(scope, period)}
      ${after ? sql`and (i.issue_date, i.finalized_at, i.id) > (${after.day}, ${after.at}::timestamptz, ${after.id})` : sql``}
    order by i.issue_date, i.finalized_at, i.id
    limit ${limit}`);
  return result.rows as unknown as AccountingDocumentRow[];
}

export async function countAccountingDocuments(db: Executor, scope: Scope, period: AccountingPeriod): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from invoices i where ${issued(scope, period)}`);
  return Number((result.rows[0] as { n: number }).n);
}

export interface AccountingRefundRow {
  id: string;
  amount: string;
  currency: string;
  method: string;
  reference: string | null;
  refunded_at: string;
  created: string;
  credit_note_id: string;
  credit_note_number: string | null;
  customer_id: string | null;
  buyer_name: string | null;
  buyer_siren: string | null;
}

/** The UTC instants that bound a period of calendar days: `[from 00:00, to + 1 day 00:00)`. */
export const periodInstants = (period: AccountingPeriod) => ({
  start: `${period.from}T00:00:00Z`,
  end: new Date(Date.parse(`${period.to}T00:00:00Z`) + 86_400_000).toISOString(),
});

const refunded = (scope: Scope, period: AccountingPeriod) => {
  const { start, end } = periodInstants(period);
  return sql`r.company_id = ${scope.companyId} and r.livemode = ${scope.livemode}
    and r.refunded_at >= ${start}::timestamptz and r.refunded_at < ${end}::timestamptz`;
};

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

export async function pageAccountingRefunds(
  db: Executor,
  scope: Scope,
  period: AccountingPeriod,
  after: InstantKey | null,
  limit: number,
): Promise<AccountingRefundRow[]> {
  const result = await db.execute(sql`
    select r.id, r.amount, r.currency, r.method, r.reference, ${iso('r.refunded_at')} as refunded_at,
      ${iso('r.created')} as created, r.credit_note_id, c.number as credit_note_number, c.customer_id,
      c.buyer->>'name' as buyer_name, c.buyer->>'siren' as buyer_siren
    from refunds r
    left join invoices c on c.company_id = r.company_id and c.livemode = r.livemode and c.id = r.credit_note_id
    where ${refunded(scope, period)}
      ${after ? sql`and (r.refunded_at, r.id) > (${after.at}::timestamptz, ${after.id})` : sql``}
    order by r.refunded_at, r.id
    limit ${limit}`);
  return result.rows as unknown as AccountingRefundRow[];
}

export async function countAccountingRefunds(db: Executor, scope: Scope, period: AccountingPeriod): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from refunds r where ${refunded(scope, period)}`);
  return Number((result.rows[0] as { n: number }).n);
}

export interface DocumentPartyRow {
  id: string;
  number: string | null;
  customer_id: string | null;
  buyer_name: string | null;
  buyer_siren: string | null;
}

/** The number and buyer of these documents (a page of payments names their invoices). */
export async function documentParties(db: Executor, scope: Scope, ids: string[]): Promise<DocumentPartyRow[]> {
  if (ids.length === 0) return [];
  const result = await db.execute(sql`
    select i.id, i.number, i.customer_id, i.buyer->>'name' as buyer_name, i.buyer->>'siren' as buyer_siren
    from invoices i
    where i.company_id = ${scope.companyId} and i.livemode = ${scope.livemode} and i.id = any(${sql.param(ids)}::text[])`);
  return result.rows as unknown as DocumentPartyRow[];
}
