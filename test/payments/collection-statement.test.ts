import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  collectedByRate,
  failedAttemptFr212,
  initialFr212,
  nextFr212,
  sentFr212,
  statementObligation,
  statementOwed,
  statementRetryMs,
  statementSendable,
} from '../../src/payments/collection-statement.js';
import type { InvoiceCollectionFacts } from '../../src/invoices/service.js';

const now = new Date('2026-10-15T10:00:00Z');
const owed: InvoiceCollectionFacts = {
  einvoicing: 'due',
  ereportingPayment: 'due',
  transmissionStatus: 'deposited',
  transmissionDetail: null,
  vatBreakdown: [{ vatRate: '20', taxableAmount: 10000, taxAmount: 2000 }],
};

test('a statement is owed only for a domestic B2B e-invoice whose payments are reported (VAT on collection)', () => {
  const rows: [string | null, string | null, boolean][] = [
    ['due', 'due', true],
    ['due', 'not_applicable', false], // goods only, or the debit option
    ['not_applicable', 'due', false], // B2C or international: flow 10.2 / 10.4 instead
    [null, null, false], // no tax decision
  ];
  for (const [einvoicing, ereportingPayment, expected] of rows) {
    assert.equal(statementOwed({ einvoicing, ereportingPayment }), expected, `${einvoicing} ${ereportingPayment}`);
    const fr212 = initialFr212({ ...owed, einvoicing, ereportingPayment }, now);
    assert.equal(fr212 === null, !expected);
  }
});

test('the fr212 of a payment recorded now follows where the invoice is on the platform', () => {
  const rows: [string, string | null, string, string | null][] = [
    ['pending', null, 'awaiting_deposit', 'awaiting_pa_deposit'],
    ['sending', null, 'awaiting_deposit', 'awaiting_pa_deposit'],
    ['not_applicable', null, 'awaiting_deposit', 'awaiting_pa_deposit'],
    ['deposited', null, 'pending', null],
    ['transmitted', 'received', 'pending', null],
    ['approved', null, 'pending', null],
    ['rejected', null, 'pending', 'pa_lifecycle_not_ready'],
    ['transmitted', 'refused', 'pending', 'pa_lifecycle_not_ready'],
  ];
  for (const [transmissionStatus, transmissionDetail, state, lastErrorCode] of rows) {
    const fr212 = initialFr212({ ...owed, transmissionStatus, transmissionDetail }, now)!;
    const label = `${transmissionStatus}/${transmissionDetail}`;
    assert.equal(fr212.state, state, label);
    assert.equal(fr212.lastErrorCode, lastErrorCode, label);
    assert.equal(fr212.sentAt, null, label);
    assert.equal(fr212.updatedAt, now.toISOString(), label);
    assert.equal(typeof fr212.lastErrorReason === 'string', lastErrorCode !== null, label);
  }
});

test('the collected amount per VAT rate adds up to the payment to the cent, negative for a refund', () => {
  const breakdown = [
    { vatRate: '20', taxableAmount: 10000, taxAmount: 2000 },
    { vatRate: '5.5', taxableAmount: 10000, taxAmount: 550 },
    { vatRate: '20', taxableAmount: 1000, taxAmount: 200 },
  ];
  // Rates merged (20 % twice), shares in proportion of 13,200 and 10,550 cents.
  assert.deepEqual(collectedByRate(23750, breakdown), [
    { vatRate: '20', amount: 13200 },
    { vatRate: '5.5', amount: 10550 },
  ]);
  for (const amount of [1, 2, 3, 999, 10001, 23749, -1, -4567]) {
    const shares = collectedByRate(amount, breakdown);
    assert.equal(
      shares.reduce((sum, share) => sum + share.amount, 0),
      amount,
      `shares of ${amount}`,
    );
    for (const share of shares) assert.ok(Math.sign(share.amount) !== -Math.sign(amount), `${amount}: ${share.amount}`);
  }
  // Three equal rates, one cent: it goes to the first (equal remainders keep the order).
  const equal = ['20', '10', '5.5'].map((vatRate) => ({ vatRate, taxableAmount: 100, taxAmount: 0 }));
  assert.deepEqual(
    collectedByRate(1, equal).map((share) => share.amount),
    [1, 0, 0],
  );
  assert.deepEqual(
    collectedByRate(-2, equal).map((share) => share.amount),
    [-1, -1, 0],
  );
  // No breakdown (a zero invoice): the whole amount under rate 0.
  assert.deepEqual(collectedByRate(500, []), [{ vatRate: '0', amount: 500 }]);
});

