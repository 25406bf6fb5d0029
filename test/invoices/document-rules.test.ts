import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../src/kernel/errors.js';
import {
  checkBacking,
  decidedLines,
  einvoicingDue,
  type BackedDocument,
  type DecisionFacts,
} from '../../src/invoices/tax-gate.js';
import { archiveAttempt, rejectionAfter, sendMove } from '../../src/invoices/submission.js';
import { checkBuyer, checkDisclosure, checkNotSelf, taxFactsOf } from '../../src/invoices/buyer.js';
import { resolveLines, sameDecimal } from '../../src/invoices/lines.js';
import { euros, lineNetCents } from '../../src/kernel/money.js';
import { addDays, endOfDay } from '../../src/kernel/calendar.js';
import { amountDueOf, freshEinvoicing, type DocumentRow } from '../../src/invoices/document-record.js';
import { refundableOf } from '../../src/invoices/collections.js';
import { checkStillValid, quoteMove, quoteMoves, quoteStatuses } from '../../src/quotes/quote-status.js';
import type { Axes } from '../../src/invoices/document-axes.js';

const now = new Date('2026-10-15T10:00:00Z');
const lines = resolveLines([{ description: 'Chaise', quantity: '2', unitPrice: '149.00', nature: 'goods' }], new Map());

const decision = (patch: Partial<DecisionFacts> = {}): DecisionFacts => ({
  id: 'txd_1',
  status: 'final',
  expiresAt: '2026-10-16T10:00:00Z',
  taxSource: 'service',
  date: '2026-10-15',
  currency: 'EUR',
  customerId: 'cus_1',
  buyer: { type: 'company', vatNumber: 'FR44732829320', territory: 'FR', deliveryTerritory: 'FR' },
  lines: [
    {
      description: 'Chaise',
      quantity: '2',
      unitPrice: '149',
      nature: 'goods',
      rateCategory: 'standard',
      vatCode: 'S',
      vatRate: '20.00',
      vatexCode: null,
      netAmount: 29800,
    },
  ],
  totals: { net: 29800, vat: 5960, gross: 35760, due: 35760 },
  vatBreakdown: [{ vatCode: 'S', vatRate: '20.00', vatexCode: null, taxableAmount: 29800, taxAmount: 5960 }],
  mentions: [],
  obligations: {
    einvoicing: { state: 'due', reason: 'domestic_b2b' },
    ereportingTransaction: { state: 'not_applicable', reason: '' },
    ereportingPayment: { state: 'not_applicable', reason: '' },
  },
  reservesLedgerShare: false,
  ...patch,
});

const document = (patch: Partial<BackedDocument> = {}): BackedDocument => ({
  customerId: 'cus_1',
  buyer: { type: 'company', vatNumber: 'FR44732829320', territory: 'FR', deliveryTerritory: 'FR' },
  currency: 'EUR',
  taxSource: null,
  lines,
  subtotal: 29800,
  ...patch,
});

function refusal(run: () => void): { code: string; param: string | undefined } | null {
  try {
    run();
    return null;
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return { code: error.code, param: error.param };
  }
}

