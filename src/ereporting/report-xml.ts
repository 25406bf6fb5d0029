import { euMemberStates } from '../identifiers/eu-member-states.js';
import { sirenOfVatNumber } from '../identifiers/vat-number.js';
import { flowTypes, isPaymentFlow, type Flow, type ReportLine, type TransactionPart } from './flows.js';

export { reportProblems, reportProblemsAsync, checkReport, ppfExceptedRules } from './flow10-check.js';

/**
 * A declaration in the official format of flow 10: the AIFE/PPF XSD 1.0 (`ereporting.xsd` with
 * `report`, `transaction`, `payment`, `parametre`; standards/flux10/PROVENANCE.md), checked by that
 * XSD and the PPF flow 10 schematron before it leaves (flow10-check.ts). A root `Report` with no
 * namespace: the transmission (`ReportDocument`), then exactly one of `TransactionsReport` (10.1 per
 * invoice, 10.3 per day and category) or `PaymentsReport` (10.2 per invoice, 10.4 per day). Dates
 * are `AAAAMMJJ`, amounts decimals with two digits (cents inside the service).
 *
 * `IN` is the initial report of a period, and every attempt after a platform's rejection is one too,
 * under its own identifier (the declaration id of that attempt): a rejected file was never taken, so
 * the period has no report to correct. `RE` (rectificative) replaces a report the platform accepted;
 * the service sends none today (a correction is reported in its own period), the writer can.
 */

export interface ReportFacts {
  id: string;
  attempt: number;
  flow: Flow;
  issuedAt: Date;
  siren: string;
  /** The establishment: the official format names the declarant by its SIREN only. */
  siret: string | null;
  periodStart: string;
  periodEnd: string;
  currency: string;
  lines: ReportLine[];
  operationCount: number;
  taxableAmount: number;
  taxAmount: number;
  /** `IN` (default) or `RE`: see above. */
  typeCode?: 'IN' | 'RE';
  /** The declarant's legal name (TT-9, TT-14); empty when not given. */
  sellerName?: string;
  /** The declarant's VAT number (TT-34, 10.1); by default the French number of its SIREN. */
  sellerVatNumber?: string | null;
}

/** The profile every flow 10 invoice names (TT-29, rule S1.12). */
export const ereportingProfile = 'urn.cpro.gouv.fr:1p0:ereporting';

const escapeXml = (value: string) =>
  value.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Cents as a decimal with two digits: -1234 → "-12.34". */
