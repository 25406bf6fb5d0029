import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReportBuilder, type DocumentFacts, type Flow, type PaymentFacts } from '../../src/ereporting/flows.js';
import {
  checkReport,
  frenchVatNumber,
  flow10DateTime,
  ppfExceptedRules,
  reportProblems,
  reportProblemsAsync,
  reportXml,
  type ReportFacts,
} from '../../src/ereporting/report-xml.js';
import { closeReportValidation } from '../../src/ereporting/flow10-check.js';
import { checkVatNumber } from '../../src/identifiers/vat-number.js';

/**
 * Flow 10 in the official format: every part built from realistic facts passes the AIFE/PPF XSD 1.0
 * and the PPF flow 10 schematron v1.0, but for the rules the platform fills (named); a broken file
 * is reported with the rule it breaks.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'facteur-flow10-'));
after(() => closeReportValidation());

const b2c = {
  ereportingTransaction: { state: 'due', reason: 'b2c' },
  ereportingPayment: { state: 'due', reason: 'x' },
};
const b2bInt = {
  ereportingTransaction: { state: 'due', reason: 'international_b2b' },
  ereportingPayment: { state: 'due', reason: 'services_vat_on_collection' },
};

const document = (over: Partial<DocumentFacts>): DocumentFacts => ({
  kind: 'invoice',
  id: 'inv_1',
  number: 'F-2026-0001',
  issueDate: '2026-09-03',
  currency: 'EUR',
  buyerCountry: null,
  buyerVatNumber: null,
  lines: [
    { nature: 'goods', vatCode: 'S', vatRate: '20.00', netAmount: 29800 },
    { nature: 'services', vatCode: 'S', vatRate: '10.00', netAmount: 5000 },
  ],
  vatBreakdown: [
    { vatCode: 'S', vatRate: '20.00', taxableAmount: 29800, taxAmount: 5960 },
    { vatCode: 'S', vatRate: '10.00', taxableAmount: 5000, taxAmount: 500 },
  ],
  obligations: b2c,
  ...over,
});

const payment = (over: Partial<PaymentFacts>): PaymentFacts => ({
  kind: 'payment',
  id: 'pay_1',
  date: '2026-09-04',
  amount: 12000,
  currency: 'EUR',
  invoiceNumber: 'F-2026-0002',
  invoiceIssueDate: '2026-09-01',
  vatBreakdown: [{ vatCode: 'S', vatRate: '20.00', taxableAmount: 10000, taxAmount: 2000 }],
  obligations: b2bInt,
  ...over,
});

function factsOf(builder: ReportBuilder, over: Partial<ReportFacts> = {}): ReportFacts {
  return {
    id: 'rep_01HZX3K4M5N6P7Q8R9S0T1V2W3',
    attempt: 1,
    flow: builder.flow,
    issuedAt: new Date('2026-10-01T08:30:00Z'),
    siren: '100000009',
    siret: '10000000900017',
    periodStart: '2026-09-01',
    periodEnd: '2026-09-30',
    currency: 'EUR',
    lines: builder.lines(),
    operationCount: builder.operationCount,
    taxableAmount: builder.taxableAmount,
    taxAmount: builder.taxAmount,
    sellerName: 'Meubles Martin SAS',
    ...over,
  };
}

/** A month of consumer sales: goods and services, two rates, a credit note, an exempt sale. */
function consumerSales(): ReportBuilder {
  const builder = new ReportBuilder('10.3');
  builder.addDocument(document({}));
  builder.addDocument(document({ id: 'inv_2', number: 'F-2026-0002', issueDate: '2026-09-04' }));
  builder.addDocument(document({ id: 'cn_1', kind: 'credit_note', number: 'A-2026-0001', issueDate: '2026-09-04' }));
  builder.addDocument(
    document({
      id: 'inv_3',
      issueDate: '2026-09-05',
      lines: [{ nature: 'services', vatCode: 'E', vatRate: '0', netAmount: 4000 }],
      vatBreakdown: [{ vatCode: 'E', vatRate: '0', vatexCode: 'VATEX-FR-CGI261-4', taxableAmount: 4000, taxAmount: 0 }],
    }),
  );
  return builder;
}

