import Big from 'big.js';
import { fecText, type FecLineFields } from './fec-format.js';

/**
 * The entries of the FEC, from the documents and the money of the books. Pure.
 *
 *   sales journal   an invoice: the customer's account debited with its total, the sales
 *                   accounts credited with its net per nature of line (services, goods), the VAT
 *                   collected credited per rate; a credit note: the same, reversed.
 *   bank journal    a payment: the bank debited, the customer credited; a refund: reversed.
 *   purchase journal  a received invoice: the purchases account debited with its net, the
 *                   deductible VAT debited per rate, the supplier's account credited with its
 *                   total; a received credit note: the same, reversed.
 *
 * The sales and purchase entries of a document are one shape (a third party carries the total,
 * a charge or product account the net, a VAT account the tax per rate, on the opposite side):
 * `documentEntry` builds both.
 *
 * Every entry balances (its debits equal its credits, checked here: a document whose amounts do
 * not add up stops the export rather than enter an unbalanced entry), so every journal does.
 */

export const fecJournals = ['sales', 'bank', 'purchases'] as const;
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
  /** The suppliers' collective account (401...). */
  suppliers: string;
  /** `auxiliary`: one auxiliary account per supplier (CompAuxNum); `collective`: none. */
  supplierDetail: 'auxiliary' | 'collective';
  /** The purchases account (60...) every received invoice's net goes to. */
  purchases: string;
  /** Deductible VAT (4456...) by rate, and for any other rate. */
  deductibleVatByRate: { rate: string; account: string }[];
  deductibleVatDefault: string;
}

export const journalLabels: Record<FecJournal, string> = {
  sales: 'Journal des ventes',
  bank: 'Journal de banque',
  purchases: 'Journal des achats',
};

