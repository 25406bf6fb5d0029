import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fecAmount, fecBytes, fecDate, fecFileName, fecText } from '../../src/exports/fec-format.js';
import { bankEntry, defaultChart, purchaseEntry, salesEntry, type Supplier } from '../../src/exports/fec-entries.js';
import { fecOptionsOf } from '../../src/exports/fec-request.js';

test('FEC text: one line, no separator, ISO 8859-15 bytes', () => {
  assert.equal(fecText('Atelier Lumière SAS'), 'Atelier Lumière SAS');
  assert.deepEqual([...fecBytes(fecText('Lumière'))], [0x4c, 0x75, 0x6d, 0x69, 0xe8, 0x72, 0x65]);
  // The eight places where ISO 8859-15 differs from ISO 8859-1.
  assert.deepEqual(
    [...fecBytes(fecText('€ Š š Ž ž Œ œ Ÿ'))].filter((b) => b !== 0x20),
    [0xa4, 0xa6, 0xa8, 0xb4, 0xb8, 0xbc, 0xbd, 0xbe],
  );
  assert.equal(fecText('¤ ½'), '? ?', 'ISO 8859-1 characters that ISO 8859-15 replaced');
  assert.equal(fecText('Łódź'), '?ódz', 'ó is in the charset; ź loses its accent; Ł has none to lose');
  assert.equal(fecText('Café 🚀 ok'), 'Café ? ok');
  assert.equal(fecText('A|B\tC\r\nD'), 'A B C D', 'separators and line breaks become spaces');
  assert.equal(fecText('l’atelier – “neuf”'), 'l\'atelier - "neuf"');
  assert.equal(fecText(null), '');
});

test('FEC numbers, dates, file name', () => {
  assert.deepEqual(
    [fecAmount(0), fecAmount(5), fecAmount(123456), fecAmount(-1999)],
    ['0,00', '0,05', '1234,56', '-19,99'],
  );
  assert.throws(() => fecAmount(1.5));
  assert.equal(fecDate('2026-09-01'), '20260901');
  assert.equal(fecFileName('732829320', '2026-12-31'), '732829320FEC20261231.txt');
});

test('entries: an invoice, a credit note reversed, a payment; an entry that does not balance is refused', () => {
  const party = { customerId: 'cus_1', name: 'Client SAS', siren: null };
  const invoice = {
    kind: 'invoice' as const,
    number: 'F1',
    issueDate: '2026-03-01',
    validDate: '2026-03-01',
    party,
    total: 1111,
    netByNature: [
      { nature: 'services', amount: 500 },
      { nature: 'goods', amount: 500 },
    ],
    vatByRate: [
      { rate: '20.00', amount: 100 },
      { rate: '2.1', amount: 11 },
      { rate: null, amount: 0 },
    ],
  };
  const lines = salesEntry(invoice, defaultChart)!;
  assert.deepEqual(
    lines.map((l) => [l.account, l.accountLabel, l.auxiliaryAccount, l.debit, l.credit]),
    [
      ['411000', 'Clients', 'cus_1', 1111, 0],
      ['707000', 'Ventes de marchandises', '', 0, 500],
      ['706000', 'Prestations de services', '', 0, 500],
      ['445710', 'TVA collectée 20 %', '', 0, 100],
      ['445710', 'TVA collectée 2,1 %', '', 0, 11],
    ],
  );
  assert.equal(lines[0]!.label, 'Facture F1 Client SAS');
  const note = salesEntry({ ...invoice, kind: 'credit_note', number: 'A1' }, defaultChart)!;
  assert.deepEqual(
    note.map((l) => [l.debit, l.credit]),
    lines.map((l) => [l.credit, l.debit]),
  );
  assert.equal(salesEntry({ ...invoice, total: 0, netByNature: [], vatByRate: [] }, defaultChart), null);
  assert.throws(() => salesEntry({ ...invoice, total: 1110 }, defaultChart), /differ/);
  const payment = bankEntry(
    {
      kind: 'payment',
      pieceRef: 'VIR-1',
      documentNumber: 'F1',
      day: '2026-03-05',
      validDate: '2026-03-06',
      party,
      amount: 1211,
      method: 'check',
    },
    defaultChart,
  )!;
  assert.deepEqual(
    payment.map((l) => [l.account, l.debit, l.credit]),
    [
      ['512000', 1211, 0],
      ['411000', 0, 1211],
    ],
  );
  assert.equal(payment[0]!.label, 'Règlement F1 Client SAS (chèque)');
});

