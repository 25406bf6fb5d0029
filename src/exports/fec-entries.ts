import Big from 'big.js';
import { fecText, type FecLineFields } from './fec-format.js';

/**
 * The entries of the FEC, from the documents and the money of the books. Pure.
 *
 *   sales journal   an invoice: the customer's account debited with its total, the sales
 *                   accounts credited with its net per nature of line (services, goods), the VAT
 *                   collected credited per rate; a credit note: the same, reversed.
 *   bank journal    a payment: the bank debited, the customer credited; a refund: reversed.
 *   purchases       received invoices, when that capability lands (code `AC`, `Journal des
 *                   achats`, as the README says): `purchaseEntry` goes here.
 *
 * Every entry balances (its debits equal its credits, checked here: a document whose amounts do
 * not add up stops the export rather than enter an unbalanced entry), so every journal does.
 */

export const fecJournals = ['sales', 'bank'] as const;
export type FecJournal = (typeof fecJournals)[number];

export interface FecChart {
  journals: Record<FecJournal, { code: string; label: string } | null>;
  /** The customers' collective account (411...). */
  customers: string;
  /** `auxiliary`: one auxiliary account per customer (CompAuxNum); `collective`: none. */
  customerDetail: 'auxiliary' | 'collective';
  /** Sales accounts (70...) by nature of line. */
  sales: Record<string, string>;
  /** VAT collected (4457...) by rate (`"20"`, `"5.5"`), and for any other rate. */
  vatByRate: { rate: string; account: string }[];
  vatDefault: string;
  /** The bank (512...). */
  bank: string;
}

export const journalLabels: Record<FecJournal, string> = {
  sales: 'Journal des ventes',
  bank: 'Journal de banque',
};

/** French defaults: the accounts of the Plan comptable général, padded to six digits. */
export const defaultChart: FecChart = {
  journals: {
    sales: { code: 'VE', label: journalLabels.sales },
    bank: { code: 'BQ', label: journalLabels.bank },
  },
  customers: '411000',
  customerDetail: 'auxiliary',
  sales: { services: '706000', electronic_service: '706000', goods: '707000' },
  vatByRate: [],
  vatDefault: '445710',
  bank: '512000',
};

const natureLabels: Record<string, string> = {
  services: 'Prestations de services',
  electronic_service: 'Prestations de services',
  goods: 'Ventes de marchandises',
};
/** The order of the sales lines of an entry: goods, then services. */
const natureOrder = ['goods', 'services', 'electronic_service'];
const byNatureOrder = (a: { nature: string }, b: { nature: string }) =>
  (natureOrder.indexOf(a.nature) >>> 0) - (natureOrder.indexOf(b.nature) >>> 0);

export interface Party {
  customerId: string | null;
  name: string | null;
  siren: string | null;
}

export interface SalesDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  issueDate: string;
  validDate: string;
  party: Party;
  total: number;
  netByNature: { nature: string; amount: number }[];
  vatByRate: { rate: string | null; amount: number }[];
}

export interface BankMovement {
  kind: 'payment' | 'refund';
  /** The bank reference, or the payment's id. */
  pieceRef: string;
  /** The invoice paid, or the credit note refunded. */
  documentNumber: string | null;
  day: string;
  validDate: string;
  party: Party;
  amount: number;
  method: string;
}

/** An entry's lines without their journal and number, which the export gives in its order. */
export type EntryLine = FecLineFields;

const methodLabels: Record<string, string> = {
  transfer: 'virement',
  card: 'carte',
  cash: 'espèces',
  check: 'chèque',
  direct_debit: 'prélèvement',
  other: 'autre',
};

/** The customer's account of a line: the collective account, and its auxiliary account when kept. */
function customerAccount(
  chart: FecChart,
  party: Party,
): Pick<EntryLine, 'account' | 'accountLabel' | 'auxiliaryAccount' | 'auxiliaryLabel'> {
  if (chart.customerDetail === 'collective')
    return { account: chart.customers, accountLabel: words.customers, auxiliaryAccount: '', auxiliaryLabel: '' };
  // A buyer written on the document without a customer: its SIREN, or the miscellaneous account.
  const code = party.customerId ?? party.siren ?? 'DIVERS';
  const label = code === 'DIVERS' ? 'Clients divers' : party.name;
  return {
    account: chart.customers,
    accountLabel: words.customers,
    auxiliaryAccount: fecText(code),
    auxiliaryLabel: fecText(label),
  };
}

export function vatAccountOf(chart: FecChart, rate: string | null): string {
  if (rate === null) return chart.vatDefault;
  return chart.vatByRate.find((entry) => new Big(entry.rate).eq(rate))?.account ?? chart.vatDefault;
}

/** `20.00` → `20`, `5.50` → `5,5`: the rate as a label says it. */
function rateLabel(rate: string): string {
  return new Big(rate).toString().replace('.', ',');
}

interface VatLine {
  account: string;
  label: string;
  /** Rates written differently (`20`, `20.00`) share their line. */
  key: string;
}

/** The VAT account and label of each rate met, per chart: decimals are parsed once per rate, not per line. */
const vatLinesByChart = new WeakMap<FecChart, Map<string, VatLine>>();

