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
  /** Deposits invoiced (4191...): a deposit invoice's net, taken back by its final invoice. */
  depositsReceived: string;
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
  depositsReceived: '419100',
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
/** The order of the sales lines of an entry: goods, then services (another nature last). */
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
  /** A deposit invoice: its net is an advance received (4191), not a sale yet. */
  deposit?: boolean;
  /**
   * A final invoice: what its deposits invoiced, net and VAT per rate. Its entry takes them back on
   * the customer's side (4191 and the VAT they already collected debited), and the customer owes the rest.
   */
  deducted?: { net: number; vatByRate: { rate: string | null; amount: number }[] } | null;
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
  /** The same amounts in the invoice's currency when it is not the euro (the VAT line for line). */
  foreign?: ForeignAmounts | null;
}

/** A document's amounts in its own currency, written beside the euros (Montantdevise, Idevise). */
export interface ForeignAmounts {
  currency: string;
  total: number;
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
  /** Spells the rate's value: rates written differently (`20`, `20.00`) share their label. */
  label: string;
}

/** The VAT account and label of each rate met, per chart and side: decimals are parsed once per rate, not per line. */
const vatLinesByChart = new WeakMap<FecChart, Record<VatSide, Map<string, VatLine>>>();
const vatWords: Record<VatSide, string> = { collected: 'TVA collectée', deductible: 'TVA déductible' };

function vatLineOf(chart: FecChart, rate: string | null, side: VatSide): VatLine {
  let sides = vatLinesByChart.get(chart);
  if (!sides) vatLinesByChart.set(chart, (sides = { collected: new Map(), deductible: new Map() }));
  const lines = sides[side];
  let line = lines.get(rate ?? '');
  if (!line) {
    line = {
      account: vatAccountOf(chart, rate, side),
      label: fecText(rate === null ? vatWords[side] : `${vatWords[side]} ${rateLabel(rate)} %`),
    };
    lines.set(rate ?? '', line);
  }
  return line;
}

/** The lines, if their debits equal their credits; `kind` and `number` name the document when they do not. */
function balanced(lines: EntryLine[], kind: string, number: string): EntryLine[] {
  let debit = 0;
  let credit = 0;
  for (const line of lines) {
    debit += line.debit;
    credit += line.credit;
  }
  if (debit !== credit) throw new Error(`${kind} ${number}: debits ${debit} and credits ${credit} differ`);
  return lines;
}

// The fixed words of the labels, in the file's characters once and for all.
const words = {
  invoice: fecText('Facture'),
  creditNote: fecText('Avoir'),
  payment: fecText('Règlement'),
  refund: fecText('Remboursement'),
  customers: fecText('Clients'),
  deposits: fecText('Acomptes reçus'),
  suppliers: fecText('Fournisseurs'),
  bank: fecText('Banque'),
  purchases: fecText('Achats'),
};
const methodWords = new Map(Object.entries(methodLabels).map(([method, label]) => [method, fecText(label)]));
const natureWords = new Map(Object.entries(natureLabels).map(([nature, label]) => [nature, fecText(label)]));

/**
 * `Facture F2026-000001 Atelier Lumière SAS`, from parts already in the file's characters; an
 * empty part is left out. Fixed parameters rather than an array: it runs for every entry.
 */
function joined(a: string, b: string, c: string, d = ''): string {
  let out = a;
  if (b !== '') out = out === '' ? b : `${out} ${b}`;
  if (c !== '') out = out === '' ? c : `${out} ${c}`;
  if (d !== '') out = out === '' ? d : `${out} ${d}`;
  return out;
}

/** What every line of an entry shares. */
interface EntryHead {
  date: string;
  validDate: string;
  pieceRef: string;
  label: string;
}

function entryLine(
  head: EntryHead,
  account: string,
  accountLabel: string,
  auxiliaryAccount: string,
  auxiliaryLabel: string,
  debit: number,
  credit: number,
  currencyAmount = 0,
  currency = '',
): EntryLine {
  return {
    entryDate: head.date,
    account,
    accountLabel,
    auxiliaryAccount,
    auxiliaryLabel,
    pieceRef: head.pieceRef,
    pieceDate: head.date,
    label: head.label,
    debit,
    credit,
    validDate: head.validDate,
    currencyAmount,
    currency,
  };
}