test('the tax gate: one row per tax_decision_* code, in the order they are checked', () => {
  const line = lines[0]!;
  const rows: [string, DecisionFacts, BackedDocument, string | null, { code: string; param?: string } | null][] = [
    ['a final, unexpired, matching decision', decision(), document(), null, null],
    [
      'suspended',
      decision({ status: 'suspended', totals: null }),
      document(),
      null,
      { code: 'tax_decision_not_final', param: 'taxDecisionId' },
    ],
    ['not taken', decision({ status: 'not_taken' }), document(), null, { code: 'tax_decision_not_final' }],
    ['expired', decision({ expiresAt: '2026-10-15T09:59:59Z' }), document(), null, { code: 'tax_decision_expired' }],
    [
      'expiring this very instant',
      decision({ expiresAt: now.toISOString() }),
      document(),
      null,
      { code: 'tax_decision_expired' },
    ],
    [
      'backing another document',
      decision(),
      document(),
      'inv_other',
      { code: 'tax_decision_required', param: 'taxDecisionId' },
    ],
    [
      'another customer',
      decision({ customerId: 'cus_2' }),
      document(),
      null,
      { code: 'tax_decision_customer_mismatch', param: 'customerId' },
    ],
    [
      'a decision on an inline buyer for a customer',
      decision({ customerId: null }),
      document(),
      null,
      { code: 'tax_decision_customer_mismatch' },
    ],
    [
      'an inline buyer for a decision on a customer',
      decision(),
      document({ customerId: null }),
      null,
      { code: 'tax_decision_customer_mismatch', param: 'buyer' },
    ],
    [
      'the buyer moved territory',
      decision(),
      document({
        buyer: { type: 'company', vatNumber: 'FR44732829320', territory: 'FR-COR', deliveryTerritory: 'FR-COR' },
      }),
      null,
      { code: 'tax_decision_buyer_drifted' },
    ],
    [
      'the buyer lost its VAT number',
      decision(),
      document({ buyer: { type: 'company', vatNumber: null, territory: 'FR', deliveryTerritory: 'FR' } }),
      null,
      { code: 'tax_decision_buyer_drifted' },
    ],
    [
      'the buyer became a consumer',
      decision(),
      document({ buyer: { type: 'individual', vatNumber: 'FR44732829320', territory: 'FR', deliveryTerritory: 'FR' } }),
      null,
      { code: 'tax_decision_buyer_drifted' },
    ],
    [
      'a VAT number written in lower case is the same',
      decision(),
      document({ buyer: { type: 'company', vatNumber: 'fr44732829320', territory: 'FR', deliveryTerritory: 'FR' } }),
      null,
      null,
    ],
    [
      'another currency',
      decision({ currency: 'USD' }),
      document(),
      null,
      { code: 'tax_decision_currency_mismatch', param: 'currency' },
    ],
    [
      'another tax source',
      decision(),
      document({ taxSource: 'integration' }),
      null,
      { code: 'tax_decision_lines_mismatch', param: 'taxSource' },
    ],
    [
      'one line more',
      decision(),
      document({ lines: [line, line], subtotal: 59600 }),
      null,
      { code: 'tax_decision_lines_mismatch', param: 'lines' },
    ],
    [
      'another description',
      decision(),
      document({ lines: [{ ...line, description: 'Table' }] }),
      null,
      { code: 'tax_decision_lines_mismatch', param: 'lines[0]' },
    ],
    [
      'another quantity',
      decision(),
      document({ lines: [{ ...line, quantity: '3' }] }),
      null,
      { code: 'tax_decision_lines_mismatch', param: 'lines[0]' },
    ],
    [
      'another nature',
      decision(),
      document({ lines: [{ ...line, nature: 'services' }] }),
      null,
      { code: 'tax_decision_lines_mismatch' },
    ],
    [
      'another rate category',
      decision(),
      document({ lines: [{ ...line, rateCategory: 'reduced' }] }),
      null,
      { code: 'tax_decision_lines_mismatch' },
    ],
    [
      'integration: another VAT rate',
      decision({ taxSource: 'integration' }),
      document({ lines: [{ ...line, vatCode: 'S', vatRate: '10' }] }),
      null,
      { code: 'tax_decision_lines_mismatch' },
    ],
    [
      'integration: the same rate written otherwise',
      decision({ taxSource: 'integration' }),
      document({ lines: [{ ...line, vatCode: 'S', vatRate: '20' }] }),
      null,
      null,
    ],
    [
      'integration: another VATEX code',
      decision({ taxSource: 'integration' }),
      document({ lines: [{ ...line, vatCode: 'S', vatRate: '20', vatexCode: 'VATEX-EU-G' }] }),
      null,
      { code: 'tax_decision_lines_mismatch' },
    ],
    [
      'totals that diverge',
      decision({ totals: { net: 29900, vat: 5980, gross: 35880, due: 35880 } }),
      document(),
      null,
      { code: 'tax_decision_totals_inconsistent', param: 'lines' },
    ],
    [
      'a line net that diverges',
      decision(),
      document({ lines: [{ ...line, netAmount: 29801 }] }),
      null,
      { code: 'tax_decision_totals_inconsistent', param: 'lines[0]' },
    ],
    [
      'a final decision without amounts',
      decision({ totals: null }),
      document(),
      null,
      { code: 'tax_snapshot_inconsistent' },
    ],
    [
      'a breakdown that does not add up',
      decision({
        vatBreakdown: [{ vatCode: 'S', vatRate: '20.00', vatexCode: null, taxableAmount: 29800, taxAmount: 5000 }],
      }),
      document(),
      null,
      { code: 'tax_snapshot_inconsistent' },
    ],
  ];
  for (const [name, facts, doc, backedBy, expected] of rows) {
    const got = refusal(() => checkBacking(facts, doc, now, backedBy));
    if (expected === null) assert.equal(got, null, name);
    else {
      assert.equal(got?.code, expected.code, name);
      if (expected.param) assert.equal(got?.param, expected.param, name);
    }
  }
  assert.deepEqual(
    decidedLines(decision(), lines).map((l) => [l.vatCode, l.vatRate]),
    [['S', '20.00']],
  );
  assert.equal(einvoicingDue(decision()), true);
  assert.equal(einvoicingDue(decision({ obligations: null })), false);
});

