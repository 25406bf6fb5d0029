import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DocumentModel } from '../../src/einvoice/document-model.js';
import { checkDraftConformance } from '../../src/einvoice/draft-conformance.js';
import type { ValidationReport } from '../../src/einvoice/official-validator.js';
import { readUbl } from '../../src/einvoice/ubl-reader.js';
import { writeUbl } from '../../src/einvoice/ubl-writer.js';
import { ublValidation, ValidationPool } from '../../src/einvoice/validation-pool.js';
import { corpus } from './corpus-arbitrary.js';
import { buyers, engineDocument, sampleInvoice, sellers, testCacheDir, type LineSpec } from './support.js';

/**
 * The held-out corpus of corpus.test.ts (the same 200 documents, same seed), issued as UBL 2.1:
 * each passes the OASIS UBL 2.1 XSD, the EN 16931 UBL schematron and both BR-FR UBL variants with
 * no failed assert, warnings included; documents broken on purpose are caught by rule.
 */

const size = 200;
let pool: ValidationPool;
let documents: { model: DocumentModel }[];
const reports = new Map<DocumentModel, ValidationReport>();

before(async () => {
  pool = await ValidationPool.open({ cacheDir: testCacheDir, size: 2, ...ublValidation });
  ({ documents } = corpus(size, 20261124, (model) => checkDraftConformance(model).length === 0));
});
after(async () => {
  await pool.close();
});

const describe = (model: DocumentModel) =>
  `${model.number} (${model.typeCode}, ${model.processing}, ${model.vatBreakdown.map((group) => group.vatCode).join(' + ')}, ${model.lines.length} lines)`;

