import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/kernel/errors.js';
import {
  checkMove,
  checkWritesAllowed,
  firstPeriod,
  periodsDue,
  type SubscriptionMove,
  type SubscriptionStatus,
} from '../../src/subscriptions/subscription-rules.js';

const codeOf = (work: () => void): string | null => {
  try {
    work();
    return null;
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error.code;
  }
};

test('the write gate: a paused or cancelled subscription refuses every write, never a read', () => {
  const rows: [SubscriptionStatus, string, string | null][] = [
    ['active', 'POST', null],
    ['active', 'DELETE', null],
    ['active', 'GET', null],
    ['paused', 'GET', null],
    ['paused', 'HEAD', null],
    ['paused', 'POST', 'subscription_paused'],
    ['paused', 'PUT', 'subscription_paused'],
    ['paused', 'PATCH', 'subscription_paused'],
    ['paused', 'DELETE', 'subscription_paused'],
    ['cancelled', 'GET', null],
    ['cancelled', 'POST', 'subscription_paused'],
    ['cancelled', 'DELETE', 'subscription_paused'],
  ];
  for (const [status, method, code] of rows)
    assert.equal(
      codeOf(() => checkWritesAllowed(status, method)),
      code,
      `${status} ${method}`,
    );
  try {
    checkWritesAllowed('paused', 'POST');
  } catch (error) {
    assert.equal((error as ApiError).status, 400);
    assert.equal((error as ApiError).type, 'invalid_request_error');
  }
});

test('the moves: pause from active; resume from paused or cancelled; cancel from active or paused', () => {
  const rows: [SubscriptionStatus, SubscriptionMove, boolean][] = [
    ['active', 'pause', true],
    ['paused', 'pause', false],
    ['cancelled', 'pause', false],
    ['active', 'resume', false],
    ['paused', 'resume', true],
    ['cancelled', 'resume', true],
    ['active', 'cancel', true],
    ['paused', 'cancel', true],
    ['cancelled', 'cancel', false],
  ];
  for (const [status, move, allowed] of rows)
    assert.equal(
      codeOf(() => checkMove(status, move)),
      allowed ? null : 'invalid_status_transition',
      `${move} from ${status}`,
    );
});

test('periods follow the calendar months (UTC): the first from the creation, renewals month by month', () => {
  const first = firstPeriod(new Date('2026-11-24T18:30:00Z'));
  assert.equal(first.start.toISOString(), '2026-11-24T18:30:00.000Z');
  assert.equal(first.end.toISOString(), '2026-12-01T00:00:00.000Z');
  assert.deepEqual(periodsDue(first.end, new Date('2026-11-30T23:59:59Z')), [], 'not yet ended');
  const due = periodsDue(first.end, new Date('2027-02-10T00:00:00Z'));
  assert.deepEqual(
    due.map((period) => [period.start.toISOString().slice(0, 10), period.end.toISOString().slice(0, 10)]),
    [
      ['2026-12-01', '2027-01-01'],
      ['2027-01-01', '2027-02-01'],
      ['2027-02-01', '2027-03-01'],
    ],
    'one renewal per period passed, the last holding now',
  );
});
