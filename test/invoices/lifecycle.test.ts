import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  documentStatuses,
  draftAxes,
  paymentStatuses,
  transmissionDetails,
  transmissionStatuses,
  type Axes,
} from '../../src/invoices/document-axes.js';
import { summaryStatus } from '../../src/invoices/summary-status.js';
import {
  applyLifecycleStatus,
  lifecycleCodes,
  rejectionNoteFor,
  rejectionNoteOf,
  type LifecycleCode,
} from '../../src/invoices/lifecycle-status.js';
import { paymentStatusOf } from '../../src/invoices/payment-status.js';
import { invoicePaymentStatus } from '../../src/invoices/collections.js';
import { formatNumber, seriesOf } from '../../src/numbering/series.js';

const finalized: Axes = {
  documentStatus: 'finalized',
  transmissionStatus: 'pending',
  transmissionDetail: null,
  paymentStatus: 'unpaid',
};
const axes = (patch: Partial<Axes>): Axes => ({ ...finalized, ...patch });

test('the summary status: every row of LIFECYCLE.md, and the contract rows it carries', () => {
  const rows: [Partial<Axes>, string, string?][] = [
    [draftAxes, 'draft'],
    [{ documentStatus: 'cancelled' }, 'cancelled'],
    [{ paymentStatus: 'refunded', transmissionStatus: 'approved' }, 'refunded'],
    [{ paymentStatus: 'partially_refunded' }, 'partially_refunded'],
    [{ paymentStatus: 'paid', transmissionStatus: 'approved' }, 'paid'],
    // contract: rejected, then payment recorded in full: summary paid, transmissionStatus stays rejected
    [{ paymentStatus: 'paid', transmissionStatus: 'rejected' }, 'paid'],
    // contract: paid before deposit, approval arrives: stays paid
    [{ paymentStatus: 'paid', transmissionStatus: 'pending' }, 'paid'],
    [{ transmissionStatus: 'rejected', transmissionDetail: 'refused' }, 'refused'],
    [{ transmissionStatus: 'rejected', transmissionDetail: 'refused' }, 'credit_refused', 'credit_note'],
    [{ transmissionStatus: 'rejected', transmissionDetail: null }, 'rejected'],
    [
      { transmissionStatus: 'transmitted', transmissionDetail: 'suspended', paymentStatus: 'partially_paid' },
      'suspended',
    ],
    [{ transmissionStatus: 'approved', paymentStatus: 'partially_paid' }, 'partially_paid'],
    [{ transmissionStatus: 'approved' }, 'approved'],
    [{ transmissionStatus: 'transmitted', transmissionDetail: 'received' }, 'received'],
    [{ transmissionStatus: 'transmitted', transmissionDetail: 'available' }, 'available'],
    [{ transmissionStatus: 'transmitted' }, 'transmitted'],
    [{ transmissionStatus: 'deposited' }, 'deposited'],
    [{ transmissionStatus: 'sending' }, 'sending'],
    [{ transmissionStatus: 'pending' }, 'finalized'],
    [{ transmissionStatus: 'not_applicable' }, 'finalized'],
  ];
  for (const [patch, expected, kind] of rows) {
    assert.equal(
      summaryStatus(axes(patch), (kind ?? 'invoice') as 'invoice' | 'credit_note'),
      expected,
      JSON.stringify(patch),
    );
  }
});

test('the summary status is defined for every combination of the axes', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...documentStatuses),
      fc.constantFrom(...transmissionStatuses),
      fc.constantFrom(null, ...transmissionDetails),
      fc.constantFrom(...paymentStatuses),
      fc.constantFrom('invoice' as const, 'credit_note' as const),
      (documentStatus, transmissionStatus, transmissionDetail, paymentStatus, kind) => {
        const summary = summaryStatus({ documentStatus, transmissionStatus, transmissionDetail, paymentStatus }, kind);
        assert.equal(typeof summary, 'string');
        if (kind === 'invoice') assert.notEqual(summary, 'credit_refused');
      },
    ),
  );
});