test(`${size} generated documents written as UBL pass the UBL XSD and both UBL schematrons`, async (t) => {
  const started = performance.now();
  await Promise.all(
    documents.map(async ({ model }) => {
      reports.set(model, await pool.validate(writeUbl(model)));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const failing = documents.filter(({ model }) => !reports.get(model)!.valid);
  assert.deepEqual(
    failing.map(
      ({ model }) =>
        `${describe(model)}: ${reports
          .get(model)!
          .failures.map((failure) => `${failure.source} ${failure.rule} ${failure.text}`)
          .join('; ')}`,
    ),
    [],
  );
  const validators = reports.get(documents[0]!.model)!.validators.join(' | ');
  for (const name of ['XSD OASIS UBL 2.1', 'EN16931-UBL-validation', 'BR-FR-Flux2-Schematron-UBL ('])
    assert.ok(validators.includes(name), `${name} ran: ${validators}`);
  assert.ok(documents.some(({ model }) => model.typeCode === '381'));
  const categories = new Set(documents.flatMap(({ model }) => model.vatBreakdown.map((group) => group.vatCode)));
  for (const category of ['S', 'E', 'AE', 'K', 'G', 'O'])
    assert.ok(categories.has(category), `category ${category} in the corpus`);
  t.diagnostic(
    `${documents.length} UBL documents validated in ${seconds.toFixed(1)} s (${(documents.length / seconds).toFixed(1)} per second, pool of ${pool.size})`,
  );
});

test('a credit note is a UBL CreditNote naming its invoice; an invoice an Invoice', () => {
  const invoice = writeUbl(sampleInvoice());
  assert.match(invoice, /^<\?xml[^>]*\?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/);
  const credit = sampleInvoice({
    typeCode: '381',
    dueDate: null,
    precedingInvoice: { number: 'F2026-000001', issueDate: '2026-11-24' },
  });
  const xml = writeUbl(credit);
  assert.match(xml, /<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
  assert.match(xml, /<cbc:CreditNoteTypeCode>381<\/cbc:CreditNoteTypeCode>/);
  assert.match(xml, /<cac:CreditNoteLine>/);
  assert.doesNotMatch(xml, /PayeeFinancialAccount/, 'no payment instructions on a credit note');
  const read = readUbl(xml);
  assert.deepEqual(read.precedingInvoice, { number: 'F2026-000001', issueDate: '2026-11-24' });
});

test('what the UBL says is what the model holds (the UBL reader reads it back)', () => {
  const model = sampleInvoice();
  const read = readUbl(writeUbl(model));
  assert.equal(read.number, model.number);
  assert.equal(read.billingFrame, model.billingFrame);
  assert.equal(read.processing, model.processing);
  assert.equal(read.vatOnDebits, model.vatOnDebits, 'BT-8 written in UNTDID 2005 (3) and read back');
  assert.deepEqual(
    [read.totals.net, read.totals.vat, read.totals.gross, read.totals.due],
    [model.totals.net, model.totals.vat, model.totals.gross, model.totals.due],
  );
  assert.deepEqual(
    read.lines.map((line) => [line.quantity, line.unitPrice, line.netAmount, line.vatCode]),
    model.lines.map((line) => [line.quantity, line.unitPrice, line.netAmount, line.vatCode]),
  );
  assert.equal(read.seller.siret, model.seller.siret);
  assert.equal(read.buyer.siren, model.buyer.siren);
  assert.equal(read.seller.iban, model.seller.iban);
});

const goods = (description: string): LineSpec => ({
  description,
  quantity: '2',
  unitPrice: '49.90',
  unit: 'C62',
  nature: 'goods',
});
const services = (description: string): LineSpec => ({
  description,
  quantity: '1.5',
  unitPrice: '600',
  unit: 'HUR',
  nature: 'services',
});

test('allowances and charges of the lines and of the document are written and pass the UBL validators', async () => {
  const base = { kind: 'invoice' as const, number: 'F2026-000042', issueDate: '2026-10-15' };
  const lineLevel = engineDocument({
    ...base,
    seller: sellers.paris,
    buyer: buyers.domestic,
    lines: [
      {
        ...goods('Chaise'),
        allowances: [
          { percentage: '10', reasonCode: '95', reason: 'Remise fidélité' },
          { amount: 150, reason: 'Geste commercial' },
        ],
        charges: [{ amount: 1200, reasonCode: 'ABL', reason: 'Emballage' }],
      },
      { ...services('Pose'), rate: '10', charges: [{ percentage: '2.5', reasonCode: 'FC' }] },
    ],
  });
  const documentLevel = engineDocument({
    ...base,
    seller: sellers.paris,
    buyer: buyers.domestic,
    lines: [
      { ...goods('Chaise'), allowances: [{ percentage: '5', reasonCode: '95' }] },
      { ...services('Pose'), rate: '10' },
      { ...goods('Livre'), rate: '5.5' },
    ],
    allowances: [
      { amount: 3333, reason: 'Remise commerciale', reasonCode: '95' },
      { amount: 100, reason: 'Geste' },
    ],
    charges: [{ amount: 1999, reason: 'Port', reasonCode: 'FC' }],
  });
  for (const model of [lineLevel, documentLevel]) {
    const xml = writeUbl(model);
    assert.match(xml, /<cac:AllowanceCharge><cbc:ChargeIndicator>true<\/cbc:ChargeIndicator>/);
    assert.match(xml, /<cac:AllowanceCharge><cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>/);
    const report = await pool.validate(xml);
    assert.deepEqual(
      report.failures.map((failure) => `${failure.rule} ${failure.text}`),
      [],
    );
    const read = readUbl(xml);
    assert.equal(read.totals.taxBasis, model.totals.net);
    assert.equal(read.totals.gross, model.totals.gross);
  }
  assert.match(writeUbl(documentLevel), /<cbc:AllowanceTotalAmount currencyID="EUR">/);
});

const breakages: { name: string; rule: string; breakIt: (model: DocumentModel) => void }[] = [
  { name: 'a wrong total', rule: 'BR-CO-15', breakIt: (m) => void (m.totals.gross += 1) },
  { name: 'an amount due that does not add up', rule: 'BR-CO-16', breakIt: (m) => void (m.totals.due += 100) },
  {
    name: 'a line net that the group does not sum',
    rule: 'BR-CO-10',
    breakIt: (m) => void (m.lines[0]!.netAmount += 1),
  },
  { name: 'a seller without SIREN digits', rule: 'BR-FR-10_BT-30', breakIt: (m) => void (m.seller.siren = 'SIREN') },
  { name: 'a bad BT-23', rule: 'BR-FR-08_BT-23', breakIt: (m) => void (m.billingFrame = 'X1' as 'B1') },
  {
    name: 'no PMT note',
    rule: 'BR-FR-05_BT-22-1',
    breakIt: (m) => void (m.notes = m.notes.filter((n) => n.subject !== 'PMT')),
  },
  {
    name: 'a buyer with neither electronic address nor e-mail',
    rule: 'BR-FR-12_BT-49',
    breakIt: (m) => void ((m.buyer.electronicAddress = null), (m.buyer.email = null)),
  },
];

test('documents broken on purpose: the UBL validators name the rule', async () => {
  const results = await Promise.all(
    breakages.map(async (breakage) => {
      const model = sampleInvoice();
      breakage.breakIt(model);
      return { breakage, report: await pool.validate(writeUbl(model)) };
    }),
  );
  for (const { breakage, report } of results) {
    assert.equal(report.valid, false, breakage.name);
    assert.ok(report.rules.includes(breakage.rule), `${breakage.name}: ${breakage.rule} in ${report.rules.join(', ')}`);
  }
});

test('the UBL XSD judges the root: an element out of order fails it, a foreign root too', async () => {
  const xml = writeUbl(sampleInvoice()).replace(
    /(<cbc:InvoiceTypeCode>380<\/cbc:InvoiceTypeCode>)(<cbc:Note>)/,
    '$2#AAI#misplaced</cbc:Note>$1$2',
  );
  const misplaced = await pool.validate(xml);
  assert.ok(misplaced.failures.some((failure) => failure.source === 'xsd' && failure.rule === 'XSD'));
  const foreign = await pool.validate('<Invoice xmlns="urn:example:not-ubl"/>');
  assert.ok(foreign.failures.some((failure) => failure.rule === 'XSD' && /none of the XSDs/.test(failure.text)));
});
