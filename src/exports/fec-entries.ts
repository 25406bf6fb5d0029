import Big from 'big.js';
import { fecText, type FecLine } from './fec-format.js';

/**
 * The entries of the FEC, from the documents and the money of the books. Pure.
 *
 *   sales journal   an invoice: the customer's account debited with its total, the sales
 *                   accounts credited with its net per nature of line (services, goods), the VAT
 *                   collected credited per rate; a credit note: the same, reversed.
 *   bank journal    a payment: the bank debited, the customer credited; a refund: reversed.
 *   purchases       received invoices, when that capability lands: `purchaseEntry` goes here.
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
export type EntryLine = Omit<FecLine, 'journalCode' | 'journalLabel' | 'entryNumber'>;

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
    return { account: chart.customers, accountLabel: 'Clients', auxiliaryAccount: '', auxiliaryLabel: '' };
  // A buyer written on the document without a customer: its SIREN, or the miscellaneous account.
  const code = party.customerId ?? party.siren ?? 'DIVERS';
  const label = code === 'DIVERS' ? 'Clients divers' : party.name;
  return {
    account: chart.customers,
    accountLabel: 'Clients',
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

function balanced(lines: EntryLine[], what: string): EntryLine[] {
  const debit = lines.reduce((sum, line) => sum + line.debit, 0);
  const credit = lines.reduce((sum, line) => sum + line.credit, 0);
  if (debit !== credit) throw new Error(`${what}: debits ${debit} and credits ${credit} differ`);
  return lines;
}

/** The sales-journal entry of an invoice or a credit note; null when it moves no money. */
export function salesEntry(document: SalesDocument, chart: FecChart): EntryLine[] | null {
  const credit = document.kind === 'invoice';
  const name = fecText(document.party.name);
  const label = fecText(`${credit ? 'Facture' : 'Avoir'} ${document.number}${name ? ` ${name}` : ''}`);
  const common = {
    entryDate: document.issueDate,
    pieceRef: fecText(document.number),
    pieceDate: document.issueDate,
    label,
    validDate: document.validDate,
  };
  /** A line of `amount` on the side that takes it: credit for an invoice's sales and VAT. */
  const side = (amount: number, onCredit: boolean) =>
    onCredit === credit ? { debit: 0, credit: amount } : { debit: amount, credit: 0 };

  const lines: EntryLine[] = [];
  if (document.total !== 0)
    lines.push({ ...common, ...customerAccount(chart, document.party), ...side(document.total, false) });

  const salesByAccount = new Map<string, { amount: number; label: string }>();
  const natures = [...document.netByNature].sort(
    (a, b) => (natureOrder.indexOf(a.nature) >>> 0) - (natureOrder.indexOf(b.nature) >>> 0),
  );
  for (const { nature, amount } of natures) {
    const account = chart.sales[nature] ?? chart.sales.services!;
    const entry = salesByAccount.get(account) ?? { amount: 0, label: natureLabels[nature] ?? 'Ventes' };
    entry.amount += amount;
    salesByAccount.set(account, entry);
  }
  for (const [account, { amount, label: accountLabel }] of salesByAccount) {
    if (amount !== 0)
      lines.push({ ...common, account, accountLabel, auxiliaryAccount: '', auxiliaryLabel: '', ...side(amount, true) });
  }

  const vatByKey = new Map<string, { account: string; rate: string | null; amount: number }>();
  for (const { rate, amount } of document.vatByRate) {
    const account = vatAccountOf(chart, rate);
    const key = `${account}/${rate === null ? '' : new Big(rate).toString()}`;
    const entry = vatByKey.get(key) ?? { account, rate, amount: 0 };
    entry.amount += amount;
    vatByKey.set(key, entry);
  }
  for (const { account, rate, amount } of vatByKey.values()) {
    if (amount === 0) continue;
    const accountLabel = rate === null ? 'TVA collectée' : `TVA collectée ${rateLabel(rate)} %`;
    lines.push({
      ...common,
      account,
      accountLabel: fecText(accountLabel),
      auxiliaryAccount: '',
      auxiliaryLabel: '',
      ...side(amount, true),
    });
  }
  if (lines.length === 0) return null;
  return balanced(lines, `${document.kind} ${document.number}`);
}

/** The bank-journal entry of a payment or a refund; null when it moves no money. */
export function bankEntry(movement: BankMovement, chart: FecChart): EntryLine[] | null {
  if (movement.amount === 0) return null;
  const received = movement.kind === 'payment';
  const name = fecText(movement.party.name);
  const what = received ? 'Règlement' : 'Remboursement';
  const method = methodLabels[movement.method] ?? movement.method;
  const label = fecText(
    `${what}${movement.documentNumber ? ` ${movement.documentNumber}` : ''}${name ? ` ${name}` : ''} (${method})`,
  );
  const common = {
    entryDate: movement.day,
    pieceRef: fecText(movement.pieceRef),
    pieceDate: movement.day,
    label,
    validDate: movement.validDate,
  };
  const amount = movement.amount;
  const bank: EntryLine = {
    ...common,
    account: chart.bank,
    accountLabel: 'Banque',
    auxiliaryAccount: '',
    auxiliaryLabel: '',
    ...(received ? { debit: amount, credit: 0 } : { debit: 0, credit: amount }),
  };
  const customer: EntryLine = {
    ...common,
    ...customerAccount(chart, movement.party),
    ...(received ? { debit: 0, credit: amount } : { debit: amount, credit: 0 }),
  };
  return balanced([bank, customer], `${movement.kind} ${movement.pieceRef}`);
}
