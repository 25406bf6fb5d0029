import { splitDocumentAdjustments } from '../kernel/document-adjustments.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import {
  countAccountingDocuments,
  countAccountingRefunds,
  documentParties,
  pageAccountingDocuments,
  pageAccountingRefunds,
  type AccountingDocumentRow,
  type AccountingPeriod,
  type DocumentKey,
  type InstantKey,
} from './accounting-store.js';

/**
 * What the books need of invoices, credit notes and refunds, for the accounting exports: the
 * period's rows in the order of the books, page by page (see accounting-store.ts). Amounts are
 * cents.
 */

export type { AccountingDocumentRow, AccountingPeriod, DocumentKey, InstantKey } from './accounting-store.js';

/** Who a document or a movement is with: its customer, or the buyer written on it. */
export interface AccountingParty {
  customerId: string | null;
  name: string | null;
  siren: string | null;
}

/** A finalized invoice or credit note, with its net per line nature and its VAT per rate. */
export interface AccountingDocument {
  key: DocumentKey;
  id: string;
  kind: 'invoice' | 'credit_note';
  number: string;
  issueDate: string;
  /** When it was finalized (ISO 8601): it entered the books then. */
  recordedAt: string;
  party: AccountingParty;
  currency: string;
  total: number;
  netByNature: { nature: string; amount: number }[];
  vatByRate: { rate: string | null; amount: number }[];
  /** A deposit invoice (its net is an advance received). */
  deposit: boolean;
  /** A final invoice: what its deposits invoiced, which it takes back; null otherwise. */
  deducted: { net: number; vatByRate: { rate: string | null; amount: number }[] } | null;
}

/** A refund of a credit note: money given back. */
export interface AccountingRefund {
  key: InstantKey;
  id: string;
  amount: number;
  currency: string;
  method: string;
  reference: string | null;
  refundedAt: string;
  recordedAt: string;
  creditNoteId: string;
  creditNoteNumber: string | null;
  party: AccountingParty;
}

export async function accountingDocumentsPage(
  db: Executor,
  scope: Scope,
  period: AccountingPeriod,
  after: DocumentKey | null,
  limit: number,
): Promise<AccountingDocument[]> {
  return (await accountingDocumentRows(db, scope, period, after, limit)).map(accountingDocumentOf);
}

/**
 * A page of documents as the database sent them, each turned into its `AccountingDocument` by
 * `accountingDocumentOf` when the books reach it: a FEC keeps pages of thousands of rows alive
 * while it merges them, and documents made a row at a time die young (the garbage collector's
 * cheapest case) where a page of them would be copied and promoted.
 */
export async function accountingDocumentRows(
  db: Executor,
  scope: Scope,
  period: AccountingPeriod,
  after: DocumentKey | null,
  limit: number,
): Promise<AccountingDocumentRow[]> {
  return pageAccountingDocuments(db, scope, period, after, limit);
}

/** Where a row stands in the books: after its key comes the next page. */
export function accountingDocumentKey(row: AccountingDocumentRow): DocumentKey {
  return { day: row.issue_date, at: row.finalized_at, id: row.id };
}

export function accountingDocumentOf(row: AccountingDocumentRow): AccountingDocument {
  return {
    key: accountingDocumentKey(row),
    id: row.id,
    kind: row.kind as AccountingDocument['kind'],
    number: row.number,
    issueDate: row.issue_date,
    recordedAt: row.finalized_at,
    party: { customerId: row.customer_id, name: row.buyer_name, siren: row.buyer_siren },
    currency: row.currency,
    total: Number(row.total),
    netByNature: withDocumentAdjustments(
      netsByNature(row.id, row.line_natures, row.line_nets),
      row.allowance_amounts,
      row.charge_amounts,
    ),
    vatByRate: vatByRate(row.id, row.vat_rates, row.vat_amounts),
    deposit: row.invoice_type === 'deposit',
    deducted:
      row.deducted_net === null
        ? null
        : {
            net: Number(row.deducted_net),
            vatByRate: vatByRate(row.id, row.deducted_vat_rates, row.deducted_vat_amounts),
          },
  };
}