function vatLineOf(chart: FecChart, rate: string | null): VatLine {
  let lines = vatLinesByChart.get(chart);
  if (!lines) vatLinesByChart.set(chart, (lines = new Map()));
  const cacheKey = rate ?? '';
  let line = lines.get(cacheKey);
  if (!line) {
    const account = vatAccountOf(chart, rate);
    line = {
      account,
      label: fecText(rate === null ? 'TVA collectée' : `TVA collectée ${rateLabel(rate)} %`),
      key: `${account}/${rate === null ? '' : new Big(rate).toString()}`,
    };
    lines.set(cacheKey, line);
  }
  return line;
}

function balanced(lines: EntryLine[], what: string): EntryLine[] {
  let debit = 0;
  let credit = 0;
  for (const line of lines) {
    debit += line.debit;
    credit += line.credit;
  }
  if (debit !== credit) throw new Error(`${what}: debits ${debit} and credits ${credit} differ`);
  return lines;
}

// The fixed words of the labels, in the file's characters once and for all.
const words = {
  invoice: fecText('Facture'),
  creditNote: fecText('Avoir'),
  payment: fecText('Règlement'),
  refund: fecText('Remboursement'),
  customers: fecText('Clients'),
  bank: fecText('Banque'),
};
const methodWords = new Map(Object.entries(methodLabels).map(([method, label]) => [method, fecText(label)]));
const natureWords = new Map(Object.entries(natureLabels).map(([nature, label]) => [nature, fecText(label)]));

/** `Facture F2026-000001 Atelier Lumière SAS`, from parts already in the file's characters. */
const joined = (...parts: string[]) => parts.filter((part) => part !== '').join(' ');

/** The sales-journal entry of an invoice or a credit note; null when it moves no money. */
export function salesEntry(document: SalesDocument, chart: FecChart): EntryLine[] | null {
  const credit = document.kind === 'invoice';
  const pieceRef = fecText(document.number);
  const label = joined(credit ? words.invoice : words.creditNote, pieceRef, fecText(document.party.name));
  const line = (
    account: string,
    accountLabel: string,
    auxiliaryAccount: string,
    auxiliaryLabel: string,
    amount: number,
    onCredit: boolean,
  ): EntryLine => ({
    entryDate: document.issueDate,
    account,
    accountLabel,
    auxiliaryAccount,
    auxiliaryLabel,
    pieceRef,
    pieceDate: document.issueDate,
    label,
    // Credit for an invoice's sales and VAT, debit for its customer; the other way for a credit note.
    debit: onCredit === credit ? 0 : amount,
    credit: onCredit === credit ? amount : 0,
    validDate: document.validDate,
  });

  const lines: EntryLine[] = [];
  if (document.total !== 0) {
    const customer = customerAccount(chart, document.party);
    lines.push(
      line(
        customer.account,
        customer.accountLabel,
        customer.auxiliaryAccount,
        customer.auxiliaryLabel,
        document.total,
        false,
      ),
    );
  }

  // One line per sales account, goods first: natures sharing an account share its line.
  const sales: { account: string; label: string; amount: number }[] = [];
  const natures =
    document.netByNature.length > 1 ? [...document.netByNature].sort(byNatureOrder) : document.netByNature;
  for (const { nature, amount } of natures) {
    if (amount === 0) continue;
    const account = chart.sales[nature] ?? chart.sales.services!;
    const existing = sales.find((sale) => sale.account === account);
    if (existing) existing.amount += amount;
    else sales.push({ account, label: natureWords.get(nature) ?? 'Ventes', amount });
  }
  for (const sale of sales) lines.push(line(sale.account, sale.label, '', '', sale.amount, true));

  const vat: { line: VatLine; amount: number }[] = [];
  for (const { rate, amount } of document.vatByRate) {
    if (amount === 0) continue;
    const vatLine = vatLineOf(chart, rate);
    const existing = vat.find((v) => v.line.key === vatLine.key);
    if (existing) existing.amount += amount;
    else vat.push({ line: vatLine, amount });
  }
  for (const { line: vatLine, amount } of vat) lines.push(line(vatLine.account, vatLine.label, '', '', amount, true));
  if (lines.length === 0) return null;
  return balanced(lines, `${document.kind} ${document.number}`);
}

/** The bank-journal entry of a payment or a refund; null when it moves no money. */
export function bankEntry(movement: BankMovement, chart: FecChart): EntryLine[] | null {
  if (movement.amount === 0) return null;
  const received = movement.kind === 'payment';
  const method = methodWords.get(movement.method) ?? fecText(movement.method);
  const label = joined(
    received ? words.payment : words.refund,
    fecText(movement.documentNumber),
    fecText(movement.party.name),
    `(${method})`,
  );
  const pieceRef = fecText(movement.pieceRef);
  const amount = movement.amount;
  const customer = customerAccount(chart, movement.party);
  const line = (
    account: string,
    accountLabel: string,
    auxiliaryAccount: string,
    auxiliaryLabel: string,
    debit: number,
    credit: number,
  ): EntryLine => ({
    entryDate: movement.day,
    account,
    accountLabel,
    auxiliaryAccount,
    auxiliaryLabel,
    pieceRef,
    pieceDate: movement.day,
    label,
    debit,
    credit,
    validDate: movement.validDate,
  });
  return balanced(
    [
      line(chart.bank, words.bank, '', '', received ? amount : 0, received ? 0 : amount),
      line(
        customer.account,
        customer.accountLabel,
        customer.auxiliaryAccount,
        customer.auxiliaryLabel,
        received ? 0 : amount,
        received ? amount : 0,
      ),
    ],
    `${movement.kind} ${movement.pieceRef}`,
  );
}