export function decimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` → `AAAAMMJJ` (rule G1.09). */
export const flow10Date = (date: string) => date.slice(0, 10).replace(/-/g, '');

const parisParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** An instant as `AAAAMMJJHHMMSS` (rule G7.53), in French time: the format carries no zone. */
export function flow10DateTime(at: Date): string {
  const part = Object.fromEntries(parisParts.formatToParts(at).map((p) => [p.type, p.value]));
  return `${part.year}${part.month}${part.day}${part.hour}${part.minute}${part.second}`;
}

/** A VAT rate as the schema's decimal (`20.00` → `20.00`); no rate (category O) is 0. */
const percent = (rate: string | null) => (rate === null ? '0' : rate);

/** The French VAT number of a SIREN: `FR`, the key (12 + 3 × (SIREN mod 97)) mod 97, the SIREN. */
export function frenchVatNumber(siren: string): string {
  const key = Number(BigInt(`${siren}12`) % 97n);
  return `FR${String(key).padStart(2, '0')}${siren}`;
}

const el = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;
const opt = (name: string, value: string | null | undefined) => (value ? el(name, value) : '');
const withAttribute = (name: string, attribute: string, key: string, value: string) =>
  `<${name} ${attribute}="${escapeXml(key)}">${escapeXml(value)}</${name}>`;

function reportDocumentXml(facts: ReportFacts): string {
  // The company deposits on its platform: it is the sender (TG-3 "le déclarant ou son OD"); the
  // platform writes itself there (0238, WK) when it forwards the file (flow10-check.ts).
  const party = (tag: string) =>
    `<${tag}>${withAttribute('Id', 'schemeId', '0002', facts.siren)}${el('Name', facts.sellerName ?? '')}${el('RoleCode', 'SE')}</${tag}>`;
  return [
    '<ReportDocument>',
    el('Id', facts.id),
    el('Name', `${flowTypes[facts.flow]} ${flow10Date(facts.periodStart)}-${flow10Date(facts.periodEnd)}`),
    `<IssueDateTime>${el('DateTimeString', flow10DateTime(facts.issuedAt))}</IssueDateTime>`,
    el('TypeCode', facts.typeCode ?? 'IN'),
    party('Sender'),
    party('Issuer'),
    '</ReportDocument>',
  ].join('');
}

const reportPeriodXml = (facts: ReportFacts) =>
  `<ReportPeriod>${el('StartDate', flow10Date(facts.periodStart))}${el('EndDate', flow10Date(facts.periodEnd))}</ReportPeriod>`;

/** The buyer's identifier scheme (G2.19): a SIREN, a VAT number of the EU, another identifier. */
function buyerXml(country: string | null, vatNumber: string | null): string {
  const address = country ? `<PostalAddress>${el('CountryId', country)}</PostalAddress>` : '';
  if (!vatNumber) return `<Buyer>${address}</Buyer>`;
  const siren = sirenOfVatNumber(vatNumber);
  const eu = country !== null && country !== 'FR' && (euMemberStates as readonly string[]).includes(country);
  const id = siren
    ? withAttribute('CompanyId', 'schemeId', '0002', siren)
    : withAttribute('CompanyId', 'schemeId', eu ? '0223' : '0227', vatNumber);
  return `<Buyer>${id}${withAttribute('TaxRegistrationId', 'qualifyingId', 'VAT', vatNumber)}${address}</Buyer>`;
}

/** Labels of the VATEX codes the tax engine gives (TT-58, required with category E by G1.40). */
const vatexLabels: Record<string, string> = {
  'VATEX-FR-FRANCHISE': 'TVA non applicable, art. 293 B du CGI',
  'VATEX-EU-IC': 'Intra-community supply',
  'VATEX-EU-AE': 'Reverse charge',
  'VATEX-EU-G': 'Export outside the EU',
  'VATEX-EU-O': 'Not subject to VAT',
};

/** The VAT breakdown of one invoice: its parts merged per category code and rate. */
function taxSubTotalsXml(parts: TransactionPart[], sign: number): string {
  const merged = new Map<string, TransactionPart>();
  for (const part of parts) {
    const key = `${part.vatCode}|${part.vatRate ?? ''}`;
    const found = merged.get(key);
    if (found) {
      found.taxableAmount += part.taxableAmount;
      found.taxAmount += part.taxAmount;
    } else merged.set(key, { ...part });
  }
  return [...merged.values()]
    .map((part) => {
      const vatex = part.vatexCode ?? null;
      const exemption =
        vatex === null
          ? ''
          : `${el('TaxExemptionReason', vatexLabels[vatex] ?? vatex)}${el('TaxExemptionReasonCode', vatex)}`;
      return `<TaxSubTotal>${el('TaxableAmount', decimal(sign * part.taxableAmount))}${el('TaxAmount', decimal(sign * part.taxAmount))}<TaxCategory>${el('Code', part.vatCode)}${el('Percent', percent(part.vatRate))}${exemption}</TaxCategory></TaxSubTotal>`;
    })
    .join('');
}

type UnitaryTransaction = Extract<ReportLine, { kind: 'transaction' }>;

/** Flow 10.1: one invoice or credit note (a credit note's amounts are positive under type 381). */
function invoiceXml(line: UnitaryTransaction, facts: ReportFacts): string {
  const sign = line.typeCode === '381' ? -1 : 1;
  const taxable = line.parts.reduce((sum, part) => sum + part.taxableAmount, 0);
  const tax = line.parts.reduce((sum, part) => sum + part.taxAmount, 0);
  const framework = line.billingFramework ?? frameworkOfCategories(line.parts);
  const preceding = line.precedingInvoice
    ? `<ReferencedDocument>${el('ID', line.precedingInvoice.number)}${el('IssueDate', flow10Date(line.precedingInvoice.issueDate))}</ReferencedDocument>`
    : '';
  const sellerVat = facts.sellerVatNumber ?? frenchVatNumber(facts.siren);
  return [
    '<Invoice>',
    el('ID', line.number),
    el('IssueDate', flow10Date(line.issueDate)),
    el('TypeCode', line.typeCode),
    el('CurrencyCode', facts.currency),
    `<BusinessProcess>${el('ID', framework)}${el('TypeID', ereportingProfile)}</BusinessProcess>`,
    preceding,
    `<Seller>${withAttribute('CompanyId', 'schemeId', '0002', facts.siren)}${withAttribute('TaxRegistrationId', 'qualifyingId', 'VAT', sellerVat)}<PostalAddress>${el('CountryId', 'FR')}</PostalAddress></Seller>`,
    buyerXml(line.buyerCountry, line.buyerVatNumber),
    `<MonetaryTotal>${el('TaxExclusiveAmount', decimal(sign * taxable))}${withAttribute('TaxAmount', 'CurrencyCode', facts.currency, decimal(sign * tax))}</MonetaryTotal>`,
    taxSubTotalsXml(line.parts, sign),
    '</Invoice>',
  ].join('');
}

/** A line stored before its billing framework was kept: goods only, services only, or both. */
function frameworkOfCategories(parts: TransactionPart[]): 'B1' | 'S1' | 'M1' {
  const categories = new Set(parts.map((part) => part.category));
  if (categories.size === 1 && categories.has('TLB1')) return 'B1';
  if (categories.size === 1 && categories.has('TPS1')) return 'S1';
  return 'M1';
}

type AggregatedTransaction = Extract<ReportLine, { kind: 'aggregated_transaction' }>;

/**
 * Flow 10.3: the sales of one day, category and rate, with their count (TT-85). A day's category
 * with several rates is one `Transactions` per rate: the count of each is exact (a document with
 * two rates counts in both), where one per category could not say how many documents it holds.
 */
const aggregatedTransactionXml = (line: AggregatedTransaction, facts: ReportFacts) =>
  [
    '<Transactions>',
    el('Date', flow10Date(line.date)),
    el('TransactionsCurrency', facts.currency),
    el('CategoryCode', line.category),
    el('TaxExclusiveAmount', decimal(line.taxableAmount)),
    el('TaxTotal', decimal(line.taxAmount)),
    el('TransactionsCount', String(line.count)),
    `<TaxSubtotal>${el('TaxPercent', percent(line.vatRate))}${el('TaxableAmount', decimal(line.taxableAmount))}${el('TaxTotal', decimal(line.taxAmount))}</TaxSubtotal>`,
    '</Transactions>',
  ].join('');

const subTotalXml = (vatRate: string, amount: number, currency: string) =>
  `<SubTotals>${el('TaxPercent', percent(vatRate))}${el('CurrencyCode', currency)}${el('Amount', decimal(amount))}</SubTotals>`;

/** Lines in order of appearance, grouped by `key` (a payment's rates, a day's rates). */
function groupedBy<T>(lines: T[], key: (line: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const line of lines) {
    const k = key(line);
    const group = groups.get(k);
    if (group) group.push(line);
    else groups.set(k, [line]);
  }
  return [...groups.values()];
}

type UnitaryPayment = Extract<ReportLine, { kind: 'payment' }>;
type AggregatedPayment = Extract<ReportLine, { kind: 'aggregated_payment' }>;

/** Flow 10.2: per invoice and payment day, the amounts collected per rate. */
function paymentInvoicesXml(lines: UnitaryPayment[], currency: string): string {
  return groupedBy(lines, (line) => `${line.invoiceNumber ?? ''}|${line.invoiceIssueDate ?? ''}|${line.date}`)
    .map((group) => {
      const first = group[0]!;
      return `<Invoice>${opt('InvoiceID', first.invoiceNumber)}${opt('IssueDate', first.invoiceIssueDate ? flow10Date(first.invoiceIssueDate) : null)}<Payment>${el('Date', flow10Date(first.date))}${group.map((line) => subTotalXml(line.vatRate, line.amount, currency)).join('')}</Payment></Invoice>`;
    })
    .join('');
}

/** Flow 10.4: per day, the amounts collected per rate. */
function paymentDaysXml(lines: AggregatedPayment[], currency: string): string {
  return groupedBy(lines, (line) => line.date)
    .map(
      (group) =>
        `<Transactions><Payment>${el('Date', flow10Date(group[0]!.date))}${group.map((line) => subTotalXml(line.vatRate, line.amount, currency)).join('')}</Payment></Transactions>`,
    )
    .join('');
}

function bodyXml(facts: ReportFacts): string {
  const of = <K extends ReportLine['kind']>(kind: K) =>
    facts.lines.filter((line): line is Extract<ReportLine, { kind: K }> => line.kind === kind);
  if (isPaymentFlow(facts.flow)) {
    // The schema orders unitary (Invoice) before aggregated (Transactions) parts.
    const payments = `${paymentInvoicesXml(of('payment'), facts.currency)}${paymentDaysXml(of('aggregated_payment'), facts.currency)}`;
    return `<PaymentsReport>${reportPeriodXml(facts)}${payments}</PaymentsReport>`;
  }
  const invoices = of('transaction').map((line) => invoiceXml(line, facts));
  const days = of('aggregated_transaction').map((line) => aggregatedTransactionXml(line, facts));
  return `<TransactionsReport>${reportPeriodXml(facts)}${invoices.join('')}${days.join('')}</TransactionsReport>`;
}

export function reportXml(facts: ReportFacts): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Report>${reportDocumentXml(facts)}${bodyXml(facts)}</Report>\n`;
}
