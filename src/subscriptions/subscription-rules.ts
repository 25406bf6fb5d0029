import { ApiError, refuse } from '../kernel/errors.js';
import type { SubscriptionStatus } from '../kernel/plans.js';

/**
 * The rules of the account holder's subscription, pure: its statuses and moves, its monthly
 * periods, and what a paused or cancelled subscription blocks. Published: the request pipeline
 * applies the write gate to every request.
 */

export { subscriptionStatuses, type SubscriptionStatus } from '../kernel/plans.js';

export interface Period {
  start: Date;
  end: Date;
}

/** The start of the calendar month (UTC) after the one holding `at`. */
export function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/**
 * Periods follow the calendar months (UTC), as the monthly quota counts: the first one runs from
 * the creation to the end of its month, each renewal covers the next whole month.
 */
export function firstPeriod(now: Date): Period {
  return { start: now, end: nextMonthStart(now) };
}

/** The periods that begin at `end` and follow, until the one holding `now` (none when `end` is later). */
export function periodsDue(end: Date, now: Date): Period[] {
  const periods: Period[] = [];
  let start = end;
  while (start.getTime() <= now.getTime()) {
    const next = nextMonthStart(start);
    periods.push({ start, end: next });
    start = next;
  }
  return periods;
}

const reading = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A paused or cancelled subscription blocks writing operations; reads stay open, and so do the
 * routes that say so (the subscription's own, exports). One check, in the request pipeline.
 */
export function checkWritesAllowed(status: SubscriptionStatus, method: string): void {
  if (status === 'active' || reading.has(method)) return;
  throw new ApiError('subscription_paused', {
    hint:
      status === 'paused'
        ? 'Reads and exports stay open. Resume the subscription with `POST /v1/subscription/resume`.'
        : 'The subscription is cancelled: reads and exports stay open. Reactivate it with `POST /v1/subscription/resume`.',
  });
}

/** The same gate for work the service does on the company's behalf (recurring runs). */
export function checkActive(status: SubscriptionStatus): void {
  checkWritesAllowed(status, 'POST');
}

export type SubscriptionMove = 'pause' | 'resume' | 'cancel';

const allowedFrom: Record<SubscriptionMove, readonly SubscriptionStatus[]> = {
  pause: ['active'],
  resume: ['paused', 'cancelled'],
  cancel: ['active', 'paused'],
};

export const statusAfter: Record<SubscriptionMove, SubscriptionStatus> = {
  pause: 'paused',
  resume: 'active',
  cancel: 'cancelled',
};

/** Refuses a move the status does not allow (`invalid_status_transition`). */
export function checkMove(status: SubscriptionStatus, move: SubscriptionMove): void {
  if (allowedFrom[move].includes(status)) return;
  throw refuse(
    'invalid_status_transition',
    `The subscription is ${status}: it cannot be ${move === 'pause' ? 'paused' : move === 'resume' ? 'resumed' : 'cancelled'} (${move} applies to a subscription that is ${allowedFrom[move].join(' or ')}).`,
  );
}