/** French defaults: the accounts of the Plan comptable général, padded to six digits. */
export const defaultChart: FecChart = {
  journals: {
    sales: { code: 'VE', label: journalLabels.sales },
    bank: { code: 'BQ', label: journalLabels.bank },
    purchases: { code: 'AC', label: journalLabels.purchases },
  },
  customers: '411000',
  customerDetail: 'auxiliary',
  sales: { services: '706000', electronic_service: '706000', goods: '707000' },
  vatByRate: [],
  vatDefault: '445710',
  bank: '512000',
  suppliers: '401000',
  supplierDetail: 'auxiliary',
  // 607 (purchases of goods) is the usual default; a company buying services maps it to 604 or 606.
  purchases: '607000',
  deductibleVatByRate: [],
  deductibleVatDefault: '445660',
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

/** Who sent a received invoice, as written on it. */
export interface Supplier {
  name: string | null;
  siren: string | null;
  siret: string | null;
  vatNumber: string | null;
}

/** A received invoice or credit note, as the purchase journal books it: cents. */
export interface PurchaseDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  /** The entry's date: the invoice's issue date. */
  issueDate: string;
  /** When it entered the books: the day it was received. */
  validDate: string;
  supplier: Supplier;
  /** BT-112, what is owed to the supplier (BT-109 + BT-110). */
  total: number;
  /** BT-109, the net the purchases account carries (lines, less allowances, plus charges). */
  net: number;
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

type ThirdPartyAccount = Pick<EntryLine, 'account' | 'accountLabel' | 'auxiliaryAccount' | 'auxiliaryLabel'>;

/** The customer's account of a line: the collective account, and its auxiliary account when kept. */
function customerAccount(chart: FecChart, party: Party): ThirdPartyAccount {
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

/**
 * The supplier's account of a line: the collective account, and its auxiliary account when kept:
 * `F` and the supplier's SIREN (the legal entity: its establishments' SIRETs share one account),
 * else the SIREN in its SIRET, else its VAT number (a foreign supplier), else the miscellaneous
 * account. The `F` keeps it apart from a customer's auxiliary account, which may be a SIREN too:
 * accounting software often keeps one list of auxiliary accounts for every collective account.
 */
function supplierAccount(chart: FecChart, supplier: Supplier): ThirdPartyAccount {
  if (chart.supplierDetail === 'collective')
    return { account: chart.suppliers, accountLabel: words.suppliers, auxiliaryAccount: '', auxiliaryLabel: '' };
  const identifier = supplier.siren ?? supplier.siret?.slice(0, 9) ?? supplier.vatNumber;
  const code = identifier ? `F${identifier}` : 'FDIVERS';
  const label = identifier ? (supplier.name ?? identifier) : 'Fournisseurs divers';
  return {
    account: chart.suppliers,
    accountLabel: words.suppliers,
    auxiliaryAccount: fecText(code.replace(/\s+/g, '')),
    auxiliaryLabel: fecText(label),
  };
}

/** The VAT account of a rate: collected (sales) or deductible (purchases). */
export function vatAccountOf(chart: FecChart, rate: string | null, side: VatSide = 'collected'): string {
  const [byRate, fallback] =
    side === 'collected'
      ? [chart.vatByRate, chart.vatDefault]
      : [chart.deductibleVatByRate, chart.deductibleVatDefault];
  if (rate === null) return fallback;
  return byRate.find((entry) => new Big(entry.rate).eq(rate))?.account ?? fallback;
}

type VatSide = 'collected' | 'deductible';

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
const vatWords: Record<VatSide, string> = { collected: 'TVA collectée', deductible: 'TVA déductible' };

function vatLineOf(chart: FecChart, rate: string | null, side: VatSide): VatLine {
  let lines = vatLinesByChart.get(chart);
  if (!lines) vatLinesByChart.set(chart, (lines = new Map()));
  const cacheKey = `${side}/${rate ?? ''}`;
  let line = lines.get(cacheKey);
  if (!line) {
    const account = vatAccountOf(chart, rate, side);
    line = {
      account,
      label: fecText(rate === null ? vatWords[side] : `${vatWords[side]} ${rateLabel(rate)} %`),
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
  suppliers: fecText('Fournisseurs'),
  bank: fecText('Banque'),
  purchases: fecText('Achats'),
};
const methodWords = new Map(Object.entries(methodLabels).map(([method, label]) => [method, fecText(label)]));
const natureWords = new Map(Object.entries(natureLabels).map(([nature, label]) => [nature, fecText(label)]));

/** `Facture F2026-000001 Atelier Lumière SAS`, from parts already in the file's characters. */
const joined = (...parts: string[]) => parts.filter((part) => part !== '').join(' ');

/**
 * An invoice's or a credit note's entry, sales or purchase alike: the third party carries the
 * total on one side, the accounts of the net (in their order; nets sharing an account share its
 * line) and the VAT per rate (rates sharing an account and a value share a line) on the other.
 * `thirdPartyOnDebit`: a sales invoice (the customer owes) or a purchase credit note (the
 * supplier owes back). Null when it moves no money.
 */
function documentEntry(
  chart: FecChart,
  document: {
    what: string;
    pieceRef: string;
    label: string;
    date: string;
    validDate: string;
    thirdParty: () => ThirdPartyAccount;
    thirdPartyOnDebit: boolean;
    total: number;
    nets: { account: string; label: string; amount: number }[];
    vatByRate: { rate: string | null; amount: number }[];
    vatSide: VatSide;
  },
): EntryLine[] | null {
  const { pieceRef, label, date, validDate, thirdPartyOnDebit } = document;
  const line = (account: ThirdPartyAccount, amount: number, onDebit: boolean): EntryLine => ({
    entryDate: date,
    account: account.account,
    accountLabel: account.accountLabel,
    auxiliaryAccount: account.auxiliaryAccount,
    auxiliaryLabel: account.auxiliaryLabel,
    pieceRef,
    pieceDate: date,
    label,
    debit: onDebit ? amount : 0,
    credit: onDebit ? 0 : amount,
    validDate,
  });
  const general = (account: string, accountLabel: string) => ({
    account,
    accountLabel,
    auxiliaryAccount: '',
    auxiliaryLabel: '',
  });

  const lines: EntryLine[] = [];
  if (document.total !== 0) lines.push(line(document.thirdParty(), document.total, thirdPartyOnDebit));

  const nets: { account: string; label: string; amount: number }[] = [];
  for (const { account, label: netLabel, amount } of document.nets) {
    if (amount === 0) continue;
    const existing = nets.find((net) => net.account === account);
    if (existing) existing.amount += amount;
    else nets.push({ account, label: netLabel, amount });
  }
  for (const net of nets) lines.push(line(general(net.account, net.label), net.amount, !thirdPartyOnDebit));

  const vat: { line: VatLine; amount: number }[] = [];
  for (const { rate, amount } of document.vatByRate) {
    if (amount === 0) continue;
    const vatLine = vatLineOf(chart, rate, document.vatSide);
    const existing = vat.find((v) => v.line.key === vatLine.key);
    if (existing) existing.amount += amount;
    else vat.push({ line: vatLine, amount });
  }
  for (const { line: vatLine, amount } of vat)
    lines.push(line(general(vatLine.account, vatLine.label), amount, !thirdPartyOnDebit));
  if (lines.length === 0) return null;
  return balanced(lines, document.what);
}

/** The sales-journal entry of an invoice or a credit note; null when it moves no money. */
export function salesEntry(document: SalesDocument, chart: FecChart): EntryLine[] | null {
  const invoice = document.kind === 'invoice';
  const pieceRef = fecText(document.number);
  // One line per sales account, goods first.
  const natures =
    document.netByNature.length > 1 ? [...document.netByNature].sort(byNatureOrder) : document.netByNature;
  return documentEntry(chart, {
    what: `${document.kind} ${document.number}`,
    pieceRef,
    label: joined(invoice ? words.invoice : words.creditNote, pieceRef, fecText(document.party.name)),
    date: document.issueDate,
    validDate: document.validDate,
    thirdParty: () => customerAccount(chart, document.party),
    // The customer debited with an invoice's total, credited with a credit note's.
    thirdPartyOnDebit: invoice,
    total: document.total,
    nets: natures.map(({ nature, amount }) => ({
      account: chart.sales[nature] ?? chart.sales.services!,
      label: natureWords.get(nature) ?? 'Ventes',
      amount,
    })),
    vatByRate: document.vatByRate,
    vatSide: 'collected',
  });
}

/** The purchase-journal entry of a received invoice or credit note; null when it moves no money. */
export function purchaseEntry(document: PurchaseDocument, chart: FecChart): EntryLine[] | null {
  const invoice = document.kind === 'invoice';
  const pieceRef = fecText(document.number);
  return documentEntry(chart, {
    what: `received ${document.kind} ${document.number}`,
    pieceRef,
    label: joined(invoice ? words.invoice : words.creditNote, pieceRef, fecText(document.supplier.name)),
    date: document.issueDate,
    validDate: document.validDate,
    thirdParty: () => supplierAccount(chart, document.supplier),
    // The supplier credited with an invoice's total, debited with a credit note's.
    thirdPartyOnDebit: !invoice,
    total: document.total,
    nets: [{ account: chart.purchases, label: words.purchases, amount: document.net }],
    vatByRate: document.vatByRate,
    vatSide: 'deductible',
  });
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