/** International B2B: intra-EU goods to Germany, services outside the scope to the UK, a credit note. */
function internationalSales(): ReportBuilder {
  const builder = new ReportBuilder('10.1');
  const eu = {
    buyerCountry: 'DE',
    buyerVatNumber: 'DE136695976',
    obligations: b2bInt,
    lines: [{ nature: 'goods', vatCode: 'K', vatRate: '0', netAmount: 120000 }],
    vatBreakdown: [{ vatCode: 'K', vatRate: '0', vatexCode: 'VATEX-EU-IC', taxableAmount: 120000, taxAmount: 0 }],
  };
  builder.addDocument(document({ ...eu, number: 'F-2026-0101' }));
  builder.addDocument(
    document({
      ...eu,
      kind: 'credit_note',
      number: 'A-2026-0102',
      issueDate: '2026-09-20',
      precedingInvoice: { number: 'F-2026-0101', issueDate: '2026-09-03' },
      lines: [{ nature: 'goods', vatCode: 'K', vatRate: '0', netAmount: 20000 }],
      vatBreakdown: [{ vatCode: 'K', vatRate: '0', vatexCode: 'VATEX-EU-IC', taxableAmount: 20000, taxAmount: 0 }],
    }),
  );
  builder.addDocument(
    document({
      number: 'F-2026-0103',
      buyerCountry: 'GB',
      buyerVatNumber: 'GB980780684',
      obligations: b2bInt,
      lines: [{ nature: 'services', vatCode: 'O', vatRate: null, netAmount: 75000 }],
      vatBreakdown: [{ vatCode: 'O', vatRate: null, vatexCode: 'VATEX-EU-O', taxableAmount: 75000, taxAmount: 0 }],
    }),
  );
  return builder;
}

/** Payments of services taxed on collection: one invoice at two rates, a refund. */
function unitaryPayments(): ReportBuilder {
  const builder = new ReportBuilder('10.2');
  builder.addPayment(
    payment({
      amount: 17275,
      vatBreakdown: [
        { vatCode: 'S', vatRate: '20.00', taxableAmount: 10000, taxAmount: 2000 },
        { vatCode: 'S', vatRate: '5.50', taxableAmount: 5000, taxAmount: 275 },
      ],
    }),
  );
  builder.addPayment(
    payment({
      kind: 'refund',
      id: 'ref_1',
      date: '2026-09-18',
      amount: 2400,
      invoiceNumber: 'A-2026-0007',
      invoiceIssueDate: '2026-09-17',
    }),
  );
  return builder;
}

/** Consumer payments per day and rate, with a day that only refunds. */
function consumerPayments(): ReportBuilder {
  const builder = new ReportBuilder('10.4');
  builder.addPayment(payment({ obligations: b2c }));
  builder.addPayment(payment({ id: 'pay_2', obligations: b2c, amount: 6000 }));
  builder.addPayment(payment({ id: 'ref_1', kind: 'refund', date: '2026-09-09', amount: 1200, obligations: b2c }));
  return builder;
}

const builders: Record<Flow, () => ReportBuilder> = {
  '10.1': internationalSales,
  '10.2': unitaryPayments,
  '10.3': consumerSales,
  '10.4': consumerPayments,
};

const rulesOf = (problems: { rule: string }[]) => [...new Set(problems.map((problem) => problem.rule))].sort();

for (const flow of ['10.1', '10.2', '10.3', '10.4'] as const) {
  test(`flow ${flow} from realistic facts passes the official XSD and the PPF schematron`, async () => {
    const xml = reportXml(factsOf(builders[flow]()));
    assert.deepEqual(reportProblems(xml), []);
    const check = await checkReport(xml, dataDir);
    assert.deepEqual(check.problems, [], JSON.stringify(check.problems, null, 1));
    // What the platform writes (the sender) is all that is set aside; 10.2 and 10.4 refund.
    const excepted = flow === '10.2' || flow === '10.4' ? ['G1.16', 'G6.22', 'G7.51'] : ['G6.22', 'G7.51'];
    assert.deepEqual(rulesOf(check.excepted), excepted);
    assert.deepEqual(await reportProblemsAsync(xml, dataDir), []);
  });
}

