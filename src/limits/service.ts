import type pg from 'pg';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { ApiError } from '../kernel/errors.js';
import { plans, type PlanName } from '../kernel/plans.js';
import { rateLimitRefusals } from '../kernel/metrics.js';
import { secondsUntil, unixSeconds, usagePeriod, windowOf, type WindowUnit } from './fixed-window.js';
import {
  consumeUsage,
  decrementAuthFailures,
  deleteStaleAuthFailures,
  deleteWindowsBefore,
  readUsage,
  recordAuthFailure,
  WindowCounter,
  type WindowHit,
} from './store.js';

/** One batching counter per pool (per node): requests counted at the same moment share a statement. */
const counters = new WeakMap<pg.Pool, WindowCounter>();
function counterOf(pool: pg.Pool): WindowCounter {
  let counter = counters.get(pool);
  if (!counter) counters.set(pool, (counter = new WindowCounter(pool)));
  return counter;
}

/** A per-route limit of the contract (finalize 10/minute, FEC 5/day, import 2/hour): live keys only. */
export interface RouteLimit {
  /** Names the counter; routes sharing a name share it. */
  name: string;
  max: number;
  per: WindowUnit;
}

export interface RateState {
  limit: number;
  remaining: number;
  /** Unix seconds of the start of the next UTC minute. */
  reset: number;
}

export interface RateCheck {
  keyId: string;
  livemode: boolean;
  plan: PlanName;
  method: string;
  routeLimit: RouteLimit | null;
}

/** Test-mode reads are exempt from the per-minute limit (Limits, rule 2). */
export function isRateLimited(livemode: boolean, method: string): boolean {
  return livemode || (method !== 'GET' && method !== 'HEAD');
}

/**
 * Counts the request in its key's UTC minute (and in its route's window for live keys) and
 * returns the header values, or throws `rate_limit_exceeded` with Retry-After.
 */
export async function countRequest(deps: Pick<Deps, 'fast'>, check: RateCheck, now: Date): Promise<RateState> {
  const minute = windowOf(now, 'minute');
  const limit = plans[check.plan].requestsPerMinute;
  const hits: WindowHit[] = [{ bucket: `key:${check.keyId}`, windowStart: minute.start, limit }];
  const route = check.livemode && check.routeLimit ? check.routeLimit : null;
  const routeWindow = route ? windowOf(now, route.per) : null;
  if (route && routeWindow)
    hits.push({ bucket: `route:${route.name}:${check.keyId}`, windowStart: routeWindow.start, limit: route.max });
  const [count = 0, routeCount = 0] = await counterOf(deps.fast.pool).count(hits);
  const state: RateState = { limit, remaining: Math.max(0, limit - count), reset: unixSeconds(minute.end) };
  if (count > limit) {
    rateLimitRefusals.labels('key_minute').inc();
    throw rateLimitExceeded(
      `More than ${limit} requests in this minute for this key (plan ${check.plan}).`,
      secondsUntil(minute.end, now),
      state,
    );
  }
  if (route && routeWindow && routeCount > route.max) {
    rateLimitRefusals.labels('route').inc();
    throw rateLimitExceeded(
      `More than ${route.max} calls per ${route.per} to this endpoint for this key in live mode.`,
      secondsUntil(routeWindow.end, now),
      state,
    );
  }
  return state;
}

function rateLimitExceeded(detail: string, retryAfter: number, state: RateState): ApiError {
  return new ApiError('rate_limit_exceeded', {
    values: { detail },
    headers: {
      'Retry-After': String(retryAfter),
      'X-RateLimit-Limit': String(state.limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(state.reset),
    },
  });
}

/**
 * Records a failed authentication against `subject` (a client address; the sign-in adds its own
 * prefixed subjects); returns the seconds to wait when the subject is now blocked.
 */
export async function registerAuthFailure(
  deps: Pick<Deps, 'fast' | 'config'>,
  subject: string,
  now: Date,
): Promise<number | null> {
  const { authFailureLimit, authFailureWindowSeconds, authBlockSeconds } = deps.config;
  const until = await recordAuthFailure(deps.fast.db, subject, now, {
    limit: authFailureLimit,
    windowSeconds: authFailureWindowSeconds,
    blockSeconds: authBlockSeconds,
  });
  return until ? secondsUntil(until, now) : null;
}

/** Takes back a failure registered in advance for an attempt that proved right (the sign-in). */
export async function withdrawAuthFailure(deps: Pick<Deps, 'fast' | 'clock'>, subject: string): Promise<void> {
  await decrementAuthFailures(deps.fast.db, subject, deps.clock.now());
}

export type QuotaMetric = 'documents';

/**
 * Consumes live monthly quota inside the caller's transaction, so a refused or rolled-back
 * operation consumes nothing. Test-mode operations never count (Limits, rule 2).
 */
export async function consumeMonthlyQuota(
  tx: Executor,
  scope: Scope,
  plan: PlanName,
  metric: QuotaMetric,
  now: Date,
  amount = 1,
): Promise<void> {
  if (!scope.livemode) return;
  const limit = plans[plan].monthlyQuota;
  const period = usagePeriod(now);
  if (!(await consumeUsage(tx, scope.companyId, period, metric, amount, limit))) {
    throw new ApiError('quota_exceeded', { values: { limit, metric, plan, period } });
  }
}

export async function monthlyUsage(
  deps: Pick<Deps, 'pool'>,
  companyId: string,
  now: Date,
): Promise<{ period: string; counts: Record<string, number> }> {
  const period = usagePeriod(now);
  return { period, counts: await readUsage(deps.pool, companyId, period) };
}

/**
 * Drops rate windows older than two days (nothing reads them after their minute), and the failure
 * counts whose window ended with no block running.
 */
export async function purgeRateWindows(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<number> {
  const now = deps.clock.now();
  const windows = await deleteWindowsBefore(deps.db, new Date(now.getTime() - 2 * 86_400_000));
  return windows + (await deleteStaleAuthFailures(deps.db, now, deps.config.authFailureWindowSeconds));
}