test('reported statuses: axes and events of LIFECYCLE.md, invoice and credit note', () => {
  const rows: [LifecycleCode, Partial<Axes>, Partial<Axes>, string | null, string | null][] = [
    [
      '200',
      { transmissionStatus: 'sending' },
      { transmissionStatus: 'deposited', transmissionDetail: null },
      'invoice.deposited',
      'credit_note.credit_deposited',
    ],
    [
      '201',
      { transmissionStatus: 'deposited' },
      { transmissionStatus: 'transmitted' },
      'invoice.transmitted',
      'credit_note.credit_transmitted',
    ],
    [
      '202',
      { transmissionStatus: 'deposited' },
      { transmissionStatus: 'transmitted' },
      'invoice.transmitted',
      'credit_note.credit_transmitted',
    ],
    [
      '203',
      { transmissionStatus: 'transmitted' },
      { transmissionStatus: 'transmitted', transmissionDetail: 'available' },
      'invoice.available',
      null,
    ],
    // contract: a platform that skips intermediate statuses: from sending straight to available, one event
    [
      '203',
      { transmissionStatus: 'sending' },
      { transmissionStatus: 'transmitted', transmissionDetail: 'available' },
      'invoice.available',
      null,
    ],
    [
      '204',
      { transmissionStatus: 'transmitted', transmissionDetail: 'available' },
      { transmissionDetail: 'received' },
      'invoice.received',
      null,
    ],
    [
      '205',
      { transmissionStatus: 'transmitted', transmissionDetail: 'received' },
      { transmissionStatus: 'approved', transmissionDetail: null },
      'invoice.approved',
      'credit_note.credit_approved',
    ],
    [
      '206',
      { transmissionStatus: 'transmitted' },
      { transmissionStatus: 'approved' },
      'invoice.approved',
      'credit_note.credit_approved',
    ],
    [
      '207',
      { transmissionStatus: 'transmitted', transmissionDetail: 'received' },
      { transmissionDetail: 'suspended' },
      'invoice.suspended',
      null,
    ],
    ['208', { transmissionStatus: 'transmitted' }, { transmissionDetail: 'suspended' }, 'invoice.suspended', null],
    [
      '209',
      { transmissionStatus: 'transmitted', transmissionDetail: 'suspended' },
      { transmissionDetail: 'received' },
      null,
      null,
    ],
    // contract: deposited, buyer refuses: rejected + refused
    [
      '210',
      { transmissionStatus: 'deposited' },
      { transmissionStatus: 'rejected', transmissionDetail: 'refused' },
      'invoice.refused',
      'credit_note.credit_refused',
    ],
    // contract: deposited, platform rejects: rejected, detail null
    [
      '213',
      { transmissionStatus: 'deposited' },
      { transmissionStatus: 'rejected', transmissionDetail: null },
      'invoice.rejected',
      null,
    ],
    ['221', { transmissionStatus: 'sending' }, { transmissionStatus: 'rejected' }, 'invoice.rejected', null],
    ['501', { transmissionStatus: 'sending' }, { transmissionStatus: 'rejected' }, 'invoice.rejected', null],
  ];
  for (const [code, before, after, invoiceEvent, creditEvent] of rows) {
    const invoice = applyLifecycleStatus(axes(before), 'invoice', { code, reasonCode: null, reason: null });
    assert.deepEqual(invoice.axes, axes({ ...before, ...after }), code);
    assert.equal(invoice.event, invoiceEvent, code);
    assert.equal(invoice.changed, true, code);
    assert.equal(applyLifecycleStatus(axes(before), 'credit_note', { code }).event, creditEvent, `credit note ${code}`);
  }
});

test('211 is a mention only: no axis, no event, never touches a payment', () => {
  for (const paymentStatus of paymentStatuses) {
    const before = axes({ transmissionStatus: 'approved', paymentStatus });
    const applied = applyLifecycleStatus(before, 'invoice', { code: '211' });
    assert.deepEqual(applied, { axes: before, event: null, rejection: null, changed: false });
  }
});