test('sending: every state of the transmission axis', () => {
  const row = (patch: Partial<DocumentRow>) =>
    ({
      id: 'inv_1',
      kind: 'invoice',
      documentStatus: 'finalized',
      transmissionStatus: 'pending',
      transmissionDetail: null,
      ...patch,
    }) as DocumentRow;
  const rows: [Partial<DocumentRow>, string][] = [
    [{ documentStatus: 'draft', transmissionStatus: 'not_applicable' }, 'invalid_status_transition'],
    [{ documentStatus: 'cancelled', transmissionStatus: 'not_applicable' }, 'invalid_status_transition'],
    [{ transmissionStatus: 'not_applicable' }, 'not_einvoicing_channel'],
    [{ transmissionStatus: 'pending' }, 'first'],
    [{ transmissionStatus: 'rejected' }, 'resubmission'],
    [{ transmissionStatus: 'rejected', transmissionDetail: 'refused' }, 'invalid_status_transition'],
    [{ transmissionStatus: 'sending' }, 'invalid_status_transition'],
    [{ transmissionStatus: 'deposited' }, 'invalid_status_transition'],
    [{ transmissionStatus: 'transmitted', transmissionDetail: 'suspended' }, 'invalid_status_transition'],
    [{ transmissionStatus: 'approved' }, 'invalid_status_transition'],
  ];
  for (const [patch, expected] of rows) {
    let got: string;
    try {
      got = sendMove(row(patch));
    } catch (error) {
      got = (error as ApiError).code;
    }
    assert.equal(got, expected, JSON.stringify(patch));
  }
});

test('rejection fields: filled by a refusal, a rejection or a suspension; reset when neither; archived by a resubmission', () => {
  const axes = (patch: Partial<Axes>): Axes => ({
    documentStatus: 'finalized',
    transmissionStatus: 'deposited',
    transmissionDetail: null,
    paymentStatus: 'unpaid',
    ...patch,
  });
  const rejected = rejectionAfter(
    freshEinvoicing(),
    axes({ transmissionStatus: 'rejected' }),
    {
      rejectionReason: 'x',
      rejectionNote: 'first note\nsecond note',
      rejectionCode: 'REJ_SEMAN',
      rejectionSource: 'platform',
      rejectionCategory: 'semantic_error',
    },
    '213',
  );
  assert.deepEqual(
    [rejected.paErrorCode, rejected.rejectionCode, rejected.rejectionReason, rejected.rejectionNote],
    ['REJ_SEMAN', 'REJ_SEMAN', 'x', 'first note\nsecond note'],
    'the note is the notes, not a copy of the reason',
  );
  const noCode = rejectionAfter(
    freshEinvoicing(),
    axes({ transmissionStatus: 'rejected' }),
    {
      rejectionReason: null,
      rejectionNote: null,
      rejectionCode: null,
      rejectionSource: 'platform',
      rejectionCategory: 'unknown',
    },
    '213',
  );
  assert.equal(noCode.paErrorCode, 'fr:213');
  const byBuyer = rejectionAfter(
    freshEinvoicing(),
    axes({ transmissionDetail: 'suspended' }),
    {
      rejectionReason: null,
      rejectionNote: null,
      rejectionCode: null,
      rejectionSource: 'buyer',
      rejectionCategory: 'suspended',
    },
    '208',
  );
  assert.equal(byBuyer.paErrorCode, null, 'a buyer status is no deposit failure');
  assert.equal(
    rejectionAfter(byBuyer, axes({ transmissionDetail: 'suspended' }), null, '208').rejectionCategory,
    'suspended',
    'still suspended',
  );
  assert.equal(
    rejectionAfter(byBuyer, axes({ transmissionStatus: 'transmitted', transmissionDetail: 'received' }), null, '209')
      .rejectionCategory,
    null,
  );
  const archived = archiveAttempt(
    { ...rejected, previousSubmissions: [] },
    axes({ transmissionStatus: 'rejected' }),
    now,
  );
  assert.equal(archived.rejectionCode, null);
  assert.equal(archived.previousSubmissions.length, 1);
  assert.deepEqual(
    [
      archived.previousSubmissions[0]!.rejectionCode,
      archived.previousSubmissions[0]!.transmissionStatus,
      archived.previousSubmissions[0]!.archivedAt,
    ],
    ['REJ_SEMAN', 'rejected', now.toISOString()],
  );
  assert.equal(
    archiveAttempt(archived, axes({ transmissionStatus: 'rejected' }), now).previousSubmissions.length,
    2,
    'attempts accumulate',
  );
});

