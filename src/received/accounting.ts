import Big from 'big.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import {
  countAccountingReceived,
  pageAccountingReceived,
  type AccountingReceivedRow,
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
 *
 * What is booked is what balances: the supplier's total (BT-112), the net (BT-109), and the VAT
 * per rate of the breakdown when it adds up to their difference. An invoice without a breakdown
 * (MINIMUM, BASIC WL), or whose breakdown does not add up, books one VAT line of that difference
 * (BT-110 whenever the totals add up), at no rate: the default deductible VAT account.
 *
 * The books are in euros. An invoice in another currency is converted at the rate its own VAT
 * totals give: BT-111 (the VAT in the VAT accounting currency BT-6, euros) over BT-110; its
 * amounts in its currency go along, line for line (the FEC's `Montantdevise` and `Idevise`).
 * Without BT-111 in euros (or with no VAT to take the rate from) no rate is known: the invoice
 * is said unbookable, with the reason, rather than booked at face value.
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
  /** BT-112: the total with VAT, in euros. */
  total: number;
  /** BT-109: the total without VAT, in euros. */
  net: number;
  /** The VAT booked, in euros: per rate, or one line at no rate (see above). */
  vatByRate: VatAmount[];
  /** The same amounts in the invoice's currency, when it is not the euro; its VAT line for line. */
  foreign: ({ currency: string } & BookedAmounts) | null;
  /** Why it cannot be booked in euros, or null. */
  unbookable: string | null;
}

interface VatAmount {
  rate: string | null;
  amount: number;
}

interface BookedAmounts {
  total: number;
  net: number;
  vatByRate: VatAmount[];
}

/** The currency of the books. */
const booksCurrency = 'EUR';

const sumOf = (vat: VatAmount[]) => vat.reduce((sum, line) => sum + line.amount, 0);

/** The VAT that balances the entry: the breakdown when it adds up to BT-112 − BT-109, else that difference at no rate. */
function vatToBook(total: number, net: number, breakdown: VatAmount[]): VatAmount[] {
  const owed = total - net;
  if (breakdown.length > 0 && sumOf(breakdown) === owed) return breakdown;
  return owed === 0 ? [] : [{ rate: null, amount: owed }];
}

/**
 * The amounts in euros at the rate BT-111 / BT-110, each rounded half-up to the cent; the VAT
 * then sums to BT-111 exactly (the remainder of the rounding on its largest line) when it sums
 * to BT-110, and the total is the net plus the VAT: the entry balances.
 */
function inEuros(amounts: BookedAmounts, vat: number, vatInEuros: number): BookedAmounts {
  const rate = new Big(vatInEuros).div(vat);
  const convert = (cents: number) => Number(new Big(cents).times(rate).round(0, Big.roundHalfUp).toFixed(0));
  const net = convert(amounts.net);
  const vatByRate = amounts.vatByRate.map((line) => ({ rate: line.rate, amount: convert(line.amount) }));
  if (vatByRate.length > 0 && sumOf(amounts.vatByRate) === vat) {
    const largest = vatByRate.reduce((top, line) => (Math.abs(line.amount) > Math.abs(top.amount) ? line : top));
    largest.amount += vatInEuros - sumOf(vatByRate);
  }
  return { total: net + sumOf(vatByRate), net, vatByRate };
}

/** What the books take of a received invoice: its amounts in euros, in its currency, or why neither. */
function booked(
  row: AccountingReceivedRow,
): Pick<AccountingReceived, 'total' | 'net' | 'vatByRate' | 'foreign' | 'unbookable'> {
  const total = Number(row.gross ?? 0);
  const net = Number(row.tax_basis ?? 0);
  const own: BookedAmounts = { total, net, vatByRate: vatToBook(total, net, vatByRate(row.vat_by_rate)) };
  const currency = row.currency ?? '';
  if (currency === '' || currency === booksCurrency) return { ...own, foreign: null, unbookable: null };
  const vat = Number(row.vat ?? 0);
  const foreign = { currency, ...own };
  if (row.tax_currency !== booksCurrency || row.vat_in_tax_currency === null || vat === 0)
    return {
      total: 0,
      net: 0,
      vatByRate: [],
      foreign,
      unbookable: `it is in ${currency} and gives no VAT total in euros (BT-111, VAT accounting currency BT-6 EUR) to convert it at`,
    };
  return { ...inEuros(own, vat, Number(row.vat_in_tax_currency)), foreign, unbookable: null };
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
    ...booked(row),
  }));
}

/** `20.00:2760 5.50:743 :0` → the VAT of each group; an empty rate is none. */
function vatByRate(list: string | null): VatAmount[] {
  if (!list) return [];
  return list.split(' ').map((item) => {
    const colon = item.lastIndexOf(':');
    return { rate: colon === 0 ? null : item.slice(0, colon), amount: Number(item.slice(colon + 1)) };
  });
}

export async function accountingReceivedCount(db: Executor, scope: Scope, period: ReceivedPeriod): Promise<number> {
  return countAccountingReceived(db, scope, period);
}