test('a waiting statement moves when its invoice does, once; a sent one never moves', () => {
  const later = new Date('2026-10-16T10:00:00Z');
  const waiting = initialFr212({ ...owed, transmissionStatus: 'sending' }, now)!;
  assert.equal(nextFr212(waiting, { ...owed, transmissionStatus: 'sending' }, later), null, 'nothing moved');
  const due = nextFr212(waiting, owed, later)!;
  assert.deepEqual(due, { state: 'pending', sentAt: null, lastErrorCode: null, updatedAt: later.toISOString() });
  const blocked = nextFr212(due, { ...owed, transmissionStatus: 'rejected' }, later)!;
  assert.equal(blocked.lastErrorCode, 'pa_lifecycle_not_ready');
  assert.equal(
    nextFr212({ ...due, sentAt: now.toISOString() }, { ...owed, transmissionStatus: 'rejected' }, later),
    null,
  );
  assert.equal(nextFr212(waiting, { ...owed, ereportingPayment: 'not_applicable' }, later), null);
});

test('the obligation of a statement: who acts next', () => {
  const of = (transmissionStatus: string) => statementObligation(initialFr212({ ...owed, transmissionStatus }, now)!);
  assert.deepEqual(of('pending'), {
    state: 'waiting',
    reasonCode: 'awaiting_pa_deposit',
    reasonSource: 'service',
    owner: 'client',
    action: 'send',
    nextAttemptAt: null,
  });
  assert.deepEqual(
    [of('rejected').reasonCode, of('rejected').reasonSource, of('rejected').owner, of('rejected').action],
    ['pa_lifecycle_not_ready', 'platform', 'client', 'resubmit'],
  );
  assert.deepEqual([of('deposited').reasonCode, of('deposited').owner], [null, 'service']);
});

test('sending: due when never tried or a failure is old enough; a sent statement is fulfilled', () => {
  const due = initialFr212(owed, now)!;
  assert.equal(statementSendable(due, now), true);
  const waiting = initialFr212({ ...owed, transmissionStatus: 'sending' }, now)!;
  assert.equal(statementSendable(waiting, now), false, 'waits on the deposit');
  const failed = failedAttemptFr212('pa_unavailable', 'Service Unavailable', now);
  assert.deepEqual([failed.state, failed.lastErrorCode, failed.sentAt], ['pending', 'pa_unavailable', null]);
  assert.equal(statementSendable(failed, new Date(now.getTime() + statementRetryMs - 1)), false);
  assert.equal(statementSendable(failed, new Date(now.getTime() + statementRetryMs)), true);
  assert.equal(
    nextFr212(failed, { ...owed, transmissionStatus: 'rejected' }, now),
    null,
    "the sender's, not the mover's",
  );
  assert.deepEqual(statementObligation(failed), {
    state: 'waiting',
    reasonCode: 'pa_unavailable',
    reasonSource: 'platform',
    owner: 'service',
    action: 'retry',
    nextAttemptAt: new Date(now.getTime() + statementRetryMs).toISOString(),
  });
  const sent = sentFr212(now);
  assert.deepEqual(sent, {
    state: 'sent',
    sentAt: now.toISOString(),
    lastErrorCode: null,
    updatedAt: now.toISOString(),
  });
  assert.equal(statementSendable(sent, now), false);
  assert.equal(statementObligation(sent).state, 'fulfilled');
});