test('buyers: checked like customers; disclosure and self-invoicing; the tax facts a decision records', () => {
  const buyer = checkBuyer({
    name: ' Atelier ',
    siret: '732 829 320 00017',
    address: { postalCode: '20000', country: 'fr' },
  });
  assert.deepEqual(
    [buyer.name, buyer.siren, buyer.siret, buyer.address?.country],
    ['Atelier', '732829320', '73282932000017', 'FR'],
  );
  assert.deepEqual(taxFactsOf(buyer), {
    type: 'company',
    vatNumber: null,
    territory: 'FR-COR',
    deliveryTerritory: 'FR-COR',
  });
  assert.deepEqual(
    taxFactsOf({
      ...buyer,
      deliveryAddress: { line1: null, line2: null, postalCode: '97110', city: null, country: 'GP' },
    }).deliveryTerritory,
    'FR-GP',
  );
  assert.equal(checkBuyer({ name: 'x', vatNumber: 'FR44732829320' }).siren, '732829320', 'from a French VAT number');
  for (const [input, param] of [
    [{ name: '  ' }, 'buyer.name'],
    [{ name: 'x', siren: '123456789' }, 'buyer.siren'],
    [{ name: 'x', siret: '73282932000018' }, 'buyer.siret'],
    [{ name: 'x', vatNumber: 'FR00000000000' }, 'buyer.vatNumber'],
    [{ name: 'x', address: { country: 'ZZ' } }, 'buyer.address.country'],
    // A valid French code of another territory: the conflict, on the country, before the country's pattern.
    [{ name: 'x', address: { postalCode: '75002', country: 'GP' } }, 'buyer.address.country'],
    [{ name: 'x', address: { postalCode: '97110', country: 'MQ' } }, 'buyer.address.country'],
    [{ name: 'x', deliveryAddress: { postalCode: '75002', country: 'MC' } }, 'buyer.deliveryAddress.country'],
    [{ name: 'x', address: { postalCode: '9711', country: 'GP' } }, 'buyer.address.postalCode'],
  ] as const)
    assert.equal(refusal(() => checkBuyer(input as never))?.param, param, JSON.stringify(input));
  assert.deepEqual(
    refusal(() => checkDisclosure({ ...buyer, registryNonDisclosure: ['address.city'] }, 'buyer')),
    { code: 'buyer_identity_not_disclosed', param: 'buyer.address.city' },
  );
  assert.equal(
    refusal(() => checkDisclosure(buyer, 'buyer')),
    null,
  );
  assert.deepEqual(
    refusal(() => checkNotSelf(buyer, '732829320', 'buyer')),
    { code: 'self_invoicing_not_allowed', param: 'buyer.siren' },
  );
  assert.equal(
    refusal(() => checkNotSelf(buyer, '100000009', 'buyer')),
    null,
  );
  assert.equal(
    refusal(() => checkNotSelf({ ...buyer, siren: null }, '100000009', 'buyer')),
    null,
    "a buyer without SIREN is nobody's self",
  );
});

