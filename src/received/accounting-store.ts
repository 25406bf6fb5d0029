import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';

/**
 * What the accounting exports read of received invoices: the period's booked ones in the order
 * of the books (the entry's day, the instant of reception, the id), by keyset pages, like the
 * invoices capability's accounting-store.ts. The VAT per rate comes as a short `rate:cents` list
 * rather than JSON.
 */

/** Calendar days, inclusive. */
export interface ReceivedPeriod {
  from: string;
  to: string;
}

/** Where a page starts: after this (entry day, reception instant, id). */
export interface ReceivedKey {
  day: string;
  at: string;
  id: string;
}

export interface AccountingReceivedRow {
  id: string;
  type_code: string;
  number: string;
  /** The entry's day: the issue date, or the reception day when the file gave none. */
  day: string;
  received_at: string;
  sender_siren: string | null;
  sender_siret: string | null;
  sender_name: string | null;
  sender_vat_number: string | null;
  currency: string | null;
  gross: string | null;
  tax_basis: string | null;
  /** BT-110. */
  vat: string | null;
  /** BT-6 and BT-111 (cents), when the invoice's currency is not the VAT accounting currency. */
  tax_currency: string | null;
  vat_in_tax_currency: string | null;
  /** `rate:cents` per VAT group, space-separated; an empty rate is none (`20.00:2760 :0`). */
  vat_by_rate: string | null;
}

const entryDay = sql.raw(`coalesce(nullif(r.issue_date, ''), to_char(r.received_at at time zone 'UTC', 'YYYY-MM-DD'))`);

/**
 * The invoices booked: every received invoice the company holds but those it refused (a refused
 * invoice is not owed: it is not booked), and those whose file could not be read at all (no
 * type, no amounts).
 */
const booked = (scope: Scope, period: ReceivedPeriod) =>
  sql`r.company_id = ${scope.companyId} and r.livemode = ${scope.livemode} and r.status <> 'refused'
    and coalesce(r.document->>'typeCode', '') <> ''
    and ${entryDay} >= ${period.from} and ${entryDay} <= ${period.to}`;

export async function pageAccountingReceived(
  db: Executor,
  scope: Scope,
  period: ReceivedPeriod,
  after: ReceivedKey | null,
  limit: number,
): Promise<AccountingReceivedRow[]> {
  const result = await db.execute(sql`
    select r.id, r.document->>'typeCode' as type_code, r.number, ${entryDay} as day,
      to_char(r.received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as received_at,
      r.sender_siren, r.sender_siret, r.sender_name, r.document->'seller'->>'vatNumber' as sender_vat_number,
      r.document->>'currency' as currency, r.document->'totals'->>'gross' as gross,
      r.document->'totals'->>'taxBasis' as tax_basis, r.document->'totals'->>'vat' as vat,
      r.document->'vatInTaxCurrency'->>'currency' as tax_currency,
      r.document->'vatInTaxCurrency'->>'amount' as vat_in_tax_currency,
      (select string_agg(coalesce(v."vatRate", '') || ':' || v."taxAmount", ' ')
        from jsonb_to_recordset(r.document->'vatBreakdown') v("vatRate" text, "taxAmount" bigint)) as vat_by_rate
    from received_invoices r
    where ${booked(scope, period)}
      ${after ? sql`and (${entryDay}, r.received_at, r.id) > (${after.day}, ${after.at}::timestamptz, ${after.id})` : sql``}
    order by ${entryDay}, r.received_at, r.id
    limit ${limit}`);
  return result.rows as unknown as AccountingReceivedRow[];
}

export async function countAccountingReceived(db: Executor, scope: Scope, period: ReceivedPeriod): Promise<number> {
  const result = await db.execute(
    sql`select count(*)::int as n from received_invoices r where ${booked(scope, period)}`,
  );
  return Number((result.rows[0] as { n: number }).n);
}