/** A line of an entry's net: an account, its label, the amount. */
interface NetLine {
  account: string;
  label: string;
  amount: number;
  /** Where it goes among the entry's nets (goods first). */
  rank: number;
  /** The amount in the document's currency, when it is not the euro. */
  foreignAmount: number;
}

const byRank = (a: NetLine, b: NetLine) => a.rank - b.rank;

/**
 * An invoice's or a credit note's entry, sales or purchase alike: the third party carries the
 * total on one side, the accounts of the net (in their rank; nets sharing an account share its
 * line) and the VAT per rate (rates sharing an account and a value share a line) on the other.
 * `thirdPartyOnDebit`: a sales invoice (the customer owes) or a purchase credit note (the
 * supplier owes back). Null when it moves no money. It runs for every document of a FEC: no
 * closure, no array it can do without.
 */
function documentEntry(
  chart: FecChart,
  head: EntryHead,
  document: {
    kind: string;
    number: string;
    thirdParty: ThirdPartyAccount;
    thirdPartyOnDebit: boolean;
    total: number;
    nets: NetLine[];
    vatByRate: { rate: string | null; amount: number }[];
    vatSide: VatSide;
    foreign: ForeignAmounts | null;
    /** Amounts taken back on the third party's side (a final invoice's deposits), its total already less them. */
    takenBack?: { account: string; label: string; amount: number; rate?: string | null }[];
  },
): EntryLine[] | null {
  const onDebit = document.thirdPartyOnDebit;
  const foreign = document.foreign;
  const currency = foreign?.currency ?? '';
  const lines: EntryLine[] = [];
  if (document.total !== 0) {
    const party = document.thirdParty;
    const total = document.total;
    lines.push(
      entryLine(
        head,
        party.account,
        party.accountLabel,
        party.auxiliaryAccount,
        party.auxiliaryLabel,
        onDebit ? total : 0,
        onDebit ? 0 : total,
        foreign?.total ?? 0,
        currency,
      ),
    );
  }
  const nets = document.nets;
  if (nets.length > 1) nets.sort(byRank);
  for (const net of nets)
    lines.push(
      entryLine(
        head,
        net.account,
        net.label,
        '',
        '',
        onDebit ? 0 : net.amount,
        onDebit ? net.amount : 0,
        net.foreignAmount,
        currency,
      ),
    );

  // Rates sharing an account and a value share a line: within an entry, the account and the
  // label (which spells the rate's value) say it.
  const vatFirst = lines.length;
  for (let index = 0; index < document.vatByRate.length; index++) {
    const { rate, amount } = document.vatByRate[index]!;
    if (amount === 0) continue;
    const foreignAmount = foreign?.vatByRate[index]?.amount ?? 0;
    const vat = vatLineOf(chart, rate, document.vatSide);
    let line: EntryLine | undefined;
    for (let i = vatFirst; i < lines.length && !line; i++)
      if (lines[i]!.account === vat.account && lines[i]!.accountLabel === vat.label) line = lines[i];
    if (!line)
      lines.push(
        entryLine(
          head,
          vat.account,
          vat.label,
          '',
          '',
          onDebit ? 0 : amount,
          onDebit ? amount : 0,
          foreignAmount,
          currency,
        ),
      );
    else {
      if (onDebit) line.credit += amount;
      else line.debit += amount;
      line.currencyAmount! += foreignAmount;
    }
  }
  for (const back of document.takenBack ?? []) {
    if (back.amount === 0) continue;
    lines.push(entryLine(head, back.account, back.label, '', '', onDebit ? back.amount : 0, onDebit ? 0 : back.amount));
  }
  if (lines.length === 0) return null;
  return balanced(lines, document.kind, document.number);
}

/** Adds a nature's net to the entry's nets: natures sharing an account share its line, labelled by the first in rank. */
function addNet(
  nets: NetLine[],
  account: string,
  label: string,
  amount: number,
  rank: number,
  foreignAmount = 0,
): void {
  for (const net of nets) {
    if (net.account !== account) continue;
    net.amount += amount;
    net.foreignAmount += foreignAmount;
    if (rank < net.rank) {
      net.rank = rank;
      net.label = label;
    }
    return;
  }
  nets.push({ account, label, amount, rank, foreignAmount });
}