test('amounts: line nets half-up, euro strings, what is due and refundable', () => {
  assert.equal(lineNetCents('3', '0.335'), 101);
  assert.equal(lineNetCents('1.5', '12.3456'), 1852);
  assert.equal(lineNetCents('0.0001', '0.000001'), 0);
  assert.ok(
    sameDecimal('12.50', '12.5') &&
      sameDecimal('3', '3.000') &&
      !sameDecimal('1', '1.01') &&
      sameDecimal(null, null) &&
      !sameDecimal('1', null),
  );
  assert.equal(euros(0), '0.00');
  assert.equal(euros(5), '0.05');
  assert.equal(euros(35760), '357.60');
  assert.equal(euros(-2400), '-24.00');
  fc.assert(
    fc.property(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), (cents) => {
      assert.equal(Math.round(Number(euros(cents)) * 100), cents);
      assert.match(euros(cents), /^-?\d+\.\d{2}$/);
    }),
  );
  const row = (patch: Partial<DocumentRow>) =>
    ({
      kind: 'invoice',
      documentStatus: 'finalized',
      total: 12000,
      amountCredited: 0,
      amountDeducted: 0,
      amountPaid: 0,
      amountRefunded: 0,
      ...patch,
    }) as DocumentRow;
  assert.equal(amountDueOf(row({})), 12000);
  assert.equal(amountDueOf(row({ amountDeducted: 3000, amountPaid: 5000 })), 4000, 'deposits deducted are not owed');
  assert.equal(amountDueOf(row({ amountPaid: 5000 })), 7000);
  assert.equal(amountDueOf(row({ amountPaid: 5000, amountCredited: 7000 })), 0);
  assert.equal(amountDueOf(row({ amountPaid: 12000, amountCredited: 2000, amountRefunded: 2000 })), 0);
  assert.equal(amountDueOf(row({ amountPaid: 12000, amountCredited: 2000 })), 0, 'never below zero');
  assert.equal(amountDueOf(row({ documentStatus: 'draft', total: null })), null);
  assert.equal(amountDueOf(row({ kind: 'credit_note' })), null);
  assert.equal(refundableOf({ total: 5000, amountRefunded: 0 }, { amountPaid: 12000, amountRefunded: 0 }), 5000);
  assert.equal(
    refundableOf({ total: 5000, amountRefunded: 1000 }, { amountPaid: 3000, amountRefunded: 0 }),
    3000,
    'never more than was paid',
  );
  assert.equal(refundableOf({ total: 5000, amountRefunded: 0 }, { amountPaid: 0, amountRefunded: 0 }), 0);
});

test('calendar: due dates and the instant a day is over', () => {
  assert.equal(addDays('2026-10-15', 30), '2026-11-14');
  assert.equal(addDays('2026-12-31', 1), '2027-01-01');
  assert.equal(addDays('2028-02-28', 1), '2028-02-29');
  assert.equal(endOfDay('2026-10-25').toISOString(), '2026-10-26T00:00:00.000Z');
});

test('quotes: every row of the table; nothing else moves', () => {
  for (const status of quoteStatuses) {
    for (const [action, move] of Object.entries(quoteMoves)) {
      const got = refusal(() => quoteMove('qt_1', status, action as never));
      if (move.from.includes(status)) assert.equal(got, null, `${status} ${action}`);
      else assert.equal(got?.code, 'invalid_status_transition', `${status} ${action}`);
    }
  }
  assert.deepEqual(quoteMove('qt_1', 'sent', 'accept'), { to: 'accepted', event: 'quote.accepted' });
  assert.deepEqual(quoteMove('qt_1', 'draft', 'finalize'), { to: 'finalized', event: null });
  assert.equal(refusal(() => checkStillValid('qt_1', '2026-10-14', '2026-10-15'))?.code, 'invalid_status_transition');
  assert.equal(
    refusal(() => checkStillValid('qt_1', '2026-10-15', '2026-10-15')),
    null,
    'valid through its last day',
  );
});