/** Two JSON arrays a path took from one list of objects: the same length, or the list is not what the books expect. */
function pairedArrays<A, B>(id: string, what: string, left: string | null, right: string | null): [A[], B[]] {
  const a = left ? (JSON.parse(left) as A[]) : [];
  const b = right ? (JSON.parse(right) as B[]) : [];
  // A member without its key is skipped by the path: the arrays would no longer pair up.
  if (a.length !== b.length) throw new Error(`document ${id}: its ${what} do not pair up (${left} / ${right})`);
  return [a, b];
}

/** The net of each nature, in the order first met (`["goods", "services", "goods"]`, `[29800, 13500, 200]`). */
function netsByNature(
  id: string,
  naturesJson: string | null,
  netsJson: string | null,
): { nature: string; amount: number }[] {
  const [natures, amounts] = pairedArrays<string, number>(id, 'lines', naturesJson, netsJson);
  const nets: { nature: string; amount: number }[] = [];
  for (let k = 0; k < natures.length; k++) {
    const nature = natures[k]!;
    let i = 0;
    while (i < nets.length && nets[i]!.nature !== nature) i++;
    if (i < nets.length) nets[i]!.amount += amounts[k]!;
    else nets.push({ nature, amount: amounts[k]! });
  }
  return nets;
}

/**
 * The document's own allowances and charges (BG-20 / BG-21) taken off and put onto the revenue of
 * each nature in proportion to its net, so the revenue lines add up to the document's net (BT-109)
 * and the entry balances.
 */
function withDocumentAdjustments(
  nets: { nature: string; amount: number }[],
  allowancesJson: string | null,
  chargesJson: string | null,
): { nature: string; amount: number }[] {
  const amounts = (json: string | null) =>
    (json ? (JSON.parse(json) as number[]) : []).map((amount) => ({ amount, reason: null, reasonCode: null }));
  const adjustments = { allowances: amounts(allowancesJson), charges: amounts(chargesJson) };
  if (adjustments.allowances.length === 0 && adjustments.charges.length === 0) return nets;
  const adjusted = nets.map((entry) => ({ ...entry }));
  const parts = splitDocumentAdjustments(
    adjusted.map((entry) => ({ key: entry, base: entry.amount })),
    adjustments,
  );
  for (const part of parts) part.key.amount += part.charge ? part.amount : -part.amount;
  return adjusted;
}

/** The VAT of each group (`["20", "5.5", null]`, `[8660, 110, 0]`); a null rate is none. */
function vatByRate(
  id: string,
  ratesJson: string | null,
  amountsJson: string | null,
): { rate: string | null; amount: number }[] {
  const [rates, amounts] = pairedArrays<string | null, number>(id, 'VAT groups', ratesJson, amountsJson);
  const groups: { rate: string | null; amount: number }[] = new Array(rates.length);
  for (let k = 0; k < rates.length; k++) groups[k] = { rate: rates[k]!, amount: amounts[k]! };
  return groups;
}

export async function accountingDocumentCount(db: Executor, scope: Scope, period: AccountingPeriod): Promise<number> {
  return countAccountingDocuments(db, scope, period);
}

export async function accountingRefundsPage(
  db: Executor,
  scope: Scope,
  period: AccountingPeriod,
  after: InstantKey | null,
  limit: number,
): Promise<AccountingRefund[]> {
  const rows = await pageAccountingRefunds(db, scope, period, after, limit);
  return rows.map((row) => ({
    key: { at: row.refunded_at, id: row.id },
    id: row.id,
    amount: Number(row.amount),
    currency: row.currency,
    method: row.method,
    reference: row.reference,
    refundedAt: row.refunded_at,
    recordedAt: row.created,
    creditNoteId: row.credit_note_id,
    creditNoteNumber: row.credit_note_number,
    party: { customerId: row.customer_id, name: row.buyer_name, siren: row.buyer_siren },
  }));
}

export async function accountingRefundCount(db: Executor, scope: Scope, period: AccountingPeriod): Promise<number> {
  return countAccountingRefunds(db, scope, period);
}

/** The number and party of these invoices (a page of payments names them), by id. */
export async function accountingParties(
  db: Executor,
  scope: Scope,
  ids: string[],
): Promise<Map<string, { number: string | null; party: AccountingParty }>> {
  const rows = await documentParties(db, scope, [...new Set(ids)]);
  return new Map(
    rows.map((row) => [
      row.id,
      { number: row.number, party: { customerId: row.customer_id, name: row.buyer_name, siren: row.buyer_siren } },
    ]),
  );
}