/** The sales-journal entry of an invoice or a credit note; null when it moves no money. */
export function salesEntry(document: SalesDocument, chart: FecChart): EntryLine[] | null {
  const invoice = document.kind === 'invoice';
  const pieceRef = fecText(document.number);
  const nets: NetLine[] = [];
  for (const { nature, amount } of document.netByNature) {
    if (amount === 0) continue;
    // One line per sales account, goods first; a deposit's net all to the advances received.
    addNet(
      nets,
      document.deposit ? chart.depositsReceived : (chart.sales[nature] ?? chart.sales.services!),
      document.deposit ? words.deposits : (natureWords.get(nature) ?? 'Ventes'),
      amount,
      natureOrder.indexOf(nature) >>> 0,
    );
  }
  const deducted = document.deducted ?? null;
  const takenBack = deducted
    ? [
        { account: chart.depositsReceived, label: words.deposits, amount: deducted.net },
        ...deducted.vatByRate.map(({ rate, amount }) => ({ ...vatLineOf(chart, rate, 'collected'), amount })),
      ]
    : [];
  const deductedTotal = takenBack.reduce((sum, back) => sum + back.amount, 0);
  return documentEntry(
    chart,
    {
      date: document.issueDate,
      validDate: document.validDate,
      pieceRef,
      label: joined(invoice ? words.invoice : words.creditNote, pieceRef, fecText(document.party.name)),
    },
    {
      kind: document.kind,
      number: document.number,
      thirdParty: customerAccount(chart, document.party),
      // The customer debited with an invoice's total (less its deposits), credited with a credit note's.
      thirdPartyOnDebit: invoice,
      total: document.total - deductedTotal,
      nets,
      vatByRate: document.vatByRate,
      vatSide: 'collected',
      foreign: null,
      takenBack,
    },
  );
}

/** The purchase-journal entry of a received invoice or credit note; null when it moves no money. */
export function purchaseEntry(document: PurchaseDocument, chart: FecChart): EntryLine[] | null {
  const invoice = document.kind === 'invoice';
  const pieceRef = fecText(document.number);
  const nets: NetLine[] = [];
  if (document.net !== 0) addNet(nets, chart.purchases, words.purchases, document.net, 0, document.foreign?.net);
  return documentEntry(
    chart,
    {
      date: document.issueDate,
      validDate: document.validDate,
      pieceRef,
      label: joined(invoice ? words.invoice : words.creditNote, pieceRef, fecText(document.supplier.name)),
    },
    {
      kind: `received ${document.kind}`,
      number: document.number,
      thirdParty: supplierAccount(chart, document.supplier),
      // The supplier credited with an invoice's total, debited with a credit note's.
      thirdPartyOnDebit: !invoice,
      total: document.total,
      nets,
      vatByRate: document.vatByRate,
      vatSide: 'deductible',
      foreign: document.foreign ?? null,
    },
  );
}

/** The bank-journal entry of a payment or a refund; null when it moves no money. */
export function bankEntry(movement: BankMovement, chart: FecChart): EntryLine[] | null {
  if (movement.amount === 0) return null;
  const received = movement.kind === 'payment';
  const method = methodWords.get(movement.method) ?? fecText(movement.method);
  const head: EntryHead = {
    date: movement.day,
    validDate: movement.validDate,
    pieceRef: fecText(movement.pieceRef),
    label: joined(
      received ? words.payment : words.refund,
      fecText(movement.documentNumber),
      fecText(movement.party.name),
      `(${method})`,
    ),
  };
  const amount = movement.amount;
  const customer = customerAccount(chart, movement.party);
  return balanced(
    [
      entryLine(head, chart.bank, words.bank, '', '', received ? amount : 0, received ? 0 : amount),
      entryLine(
        head,
        customer.account,
        customer.accountLabel,
        customer.auxiliaryAccount,
        customer.auxiliaryLabel,
        received ? 0 : amount,
        received ? amount : 0,
      ),
    ],
    movement.kind,
    movement.pieceRef,
  );
}