test('the official document carries the facts: envelope, period, categories, amounts, codes', () => {
  const xml = reportXml(factsOf(consumerSales()));
  assert.match(
    xml,
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<Report><ReportDocument><Id>rep_01HZX3K4M5N6P7Q8R9S0T1V2W3<\/Id>/,
  );
  assert.match(xml, /<TypeCode>IN<\/TypeCode>/);
  assert.match(xml, /<DateTimeString>20261001103000<\/DateTimeString>/);
  assert.match(
    xml,
    /<Issuer><Id schemeId="0002">100000009<\/Id><Name>Meubles Martin SAS<\/Name><RoleCode>SE<\/RoleCode><\/Issuer>/,
  );
  assert.match(xml, /<ReportPeriod><StartDate>20260901<\/StartDate><EndDate>20260930<\/EndDate><\/ReportPeriod>/);
  // 3 September: one sale; 4 September: a sale and its credit note net to zero, counted twice.
  assert.match(
    xml,
    /<Transactions><Date>20260903<\/Date><TransactionsCurrency>EUR<\/TransactionsCurrency><CategoryCode>TLB1<\/CategoryCode><TaxExclusiveAmount>298.00<\/TaxExclusiveAmount><TaxTotal>59.60<\/TaxTotal><TransactionsCount>1<\/TransactionsCount><TaxSubtotal><TaxPercent>20.00<\/TaxPercent><TaxableAmount>298.00<\/TaxableAmount><TaxTotal>59.60<\/TaxTotal><\/TaxSubtotal><\/Transactions>/,
  );
  assert.match(
    xml,
    /<Date>20260904<\/Date>.{0,80}<CategoryCode>TPS1<\/CategoryCode><TaxExclusiveAmount>0.00<\/TaxExclusiveAmount>.{0,60}<TransactionsCount>2</,
  );
  assert.match(xml, /<CategoryCode>TNT1<\/CategoryCode><TaxExclusiveAmount>40.00</);
  assert.equal(xml.includes('TransactionsReport'), true);
  assert.equal(xml.includes('PaymentsReport'), false);
  assert.match(reportXml(factsOf(consumerSales(), { typeCode: 'RE' })), /<TypeCode>RE<\/TypeCode>/);
  assert.equal(flow10DateTime(new Date('2026-01-15T23:30:05Z')), '20260116003005');

  const unitary = reportXml(factsOf(internationalSales()));
  assert.match(unitary, /<TypeCode>381<\/TypeCode><CurrencyCode>EUR<\/CurrencyCode>/);
  // A credit note's amounts are positive under its type code, and it names the invoice it corrects.
  assert.match(
    unitary,
    /<ReferencedDocument><ID>F-2026-0101<\/ID><IssueDate>20260903<\/IssueDate><\/ReferencedDocument>/,
  );
  assert.match(
    unitary,
    /<TaxExclusiveAmount>200.00<\/TaxExclusiveAmount><TaxAmount CurrencyCode="EUR">0.00<\/TaxAmount>/,
  );
  assert.match(
    unitary,
    /<BusinessProcess><ID>B1<\/ID><TypeID>urn.cpro.gouv.fr:1p0:ereporting<\/TypeID><\/BusinessProcess>/,
  );
  assert.match(unitary, /<BusinessProcess><ID>S1<\/ID>/);
  assert.match(
    unitary,
    /<Seller><CompanyId schemeId="0002">100000009<\/CompanyId><TaxRegistrationId qualifyingId="VAT">FR88100000009<\/TaxRegistrationId>/,
  );
  assert.match(unitary, /<Buyer><CompanyId schemeId="0223">DE136695976<\/CompanyId>/);
  assert.match(unitary, /<Buyer><CompanyId schemeId="0227">GB980780684<\/CompanyId>/);
  assert.match(
    unitary,
    /<TaxCategory><Code>O<\/Code><Percent>0<\/Percent><TaxExemptionReason>[^<]+<\/TaxExemptionReason><TaxExemptionReasonCode>VATEX-EU-O</,
  );
  assert.equal(frenchVatNumber('100000009'), 'FR88100000009');
  assert.ok(checkVatNumber(frenchVatNumber('100000009')).ok);
  assert.equal(frenchVatNumber('303265045'), 'FR40303265045');

  const payments = reportXml(factsOf(unitaryPayments()));
  assert.match(
    payments,
    /<Invoice><InvoiceID>F-2026-0002<\/InvoiceID><IssueDate>20260901<\/IssueDate><Payment><Date>20260904<\/Date><SubTotals><TaxPercent>20.00<\/TaxPercent><CurrencyCode>EUR<\/CurrencyCode><Amount>[0-9.]+<\/Amount><\/SubTotals><SubTotals><TaxPercent>5.50<\/TaxPercent>/,
  );
  assert.match(payments, /<Amount>-24.00<\/Amount>/);
  const days = reportXml(factsOf(consumerPayments()));
  assert.match(
    days,
    /<Transactions><Payment><Date>20260904<\/Date><SubTotals><TaxPercent>20.00<\/TaxPercent><CurrencyCode>EUR<\/CurrencyCode><Amount>180.00<\/Amount>/,
  );
});

async function rulesBroken(xml: string): Promise<string[]> {
  return rulesOf((await checkReport(xml, dataDir)).problems);
}

