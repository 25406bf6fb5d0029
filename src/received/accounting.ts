import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import {
  countAccountingReceived,
  pageAccountingReceived,
  type ReceivedKey,
  type ReceivedPeriod,
} from './accounting-store.js';

/**
 * What the books need of received invoices, for the FEC's purchase journal: the period's booked
 * invoices and credit notes (see accounting-store.ts for which), in the order of the books, page
 * by page. Amounts are cents.
 *
 * The period is that of the issue date, as the sales journal's: a purchase belongs to the
 * accounting period of its invoice's date (the cut-off an accountant checks; booking by reception
 * would put a December invoice received in January into the next year), and the FEC's
 * `PieceDate` is that date anyway. The day it was received is the entry's `ValidDate`, when it
 * entered the books (or its issue date, when the file claims a date after its reception).
 */

export type { ReceivedKey, ReceivedPeriod } from './accounting-store.js';

/** UNTDID 1001 codes of credit notes (the French rules' list): booked reversed. */
const creditNoteTypes = new Set(['261', '381', '396', '502', '503']);

export interface AccountingReceived {
  key: ReceivedKey;
  id: string;
  kind: 'invoice' | 'credit_note';
  number: string;
  /** The entry's day: the issue date (or the reception day when the file gave none). */
  day: string;
  /** When it was received (ISO 8601). */
  receivedAt: string;
  supplier: { name: string | null; siren: string | null; siret: string | null; vatNumber: string | null };
  currency: string | null;
  /** BT-112: the total with VAT. */
  total: number;
  /** BT-109: the total without VAT. */
  net: number;
  vatByRate: { rate: string | null; amount: number }[];
}

export async function accountingReceivedPage(
  db: Executor,
  scope: Scope,
  period: ReceivedPeriod,
  after: ReceivedKey | null,
  limit: number,
): Promise<AccountingReceived[]> {
  const rows = await pageAccountingReceived(db, scope, period, after, limit);
  return rows.map((row) => ({
    key: { day: row.day, at: row.received_at, id: row.id },
    id: row.id,
    kind: creditNoteTypes.has(row.type_code) ? 'credit_note' : 'invoice',
    number: row.number,
    day: row.day,
    receivedAt: row.received_at,
    supplier: {
      name: row.sender_name,
      siren: row.sender_siren,
      siret: row.sender_siret,
      vatNumber: row.sender_vat_number,
    },
    currency: row.currency,
    total: Number(row.gross ?? 0),
    net: Number(row.tax_basis ?? 0),
    vatByRate: vatByRate(row.vat_by_rate),
  }));
}

/** `20.00:2760 5.50:743 :0` → the VAT of each group; an empty rate is none. */
function vatByRate(list: string | null): { rate: string | null; amount: number }[] {
  if (!list) return [];
  return list.split(' ').map((item) => {
    const colon = item.lastIndexOf(':');
    return { rate: colon === 0 ? null : item.slice(0, colon), amount: Number(item.slice(colon + 1)) };
  });
}

export async function accountingReceivedCount(db: Executor, scope: Scope, period: ReceivedPeriod): Promise<number> {
  return countAccountingReceived(db, scope, period);
}
