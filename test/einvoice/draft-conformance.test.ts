import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDraftConformance } from '../../src/einvoice/draft-conformance.js';
import type { DocumentModel } from '../../src/einvoice/document-model.js';
import { buyers, engineDocument, sampleInvoice, sellers } from './support.js';

/**
 * The service's own checks, one row per rule a draft can break: each names the rule as the official
 * validators report it. The corpus test proves they never let through what the official ones refuse.
 */

const rows: [string, (model: DocumentModel) => void, string][] = [
  ['a number longer than 35 characters', (m) => void (m.number = 'F'.repeat(36)), 'BR-FR-01_BT-1'],
  ['a number with a space', (m) => void (m.number = 'F 2026 1'), 'BR-FR-02_BT-1'],
  ['no number', (m) => void (m.number = ''), 'BR-02'],
  ['an issue date in 1999', (m) => void (m.issueDate = '1999-12-31'), 'BR-FR-03_BT-2'],
  ['an impossible due date', (m) => void (m.dueDate = '2026-02-30'), 'BR-FR-03_BT-9'],
  ['a due date before the issue date', (m) => void (m.dueDate = '2026-11-01'), 'BR-FR-CO-07_BT-9'],
  [
    'a frame outside the BR-FR list',
    (m) => void (m.billingFrame = 'X1' as DocumentModel['billingFrame']),
    'BR-FR-08_BT-23',
  ],
  ['an unknown processing code', (m) => void (m.processing = 'B2G' as DocumentModel['processing']), 'BR-FR-20_BT-21'],
  ['no PMT note', (m) => void (m.notes = m.notes.filter((n) => n.subject !== 'PMT')), 'BR-FR-05_BT-22_PMT'],
  ['no PMD note', (m) => void (m.notes = m.notes.filter((n) => n.subject !== 'PMD')), 'BR-FR-05_BT-22_PMD'],
  ['no AAB note', (m) => void (m.notes = m.notes.filter((n) => n.subject !== 'AAB')), 'BR-FR-05_BT-22_AAB'],
  ['two AAB notes', (m) => void m.notes.push({ subject: 'AAB', text: 'Escompte 2 %' }), 'BR-FR-06_BT-21_AAB'],
  ['a note without text', (m) => void m.notes.push({ subject: 'AAI', text: '  ' }), 'PEPPOL-EN16931-R008'],
  ['an unknown note subject', (m) => void m.notes.push({ subject: 'QQQ' as 'AAI', text: 'x' }), 'FX-SCH-A-000162'],
  ['a seller SIREN of 8 digits', (m) => void (m.seller.siren = '73282932'), 'BR-FR-10_BT-30'],
  ['a seller SIRET of another SIREN', (m) => void (m.seller.siret = '55212022200013'), 'BR-FR-09_BT-29'],
  [
    'no seller electronic address nor e-mail',
    (m) => void ((m.seller.electronicAddress = null), (m.seller.contact = null)),
    'BR-FR-13_BT-34',
  ],
  ['a seller address with a space', (m) => void (m.seller.electronicAddress = '732829320 FACT'), 'BR-FR-23_BT-34'],
  ['a seller country that is no country', (m) => void (m.seller.address.country = 'QQ'), 'FX-SCH-A-000036'],
  ['a seller without name', (m) => void (m.seller.legalName = ' '), 'BR-06'],
  ['a B2B buyer without SIREN', (m) => void (m.buyer.siren = null), 'BR-FR-11_BT-47'],
  ['a buyer SIREN of 10 digits', (m) => void (m.buyer.siren = '5521202221'), 'BR-FR-32-LEGALID'],
  ['a buyer SIRET without its SIREN', (m) => void (m.buyer.siret = '73282932000074'), 'BR-FR-09_BT-46'],
  [
    'a B2B electronic address of another SIREN',
    (m) => void (m.buyer.electronicAddress = '732829320'),
    'BR-FR-21_BT-49',
  ],
  [
    'a buyer with no address at all',
    (m) => void ((m.buyer.electronicAddress = null), (m.buyer.email = null)),
    'BR-FR-12_BT-49',
  ],
  [
    'an electronic address of 126 characters',
    (m) => void (m.buyer.electronicAddress = `552120222${'x'.repeat(117)}`),
    'BR-FR-25_BT-49',
  ],
  ['a buyer without postal address', (m) => void (m.buyer.address = null), 'BR-10'],
  ['a buyer without name', (m) => void (m.buyer.name = ''), 'BR-07'],
  ['a VAT number without country prefix', (m) => void (m.buyer.vatNumber = '12552120222'), 'BR-CO-09'],
  ['no line', (m) => void ((m.lines = []), (m.totals.net = 0)), 'BR-16'],
  ['a line without name', (m) => void (m.lines[0]!.description = ''), 'BR-25'],
  ['a quantity with 5 decimals', (m) => void (m.lines[0]!.quantity = '2.50001'), 'BR-FR-DEC-02_BT-129'],
  ['a unit price with 7 decimals', (m) => void (m.lines[0]!.unitPrice = '800.0000001'), 'BR-FR-DEC-03_BT-146'],
  ['a negative unit price', (m) => void (m.lines[0]!.unitPrice = '-800'), 'BR-FR-DEC-03_BT-146'],
  ['an unknown unit', (m) => void (m.lines[0]!.unitCode = 'QQQ'), 'FX-SCH-A-000275'],
  ['a category France does not use', (m) => void (m.lines[0]!.vatCode = 'L'), 'BR-FR-15_BT-95_BT-151'],
  [
    'a rate BR-FR-16 does not know',
    (m) => void ((m.lines[0]!.vatRate = '19.00'), (m.vatBreakdown[0]!.vatRate = '19.00')),
    'BR-FR-16_BT-152',
  ],
  ['a line whose group is missing', (m) => void (m.lines[0]!.vatRate = '10.00'), 'BR-S-01'],
  ['a group base that is not the sum of its lines', (m) => void (m.vatBreakdown[0]!.taxableAmount += 1), 'BR-S-08'],
  ['a group VAT that is not base x rate', (m) => void (m.vatBreakdown[0]!.taxAmount += 1), 'BR-CO-17'],
  ['a net total that is not the sum of the lines', (m) => void (m.totals.net += 1), 'BR-CO-10'],
  ['a VAT total that is not the sum of the groups', (m) => void (m.totals.vat += 1), 'BR-CO-14'],
  ['a gross total that is not net + VAT', (m) => void (m.totals.gross += 1), 'BR-CO-15'],
  ['an amount due that is not gross - paid', (m) => void (m.totals.due -= 1), 'BR-CO-16'],
  ['an amount due without due date nor terms', (m) => void ((m.dueDate = null), (m.paymentTerms = null)), 'BR-CO-25'],
  ['no VAT group', (m) => void (m.vatBreakdown = []), 'BR-CO-18'],
  ['a credit note without its invoice', (m) => void (m.typeCode = '381'), 'BR-FR-CO-05_BT-3'],
  [
    'a preceding invoice number with a space',
    (m) => void (m.precedingInvoice = { number: 'F 1', issueDate: '2026-01-01' }),
    'BR-FR-02_BT-25',
  ],
  [
    'an exemption without its reason',
    (m) => {
      m.lines.forEach((line) => ((line.vatCode = 'E'), (line.vatRate = '0.00')));
      m.vatBreakdown = [
        {
          vatCode: 'E',
          vatRate: '0.00',
          vatexCode: null,
          exemptionReason: null,
          taxableAmount: m.totals.net,
          taxAmount: 0,
        },
      ];
      m.totals = { net: m.totals.net, vat: 0, gross: m.totals.net, paid: 0, due: m.totals.net };
    },
    'BR-E-10',
  ],
  [
    'an unknown VATEX code',
    (m) => {
      m.lines.forEach((line) => ((line.vatCode = 'E'), (line.vatRate = '0.00')));
      m.vatBreakdown = [
        {
          vatCode: 'E',
          vatRate: '0.00',
          vatexCode: 'VATEX-FR-NOPE',
          exemptionReason: 'x',
          taxableAmount: m.totals.net,
          taxAmount: 0,
        },
      ];
      m.totals = { net: m.totals.net, vat: 0, gross: m.totals.net, paid: 0, due: m.totals.net };
    },
    'FX-SCH-A-000181',
  ],
  ['an already-paid frame with an amount due', (m) => void (m.billingFrame = 'M2'), 'BR-FR-CO-09_BT-23-2'],
];