test('a broken file is reported with the rule it breaks', async () => {
  const sales = reportXml(factsOf(consumerSales()));
  assert.deepEqual(await rulesBroken(sales.replace('<CategoryCode>TLB1', '<CategoryCode>TLB9')), ['G1.68']);
  assert.deepEqual(await rulesBroken(reportXml(factsOf(consumerSales(), { siren: '' }))), ['G6.26']);
  assert.deepEqual(await rulesBroken(reportXml(factsOf(consumerSales(), { siren: '10000000' }))), ['G6.26']);
  assert.deepEqual(await rulesBroken(sales.replace('<TaxTotal>59.60</TaxTotal>', '<TaxTotal>59.605</TaxTotal>')), [
    'G1.14',
  ]);
  // A decimal comma is no decimal at all: the XSD says so, and G1.14.
  assert.deepEqual(await rulesBroken(sales.replace('<TaxTotal>59.60</TaxTotal>', '<TaxTotal>59,60</TaxTotal>')), [
    'G1.14',
    'XSD',
  ]);
  assert.match(reportProblems(sales.replace('<TaxTotal>59.60</TaxTotal>', '<TaxTotal>59,60</TaxTotal>'))[0]!, /^XSD: /);
  assert.deepEqual(await rulesBroken(sales.replace('<TypeCode>IN<', '<TypeCode>CO<')), ['G8.01']);
  assert.deepEqual(await rulesBroken(sales.replace('<TaxPercent>20.00<', '<TaxPercent>21.00<')), ['G1.24']);

  const unitary = reportXml(factsOf(internationalSales()));
  // The total of an invoice is the sum of its VAT breakdown.
  assert.deepEqual(await rulesBroken(unitary.replace('<TaxExclusiveAmount>1200.00<', '<TaxExclusiveAmount>1210.00<')), [
    'G1.53',
  ]);
  assert.deepEqual(await rulesBroken(reportXml(factsOf(internationalSales(), { siren: '1234' }))), ['G2.19', 'G6.26']);
  assert.deepEqual(await rulesBroken(reportXml(factsOf(internationalSales(), { currency: 'USD' }))), ['G6.23']);
  // A credit note that does not name the invoice it corrects; a buyer without identifier.
  const noReference = internationalSales()
    .lines()
    .map((line) =>
      line.kind === 'transaction'
        ? { ...line, precedingInvoice: null, buyerVatNumber: line.typeCode === '381' ? null : line.buyerVatNumber }
        : line,
    );
  assert.deepEqual(await rulesBroken(reportXml(factsOf(internationalSales(), { lines: noReference }))), [
    'G1.32',
    'G6.28',
  ]);
  // A refund's negative amount is set aside; too many decimals are not.
  const payments = reportXml(factsOf(consumerPayments()));
  assert.deepEqual(await rulesBroken(payments.replace('<Amount>180.00<', '<Amount>180.0000001<')), ['G1.16']);
  assert.deepEqual(await rulesBroken(payments.replace('<Amount>-12.00<', '<Amount>-12.0000001<')), ['G1.16']);
  assert.deepEqual(await rulesBroken('<oops'), ['XML']);
});

test('the rules set aside are exactly the listed ones, and a clean deposit breaks each of them', async () => {
  // Adding or removing a rule here is a decision (README, e-reporting): this list says it twice.
  assert.deepEqual(
    ppfExceptedRules.map((entry) => [entry.rule, entry.scope]),
    [
      ['G6.22', 'platform_envelope'],
      ['G7.51', 'platform_envelope'],
      ['G1.16', 'negative_payment_amount'],
    ],
  );
  for (const entry of ppfExceptedRules) assert.ok(entry.reason.length > 40, entry.rule);
  // Each one is a rule of the PPF schematron carried.
  const xslt = readFileSync(
    new URL('../../src/ereporting/standards/flux10/PPF_Flux10_v1_0.xslt', import.meta.url),
    'utf8',
  );
  for (const entry of ppfExceptedRules) assert.ok(xslt.includes(`<svrl:text>[${entry.rule}]`), entry.rule);
  // A file the platform's sender would make pass fails none of the envelope rules: they are its only.
  const xml = reportXml(factsOf(consumerPayments()));
  const check = await checkReport(xml, dataDir);
  assert.deepEqual(
    check.excepted.map((failure) => failure.rule),
    ['G6.22', 'G6.22', 'G7.51', 'G1.16'],
  );
  const forwarded = xml.replace(
    /<Sender><Id schemeId="0002">100000009<\/Id>(<Name>[^<]*<\/Name>)<RoleCode>SE<\/RoleCode>/,
    '<Sender><Id schemeId="0238">0042</Id>$1<RoleCode>WK</RoleCode>',
  );
  assert.notEqual(forwarded, xml);
  assert.deepEqual(
    (await checkReport(forwarded, dataDir)).excepted.map((failure) => failure.rule),
    ['G1.16'],
  );
});