test('a status never downgrades, nothing moves after approved or rejected, a repeat changes nothing', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...lifecycleCodes), { maxLength: 12 }), (codes) => {
      const order = {
        not_applicable: 0,
        pending: 0,
        sending: 1,
        deposited: 2,
        transmitted: 3,
        approved: 4,
        rejected: 5,
      } as const;
      let state = axes({ transmissionStatus: 'sending' });
      for (const code of codes) {
        const applied = applyLifecycleStatus(state, 'invoice', { code });
        assert.ok(
          order[applied.axes.transmissionStatus] >= order[state.transmissionStatus],
          `${code} moved ${state.transmissionStatus} back to ${applied.axes.transmissionStatus}`,
        );
        if (state.transmissionStatus === 'approved' || state.transmissionStatus === 'rejected')
          assert.equal(applied.changed, false);
        assert.equal(applied.axes.paymentStatus, state.paymentStatus, 'statuses never touch payments');
        assert.equal(applyLifecycleStatus(applied.axes, 'invoice', { code }).changed, false, `${code} twice`);
        state = applied.axes;
      }
    }),
  );
  assert.equal(
    applyLifecycleStatus(axes({ transmissionStatus: 'transmitted' }), 'invoice', { code: '200' }).changed,
    false,
  );
  assert.equal(
    applyLifecycleStatus(axes({ transmissionStatus: 'transmitted', transmissionDetail: 'received' }), 'invoice', {
      code: '203',
    }).changed,
    false,
  );
  assert.equal(
    applyLifecycleStatus(draftAxes, 'invoice', { code: '200' }).changed,
    false,
    'a draft is not on the platform',
  );
});

test('rejection fields: source and category of each refusal, rejection and suspension', () => {
  const refused = applyLifecycleStatus(axes({ transmissionStatus: 'deposited' }), 'invoice', {
    code: '210',
    reasonCode: 'TX_TVA_ERR',
    reason: 'Taux de TVA erroné',
  });
  assert.deepEqual(refused.rejection, {
    rejectionReason: 'Taux de TVA erroné',
    rejectionNote: null,
    rejectionCode: 'TX_TVA_ERR',
    rejectionSource: 'buyer',
    rejectionCategory: 'refused_by_buyer',
  });
  const suspended = applyLifecycleStatus(axes({ transmissionStatus: 'transmitted' }), 'invoice', {
    code: '208',
    reasonCode: 'JUSTIF_ABS',
  });
  assert.equal(suspended.rejection?.rejectionCategory, 'suspended');
  assert.equal(suspended.rejection?.rejectionSource, 'buyer');
  const rejected = applyLifecycleStatus(axes({ transmissionStatus: 'deposited' }), 'invoice', {
    code: '213',
    reasonCode: 'REJ_SEMAN',
    reason: 'BR-FR-08',
  });
  assert.equal(rejected.rejection?.rejectionSource, 'platform');
  assert.equal(rejected.rejection?.rejectionCategory, 'semantic_error');
  assert.equal(rejected.rejection?.rejectionNote, null, 'no notes: null, never a copy of the reason');
  const withNotes = applyLifecycleStatus(axes({ transmissionStatus: 'deposited' }), 'invoice', {
    code: '213',
    reasonCode: 'AUTRE',
    reason: 'Rejet',
    notes: ['Le bon de commande manque.', '  ', 'Joindre la référence BT-13.'],
  });
  assert.equal(withNotes.rejection?.rejectionNote, 'Le bon de commande manque.\nJoindre la référence BT-13.');
  assert.equal(withNotes.rejection?.rejectionCategory, 'other');
});