for (const [name, breakIt, rule] of rows) {
  test(`${rule}: ${name}`, () => {
    const model = sampleInvoice();
    assert.deepEqual(checkDraftConformance(model), []);
    breakIt(model);
    const rules = checkDraftConformance(model).map((issue) => issue.rule);
    assert.ok(rules.includes(rule), `expected ${rule}, got ${rules.join(', ') || 'nothing'}`);
  });
}

test('documents of every VAT situation made by the tax engine pass the own checks', () => {
  const line = { description: 'x', quantity: '1', unitPrice: '100', unit: 'C62' } as const;
  const base = { kind: 'invoice' as const, number: 'F2026-000001', issueDate: '2026-10-15' };
  for (const [seller, buyer, nature] of [
    [sellers.paris, buyers.domestic, 'goods'],
    [sellers.franchise, buyers.domestic, 'services'],
    [sellers.paris, buyers.germany, 'services'],
    [sellers.paris, buyers.germany, 'goods'],
    [sellers.paris, buyers.swiss, 'goods'],
    [sellers.paris, buyers.swiss, 'services'],
    [sellers.guadeloupe, buyers.consumer, 'goods'],
  ] as const) {
    const model = engineDocument({ ...base, seller, buyer, lines: [{ ...line, nature }] });
    assert.deepEqual(checkDraftConformance(model), [], `${buyer.name} ${nature}`);
  }
});

test('blank optional fields are no issue: the writer leaves them out', () => {
  const model = sampleInvoice();
  model.buyer.address = { ...model.buyer.address!, line2: '  ' };
  model.seller.contact = { name: ' ', email: 'compta@dupont.example', phone: '' };
  model.buyer.routingCode = ' ';
  assert.deepEqual(checkDraftConformance(model), []);
});

test('each issue names the field of the model', () => {
  const model = sampleInvoice();
  model.lines[2]!.unitCode = 'QQQ';
  assert.deepEqual(checkDraftConformance(model), [
    {
      rule: 'FX-SCH-A-000275',
      field: 'lines[2].unitCode',
      message: '"QQQ" is not a UN/ECE Recommendation 20 or 21 unit code.',
    },
  ]);
});

test('the checks take microseconds', () => {
  const model = sampleInvoice();
  checkDraftConformance(model);
  const runs = 2000;
  const started = performance.now();
  for (let i = 0; i < runs; i++) checkDraftConformance(model);
  const micros = ((performance.now() - started) / runs) * 1000;
  assert.ok(micros < 1000, `${micros.toFixed(1)} µs per document`);
});