test('purchase entries: a received invoice, a credit note reversed, the supplier account by SIREN, SIRET or VAT number', () => {
  const supplier: Supplier = {
    name: 'Atelier Dupont & Fils',
    siren: '732829320',
    siret: '73282932000074',
    vatNumber: null,
  };
  const invoice = {
    kind: 'invoice' as const,
    number: 'FA-7',
    issueDate: '2026-03-01',
    validDate: '2026-03-04',
    supplier,
    total: 12311,
    net: 10200,
    vatByRate: [
      { rate: '20.00', amount: 2000 },
      { rate: '5.5', amount: 11 },
      { rate: '5.50', amount: 100 },
      { rate: null, amount: 0 },
    ],
  };
  const lines = purchaseEntry(invoice, defaultChart)!;
  assert.deepEqual(
    lines.map((l) => [l.account, l.accountLabel, l.auxiliaryAccount, l.auxiliaryLabel, l.debit, l.credit]),
    [
      ['401000', 'Fournisseurs', 'F732829320', 'Atelier Dupont & Fils', 0, 12311],
      ['607000', 'Achats', '', '', 10200, 0],
      ['445660', 'TVA déductible 20 %', '', '', 2000, 0],
      ['445660', 'TVA déductible 5,5 %', '', '', 111, 0],
    ],
    'the supplier credited with the total, purchases and VAT per rate debited',
  );
  assert.equal(lines[0]!.label, 'Facture FA-7 Atelier Dupont & Fils');
  assert.ok(
    lines.every((l) => l.entryDate === '2026-03-01' && l.pieceDate === '2026-03-01' && l.validDate === '2026-03-04'),
  );

  const note = purchaseEntry({ ...invoice, kind: 'credit_note', number: 'AV-1' }, defaultChart)!;
  assert.deepEqual(
    note.map((l) => [l.debit, l.credit]),
    lines.map((l) => [l.credit, l.debit]),
  );
  assert.equal(note[0]!.label, 'Avoir AV-1 Atelier Dupont & Fils');

  const auxiliary = (s: Partial<Supplier>) =>
    purchaseEntry({ ...invoice, supplier: { ...supplier, ...s } }, defaultChart)![0]!.auxiliaryAccount;
  assert.equal(auxiliary({ siren: null }), 'F732829320', 'the SIREN of the SIRET');
  assert.equal(auxiliary({ siren: null, siret: null, vatNumber: 'DE 123456789' }), 'FDE123456789');
  assert.equal(auxiliary({ siren: null, siret: null, vatNumber: null }), 'FDIVERS');

  const mapped = purchaseEntry(invoice, {
    ...defaultChart,
    suppliers: '401100',
    supplierDetail: 'collective',
    purchases: '606100',
    deductibleVatDefault: '445661',
    deductibleVatByRate: [{ rate: '5.5', account: '445662' }],
  })!;
  assert.deepEqual(
    mapped.map((l) => [l.account, l.auxiliaryAccount, l.debit, l.credit]),
    [
      ['401100', '', 0, 12311],
      ['606100', '', 10200, 0],
      ['445661', '', 2000, 0],
      ['445662', '', 111, 0],
    ],
  );
  assert.equal(purchaseEntry({ ...invoice, total: 0, net: 0, vatByRate: [] }, defaultChart), null);
  assert.throws(() => purchaseEntry({ ...invoice, total: 12312 }, defaultChart), /received invoice FA-7: .* differ/);
});

test('entries of deposits: the deposit an advance received (4191), taken back by the final invoice with the VAT it collected', () => {
  const party = { customerId: 'cus_1', name: 'Client SAS', siren: null };
  // A 30 % deposit: 447.00 + 89.40 VAT.
  const deposit = salesEntry(
    {
      kind: 'invoice',
      number: 'F1',
      issueDate: '2026-10-01',
      validDate: '2026-10-01',
      party,
      total: 53640,
      netByNature: [{ nature: 'goods', amount: 44700 }],
      vatByRate: [{ rate: '20.00', amount: 8940 }],
      deposit: true,
    },
    defaultChart,
  )!;
  assert.deepEqual(
    deposit.map((l) => [l.account, l.accountLabel, l.debit, l.credit]),
    [
      ['411000', 'Clients', 53640, 0],
      ['419100', 'Acomptes reçus', 0, 44700],
      ['445710', 'TVA collectée 20 %', 0, 8940],
    ],
  );
  // The final invoice of the whole order, 1,490.00 + 298.00: the customer owes the rest, the
  // advance and the deposit's VAT are taken back, the sale and its VAT booked whole.
  const final = salesEntry(
    {
      kind: 'invoice',
      number: 'F2',
      issueDate: '2026-10-15',
      validDate: '2026-10-15',
      party,
      total: 178800,
      netByNature: [{ nature: 'goods', amount: 149000 }],
      vatByRate: [{ rate: '20.00', amount: 29800 }],
      deducted: { net: 44700, vatByRate: [{ rate: '20.00', amount: 8940 }] },
    },
    defaultChart,
  )!;
  assert.deepEqual(
    final.map((l) => [l.account, l.accountLabel, l.debit, l.credit]),
    [
      ['411000', 'Clients', 178800 - 53640, 0],
      ['707000', 'Ventes de marchandises', 0, 149000],
      ['445710', 'TVA collectée 20 %', 0, 29800],
      ['419100', 'Acomptes reçus', 44700, 0],
      ['445710', 'TVA collectée 20 %', 8940, 0],
    ],
  );
  // Over the two entries: the customer owes the whole order, the sale is booked once, 4191 is back to zero.
  const sum = (account: string) =>
    [...deposit, ...final].filter((l) => l.account === account).reduce((s, l) => s + l.debit - l.credit, 0);
  assert.deepEqual([sum('411000'), sum('707000'), sum('419100'), sum('445710')], [178800, -149000, 0, -29800]);
});

test('the advances received account: 419100 by default, another 419 account accepted, any other refused', () => {
  const base = { from: '2026-01-01', to: '2026-12-31' };
  assert.equal(fecOptionsOf(base).chart.depositsReceived, '419100');
  assert.equal(fecOptionsOf({ ...base, accounts: { depositsReceived: '419700' } }).chart.depositsReceived, '419700');
  assert.throws(
    () => fecOptionsOf({ ...base, accounts: { depositsReceived: '411000' } }),
    (error: any) => error.code === 'validation_error' && error.param === 'accounts.depositsReceived',
  );
});
