import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dueAtOf, paymentPeriodicity, periodOf } from '../../src/ereporting/periods.js';
import {
  paymentFlow,
  paymentParts,
  ReportBuilder,
  share,
  transactionFlow,
  transactionParts,
  type DocumentFacts,
} from '../../src/ereporting/flows.js';
import { decimal, reportProblems, reportXml } from '../../src/ereporting/report-xml.js';

test('periods follow the periodicity: decades, months, two months', () => {
  const cases: [string, 'three_per_month' | 'monthly' | 'bimonthly', string][] = [
    ['2026-09-01', 'three_per_month', '2026-09-01/2026-09-10'],
    ['2026-09-10', 'three_per_month', '2026-09-01/2026-09-10'],
    ['2026-09-11', 'three_per_month', '2026-09-11/2026-09-20'],
    ['2026-09-20', 'three_per_month', '2026-09-11/2026-09-20'],
    ['2026-09-21', 'three_per_month', '2026-09-21/2026-09-30'],
    ['2026-10-31', 'three_per_month', '2026-10-21/2026-10-31'],
    ['2028-02-29', 'three_per_month', '2028-02-21/2028-02-29'],
    ['2027-02-25', 'three_per_month', '2027-02-21/2027-02-28'],
    ['2026-09-15', 'monthly', '2026-09-01/2026-09-30'],
    ['2026-12-31', 'monthly', '2026-12-01/2026-12-31'],
    ['2026-01-15', 'bimonthly', '2026-01-01/2026-02-28'],
    ['2026-02-28', 'bimonthly', '2026-01-01/2026-02-28'],
    ['2026-10-02', 'bimonthly', '2026-09-01/2026-10-31'],
    ['2026-11-30', 'bimonthly', '2026-11-01/2026-12-31'],
    ['2026-12-01', 'bimonthly', '2026-11-01/2026-12-31'],
  ];
  for (const [date, periodicity, key] of cases)
    assert.equal(periodOf(date, periodicity).key, key, `${date} ${periodicity}`);
  assert.equal(dueAtOf(periodOf('2026-09-25', 'three_per_month')).toISOString(), '2026-10-01T00:00:00.000Z');
  assert.equal(paymentPeriodicity('three_per_month'), 'monthly');
  assert.equal(paymentPeriodicity('bimonthly'), 'bimonthly');
});

const axes = (einvoicing: string, transaction: [string, string], payment: string) => ({
  einvoicing: { state: einvoicing, reason: einvoicing === 'due' ? 'domestic_b2b' : 'buyer_not_taxable_person' },
  ereportingTransaction: { state: transaction[0], reason: transaction[1] },
  ereportingPayment: { state: payment, reason: payment === 'due' ? 'services_vat_on_collection' : 'vat_on_debits' },
});

test('which operations go to which flow', () => {
  const cases: [ReturnType<typeof axes> | null, string | null, string | null][] = [
    [axes('not_applicable', ['due', 'b2c'], 'not_applicable'), '10.3', null],
    [axes('not_applicable', ['due', 'b2c'], 'due'), '10.3', '10.4'],
    [axes('not_applicable', ['due', 'international_b2b'], 'not_applicable'), '10.1', null],
    [axes('not_applicable', ['due', 'international_b2b'], 'due'), '10.1', '10.2'],
    // Domestic B2B: e-invoicing; its payment is the 212 status, not flow 10.
    [axes('due', ['not_applicable', 'einvoicing'], 'due'), null, null],
    [axes('not_applicable', ['not_applicable', 'exempt_operation'], 'not_applicable'), null, null],
    [null, null, null],
  ];
  for (const [obligations, transaction, payment] of cases) {
    assert.equal(transactionFlow(obligations), transaction, JSON.stringify(obligations));
    assert.equal(paymentFlow(obligations), payment, JSON.stringify(obligations));
  }
});

test('shares are cent exact and follow the weights', () => {
  assert.deepEqual(share(100, [1, 1, 1]), [34, 33, 33]);
  assert.deepEqual(share(-100, [1, 1, 1]), [-34, -33, -33]);
  assert.deepEqual(share(1000, [3, 1]), [750, 250]);
  assert.deepEqual(share(5, [0, 0]), [5, 0]);
  assert.equal(
    share(99_999, [7, 13, 29]).reduce((a, b) => a + b, 0),
    99_999,
  );
});

const sale = (over: Partial<DocumentFacts> = {}): DocumentFacts => ({
  kind: 'invoice',
  id: 'inv_1',
  number: 'F-1',
  issueDate: '2026-09-03',
  currency: 'EUR',
  buyerCountry: 'FR',
  buyerVatNumber: null,
  lines: [
    { nature: 'goods', vatCode: 'S', vatRate: '20', netAmount: 10000 },
    { nature: 'services', vatCode: 'S', vatRate: '20', netAmount: 5000 },
    { nature: 'goods', vatCode: 'S', vatRate: '5.5', netAmount: 2000 },
  ],
  vatBreakdown: [
    { vatCode: 'S', vatRate: '20', taxableAmount: 15000, taxAmount: 3000 },
    { vatCode: 'S', vatRate: '5.5', taxableAmount: 2000, taxAmount: 110 },
  ],
  obligations: axes('not_applicable', ['due', 'b2c'], 'due'),
  ...over,
});

