import { readFileSync } from 'node:fs';
import { XmlDocument, XmlValidateError, XsdValidator } from 'libxml2-wasm';
import { flowTypes, isPaymentFlow, type Flow, type ReportLine } from './flows.js';

/**
 * A declaration in the data format of flow 10 (`flow10.xsd`, written from the reform's external
 * specifications: no official schema is public), and its check against that schema before it
 * leaves. Amounts are cents inside the service and decimals with two digits in the file.
 */

export const reportNamespace = 'urn:facteur:ereporting:flow10:1';

export interface ReportFacts {
  id: string;
  attempt: number;
  flow: Flow;
  issuedAt: Date;
  siren: string;
  siret: string | null;
  periodStart: string;
  periodEnd: string;
  currency: string;
  lines: ReportLine[];
  operationCount: number;
  taxableAmount: number;
  taxAmount: number;
}

const escapeXml = (value: string) =>
  value.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Cents as a decimal with two digits: -1234 → "-12.34". */
export function decimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const el = (name: string, value: string) => `<rep:${name}>${escapeXml(value)}</rep:${name}>`;
const opt = (name: string, value: string | null) => (value === null ? '' : el(name, value));

function lineXml(line: ReportLine): string {
  switch (line.kind) {
    case 'aggregated_transaction':
      return `<rep:AggregatedTransaction>${el('Date', line.date)}${el('Category', line.category)}${opt('VatRate', line.vatRate)}${el('TaxableAmount', decimal(line.taxableAmount))}${el('TaxAmount', decimal(line.taxAmount))}${el('TransactionCount', String(line.count))}</rep:AggregatedTransaction>`;
    case 'transaction':
      return `<rep:Invoice>${el('Number', line.number)}${el('IssueDate', line.issueDate)}${el('TypeCode', line.typeCode)}<rep:Buyer>${opt('Country', line.buyerCountry)}${opt('VatNumber', line.buyerVatNumber)}</rep:Buyer>${line.parts
        .map(
          (part) =>
            `<rep:Breakdown>${el('Category', part.category)}${el('VatCode', part.vatCode)}${opt('VatRate', part.vatRate)}${el('TaxableAmount', decimal(part.taxableAmount))}${el('TaxAmount', decimal(part.taxAmount))}</rep:Breakdown>`,
        )
        .join('')}</rep:Invoice>`;
    case 'aggregated_payment':
      return `<rep:AggregatedPayment>${el('Date', line.date)}${el('VatRate', line.vatRate)}${el('Amount', decimal(line.amount))}${el('PaymentCount', String(line.count))}</rep:AggregatedPayment>`;
    case 'payment':
      return `<rep:Payment>${opt('InvoiceNumber', line.invoiceNumber)}${el('Date', line.date)}${el('VatRate', line.vatRate)}${el('Amount', decimal(line.amount))}</rep:Payment>`;
  }
}

export function reportXml(facts: ReportFacts): string {
  const body = isPaymentFlow(facts.flow) ? 'Payments' : 'Transactions';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<rep:Report xmlns:rep="${reportNamespace}">`,
    '<rep:Header>',
    el('Id', facts.id),
    el('Attempt', String(facts.attempt)),
    el('Flow', facts.flow),
    el('FlowType', flowTypes[facts.flow]),
    el('IssueDateTime', facts.issuedAt.toISOString()),
    `<rep:Declarant>${el('SIREN', facts.siren)}${opt('SIRET', facts.siret)}</rep:Declarant>`,
    `<rep:Period>${el('Start', facts.periodStart)}${el('End', facts.periodEnd)}</rep:Period>`,
    el('Currency', facts.currency),
    '</rep:Header>',
    `<rep:${body}>`,
    ...facts.lines.map(lineXml),
    `</rep:${body}>`,
    `<rep:Totals>${el('OperationCount', String(facts.operationCount))}${el('TaxableAmount', decimal(facts.taxableAmount))}${el('TaxAmount', decimal(facts.taxAmount))}</rep:Totals>`,
    '</rep:Report>\n',
  ].join('');
}

let validator: XsdValidator | null = null;

/** The problems the schema finds in `xml` (none: it may leave). */
export function reportProblems(xml: string): string[] {
  if (!validator) {
    const schema = XmlDocument.fromBuffer(readFileSync(new URL('./flow10.xsd', import.meta.url)));
    validator = XsdValidator.fromDoc(schema);
  }
  let document: XmlDocument;
  try {
    document = XmlDocument.fromString(xml);
  } catch (error) {
    return [`not well-formed: ${(error as Error).message}`];
  }
  try {
    validator.validate(document);
    return [];
  } catch (error) {
    if (error instanceof XmlValidateError)
      return error.details.map((detail) => `line ${detail.line}: ${detail.message.trim()}`);
    throw error;
  } finally {
    document.dispose();
  }
}