test('rejectionNote: the notes one per line, blank ones dropped; null when there are none', () => {
  const rows: [readonly string[] | null | undefined, string | null][] = [
    [undefined, null],
    [null, null],
    [[], null],
    [['', ' \n '], null],
    [['one'], 'one'],
    [['one', 'two'], 'one\ntwo'],
    [['  kept as written  '], '  kept as written  '],
  ];
  for (const [notes, expected] of rows) assert.equal(rejectionNoteOf(notes), expected, JSON.stringify(notes));
});

test('rejectionNote of an uncodified reason (other): its notes, else the words that explain it; other categories keep only notes', () => {
  const rows: [Parameters<typeof rejectionNoteFor>, string | null][] = [
    [['other', 'Le destinataire a clos son compte', []], 'Le destinataire a clos son compte'],
    [['other', 'Rejet', ['Joindre le bon de commande.']], 'Joindre le bon de commande.'],
    [['other', null, []], null],
    [['other', '  ', null], null],
    [['semantic_error', 'BR-FR-08', []], null],
    [['format_invalid', 'XML mal formé', ['ligne 3']], 'ligne 3'],
  ];
  for (const [input, expected] of rows) assert.equal(rejectionNoteFor(...input), expected, JSON.stringify(input));
  // A CDAR 213 of an uncodified reason, without notes: the same rule as an acknowledgement.
  const rejected = applyLifecycleStatus(axes({ transmissionStatus: 'deposited' }), 'invoice', {
    code: '213',
    reasonCode: 'REJ_CONT_B2G',
    reason: 'Contrôle B2G : engagement juridique absent',
  });
  assert.equal(rejected.rejection?.rejectionCategory, 'other');
  assert.equal(rejected.rejection?.rejectionNote, 'Contrôle B2G : engagement juridique absent');
});

// The rejection classification's table test is test/platform/rejection-classification.test.ts.

test('the payment axis from amounts', () => {
  assert.equal(paymentStatusOf(12_000, 0, 0), 'unpaid');
  assert.equal(paymentStatusOf(12_000, 5_000, 0), 'partially_paid');
  assert.equal(paymentStatusOf(12_000, 12_000, 0), 'paid');
  assert.equal(paymentStatusOf(12_000, 12_000, 2_000), 'partially_refunded');
  assert.equal(paymentStatusOf(12_000, 12_000, 12_000), 'refunded');
  // A credit note of 40 on a paid invoice of 120: refunding its 40 gives back all that was owed back.
  const amounts = (paid: number, refunded: number, credited: number) => ({
    amountPaid: paid,
    amountRefunded: refunded,
    amountCredited: credited,
  });
  assert.equal(invoicePaymentStatus(12_000, amounts(12_000, 1_000, 4_000)), 'partially_refunded');
  assert.equal(invoicePaymentStatus(12_000, amounts(12_000, 4_000, 4_000)), 'refunded');
  assert.equal(invoicePaymentStatus(12_000, amounts(12_000, 12_000, 12_000)), 'refunded');
  // A credit note that settles a partly paid invoice leaves nothing to give back: paid.
  assert.equal(invoicePaymentStatus(12_000, amounts(8_000, 0, 4_000)), 'paid');
});

test('numbers: a series per kind, environment and year; test series marked; French format rules', () => {
  assert.equal(formatNumber(seriesOf('invoice', true, 2026), 123), 'F2026-000123');
  assert.equal(formatNumber(seriesOf('invoice', false, 2026), 1), 'TEST-F2026-000001');
  assert.equal(formatNumber(seriesOf('credit_note', true, 2026), 7), 'AV2026-000007');
  assert.equal(formatNumber(seriesOf('quote', true, 2027), 1_000_000), 'D2027-1000000');
  assert.throws(() => formatNumber('F2026', 0));
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 10 ** 12 }), fc.boolean(), (n, live) => {
      const number = formatNumber(seriesOf('invoice', live, 2026), n);
      assert.ok(number.length <= 35 && /^[A-Za-z0-9+\-_/]+$/.test(number));
    }),
  );
});