test('a document splits by category and rate; a credit note counts negatively', () => {
  assert.deepEqual(transactionParts(sale()), [
    { category: 'TLB1', vatCode: 'S', vatRate: '20', taxableAmount: 10000, taxAmount: 2000 },
    { category: 'TPS1', vatCode: 'S', vatRate: '20', taxableAmount: 5000, taxAmount: 1000 },
    { category: 'TLB1', vatCode: 'S', vatRate: '5.5', taxableAmount: 2000, taxAmount: 110 },
  ]);
  const credit = transactionParts(sale({ kind: 'credit_note' }));
  assert.deepEqual(
    credit.map((part) => [part.taxableAmount, part.taxAmount]),
    [
      [-10000, -2000],
      [-5000, -1000],
      [-2000, -110],
    ],
  );
  // Not taxed in France (exempt, reverse charge): TNT1 whatever the nature.
  const exempt = transactionParts(
    sale({
      lines: [{ nature: 'services', vatCode: 'E', vatRate: '0', netAmount: 700 }],
      vatBreakdown: [{ vatCode: 'E', vatRate: '0', taxableAmount: 700, taxAmount: 0 }],
    }),
  );
  assert.deepEqual(exempt, [{ category: 'TNT1', vatCode: 'E', vatRate: '0', taxableAmount: 700, taxAmount: 0 }]);
});

test('payments split over the rates of the services taxed in France; refunds count negatively', () => {
  const facts = {
    kind: 'payment' as const,
    id: 'pay_1',
    date: '2026-09-04',
    amount: 12000,
    currency: 'EUR',
    invoiceNumber: 'F-1',
    vatBreakdown: [
      { vatCode: 'S', vatRate: '20', taxableAmount: 10000, taxAmount: 2000 },
      { vatCode: 'E', vatRate: '0', taxableAmount: 500, taxAmount: 0 },
    ],
    obligations: null,
  };
  assert.deepEqual(paymentParts(facts), [{ vatRate: '20', amount: 12000 }]);
  assert.deepEqual(paymentParts({ ...facts, kind: 'refund', amount: 600 }), [{ vatRate: '20', amount: -600 }]);
});

test('B2C sales aggregate per day, category and rate, counting the transactions', () => {
  const builder = new ReportBuilder('10.3');
  builder.addDocument(sale());
  builder.addDocument(sale({ id: 'inv_2', number: 'F-2' }));
  builder.addDocument(sale({ id: 'inv_3', number: 'F-3', issueDate: '2026-09-04' }));
  builder.addDocument(sale({ id: 'av_1', number: 'A-1', kind: 'credit_note', issueDate: '2026-09-04' }));
  const lines = builder.lines();
  assert.equal(lines.length, 6);
  assert.deepEqual(lines[0], {
    kind: 'aggregated_transaction',
    date: '2026-09-03',
    category: 'TLB1',
    vatRate: '20',
    taxableAmount: 20000,
    taxAmount: 4000,
    count: 2,
  });
  const fourthGoods20 = lines.find(
    (line) =>
      line.kind === 'aggregated_transaction' &&
      line.date === '2026-09-04' &&
      line.category === 'TLB1' &&
      line.vatRate === '20',
  );
  assert.deepEqual(
    fourthGoods20?.kind === 'aggregated_transaction' && [fourthGoods20.taxableAmount, fourthGoods20.count],
    [0, 2],
  );
  assert.equal(builder.operationCount, 4);
  assert.equal(builder.taxableAmount, 2 * 17000);
  assert.equal(builder.taxAmount, 2 * 3110);
});

test('the report passes the official flow 10 XSD; a broken one does not', () => {
  const builder = new ReportBuilder('10.3');
  builder.addDocument(sale());
  const facts = {
    id: 'rep_1',
    attempt: 1,
    flow: '10.3' as const,
    issuedAt: new Date('2026-10-01T00:00:00Z'),
    siren: '100000009',
    siret: '10000000900017',
    periodStart: '2026-09-01',
    periodEnd: '2026-09-30',
    currency: 'EUR',
    lines: builder.lines(),
    operationCount: builder.operationCount,
    taxableAmount: builder.taxableAmount,
    taxAmount: builder.taxAmount,
  };
  const xml = reportXml(facts);
  assert.deepEqual(reportProblems(xml), []);
  assert.match(xml, /<TaxableAmount>100\.00<\/TaxableAmount>/);
  assert.doesNotMatch(xml, /urn:facteur|<rep:/);
  // The XSD types structure and decimals; codes and identifiers are the schematron's (flow10-official.test.ts).
  assert.match(reportProblems(xml.replace('<TaxableAmount>100.00<', '<TaxableAmount>100,00<'))[0]!, /^XSD: /);
  assert.match(reportProblems(xml.replace(/<IssueDateTime>.*<\/IssueDateTime>/, ''))[0]!, /^XSD: .*TypeCode/);
  assert.match(reportProblems('<oops')[0]!, /^XML: /);
  const unitary = new ReportBuilder('10.1');
  unitary.addDocument(sale({ buyerCountry: 'DE', buyerVatNumber: 'DE123456789' }));
  assert.deepEqual(reportProblems(reportXml({ ...facts, flow: '10.1', lines: unitary.lines() })), []);
  const payments = new ReportBuilder('10.4');
  payments.addPayment({
    kind: 'payment',
    id: 'pay_1',
    date: '2026-09-04',
    amount: 12000,
    currency: 'EUR',
    invoiceNumber: 'F-1',
    vatBreakdown: [{ vatCode: 'S', vatRate: '20', taxableAmount: 10000, taxAmount: 2000 }],
    obligations: null,
  });
  assert.deepEqual(reportProblems(reportXml({ ...facts, flow: '10.4', lines: payments.lines() })), []);
  assert.equal(decimal(-1234), '-12.34');
  assert.equal(decimal(5), '0.05');
});
