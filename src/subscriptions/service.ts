import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { Lookup } from '../db/lookup.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { currentVersion } from '../kernel/api-version.js';
import {
  isPlanName,
  planFeatures,
  planNames,
  plans,
  type PlanFeatures,
  type PlanLimits,
  type PlanName,
} from '../kernel/plans.js';
import { parseIsoInstant } from '../kernel/iso-date.js';
import { later } from '../kernel/clock.js';
import { announceAuthChange, forgetInThisProcess } from '../api-keys/service.js';
import { recordEvent } from '../webhooks/service.js';
import { countWebhookEndpoints } from '../webhooks/service.js';
import { countConnectedEstablishments } from '../establishments/service.js';
import { monthlyUsage } from '../limits/service.js';
import {
  checkActive,
  checkMove,
  firstPeriod,
  periodsDue,
  statusAfter,
  type SubscriptionMove,
  type SubscriptionStatus,
} from './subscription-rules.js';
import {
  addStoredBytes,
  claimSubscriptionsDue,
  deleteStoredBytes,
  findSubscription,
  insertSubscription,
  removeStoredBytes,
  storedBytes,
  updateSubscription,
  type SubscriptionRow,
  storedBytesLookup as storageUsageLookup,
  claimBillingEvent,
  findSubscriptionByProvider,
  settleBillingEvent,
} from './store.js';
import { billedState, providerMoves, readStripeBillingEvent, type StripeSubscriptionFacts } from './stripe-billing.js';
import { verifyStripeSignature } from '../card-payments/stripe-signature.js';

/**
 * The account holder's subscription: its plan (free, essential, pro), status (active, paused,
 * cancelled), monthly period and usage. Billing is outside the service: the plan is set by the
 * operator (`facteur company plan`) or by this API. The subscription belongs to the company, in
 * both environments; its events are live events.
 */

export type { SubscriptionStatus } from './subscription-rules.js';

export interface SubscriptionResource {
  object: 'subscription';
  livemode: boolean;
  plan: PlanName;
  status: SubscriptionStatus;
  /** The Stripe subscription it follows (Stripe Billing); null when billing is outside the service. */
  providerSubscriptionId: string | null;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  pausedAt: string | null;
  pausedUntil: string | null;
  cancelledAt: string | null;
  reason: string | null;
  limits: PlanLimits;
  features: PlanFeatures;
  usage: {
    period: string;
    documents: number;
    monthlyQuota: number;
    webhookEndpoints: number;
    establishments: number;
    storageBytes: number;
  };
  created: string;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** The contract's subscription data family (`status`, `plan`, `providerSubscriptionId`, `pausedUntil`, `reason`). */
function eventData(row: SubscriptionRow, reason: string): Record<string, unknown> {
  return {
    object: 'subscription',
    status: row.status,
    plan: row.plan,
    providerSubscriptionId: row.providerSubscriptionId,
    pausedUntil: iso(row.pausedUntil),
    reason,
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
  };
}

/** The request behind a change (null for the operator's command and the periodic pass). */
type Origin = Pick<CallContext, 'requestId' | 'idempotencyKey' | 'apiVersion'> | null;

/**
 * The subscription's events are live events, whichever key made the change: the subscription is
 * the account's real standing, not sandbox data (a sandbox reset never erases its history), and
 * the live endpoints hear it.
 */
async function announce(
  tx: Executor,
  row: SubscriptionRow,
  type: string,
  reason: string,
  at: Date,
  origin: Origin,
): Promise<void> {
  const ctx: CallContext = {
    scope: { companyId: row.companyId, livemode: true },
    requestId: origin?.requestId ?? null,
    idempotencyKey: origin?.idempotencyKey ?? null,
    apiVersion: origin?.apiVersion ?? currentVersion,
    now: at,
  };
  await recordEvent(tx, ctx, type, eventData(row, reason), at);
}

/** In the company's creating transaction: its subscription, active on `plan`, and `subscription.created`. */
export async function openSubscription(tx: Executor, companyId: string, plan: PlanName, now: Date): Promise<void> {
  const period = firstPeriod(now);
  const row: SubscriptionRow = {
    companyId,
    plan,
    status: 'active',
    currentPeriodStart: period.start,
    currentPeriodEnd: period.end,
    pausedAt: null,
    pausedUntil: null,
    cancelledAt: null,
    reason: 'company_created',
    providerSubscriptionId: null,
    providerSyncedAt: null,
    announced: true,
    created: now,
    updated: now,
  };
  await insertSubscription(tx, row);
  await announce(tx, row, 'subscription.created', 'company_created', now, null);
}

async function readSubscription(db: Executor, companyId: string, lock = false): Promise<SubscriptionRow> {
  const row = await findSubscription(db, companyId, lock);
  if (!row) throw new ApiError('not_found', { values: { detail: `No company ${companyId}.` }, param: 'company' });
  return row;
}

export async function getSubscription(
  deps: Pick<Deps, 'db' | 'pool' | 'clock'>,
  scope: Scope,
): Promise<SubscriptionResource> {
  const row = await readSubscription(deps.db, scope.companyId);
  const usage = await monthlyUsage(deps, scope.companyId, deps.clock.now());
  const limits = plans[row.plan as PlanName];
  return {
    object: 'subscription',
    livemode: scope.livemode,
    plan: row.plan as PlanName,
    status: row.status as SubscriptionStatus,
    providerSubscriptionId: row.providerSubscriptionId,
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    pausedAt: iso(row.pausedAt),
    pausedUntil: iso(row.pausedUntil),
    cancelledAt: iso(row.cancelledAt),
    reason: row.reason,
    limits,
    features: planFeatures[row.plan as PlanName],
    usage: {
      period: usage.period,
      documents: usage.counts.documents ?? 0,
      monthlyQuota: limits.monthlyQuota,
      webhookEndpoints: await countWebhookEndpoints(deps, scope),
      establishments: await countConnectedEstablishments(deps.db, scope),
      storageBytes: await storedBytes(deps.db, scope),
    },
    created: row.created.toISOString(),
  };
}

/**
 * A change of the subscription: one transaction as no single tenant (a test key's request writes
 * a live event), with the request's idempotency mark; the cached
 * authentications of the company (which carry its plan and status) are forgotten on every node
 * when it commits, and on this one again after.
 */
async function changeSubscription<T>(
  deps: Pick<Deps, 'db'>,
  companyId: string,
  ctx: CallContext | null,
  work: (tx: Tx, row: SubscriptionRow) => Promise<T>,
): Promise<T> {
  const result = await inTransaction(deps.db, null, async (tx) => {
    const row = await readSubscription(tx, companyId, true);
    const value = await work(tx, row);
    await announceAuthChange(tx, `company:${companyId}`);
    await ctx?.markEffect?.(tx);
    return value;
  });
  forgetInThisProcess(`company:${companyId}`);
  return result;
}

/** Test keys read the subscription; changing it, which the live environment lives by, takes a live key. */
function liveOnly(ctx: CallContext): void {
  if (!ctx.scope.livemode)
    throw refuse(
      'not_supported',
      'The subscription belongs to the account, in both environments: change it with a `svc_live_` key (or the operator, with `facteur company plan`).',
    );
}

/** A subscription Stripe Billing drives moves by Stripe's events only: a change here would be undone by the next one. */
function refuseWhenBilledByStripe(row: SubscriptionRow): void {
  if (row.providerSubscriptionId)
    throw refuse(
      'not_supported',
      `The subscription is billed through Stripe (${row.providerSubscriptionId}): change its plan, pause or cancel it in Stripe (the customer portal), and facteur follows.`,
    );
}

const reasonOf = (reason: string | undefined, fallback: string) => reason?.trim() || fallback;

/**
 * Changes the plan (the API with a live key, or the operator's command with no request). It takes
 * effect at once, period unchanged; the limits of the new plan apply to what comes next (nothing
 * existing is removed by a downgrade). Emits `subscription.renewed` with `reason: plan_changed`:
 * the contract has no other subscription event for it.
 */
export async function changePlan(
  deps: Pick<Deps, 'db' | 'clock'>,
  ctx: CallContext | null,
  companyId: string,
  plan: string,
): Promise<SubscriptionRow> {
  if (ctx) liveOnly(ctx);
  if (!isPlanName(plan))
    throw refuse('validation_error', `Plan must be one of ${planNames.join(', ')}.`, { param: 'plan' });
  const now = deps.clock.now();
  return changeSubscription(deps, companyId, ctx, async (tx, row) => {
    refuseWhenBilledByStripe(row);
    if (row.plan === plan) return row;
    const changed = await updateSubscription(tx, companyId, { plan, reason: 'plan_changed', updated: now });
    await announce(tx, changed, 'subscription.renewed', 'plan_changed', now, ctx);
    return changed;
  });
}

export interface PauseInput {
  /** When the pause ends by itself (ISO 8601 date or date-time); none: until resumed. */
  until?: string | undefined;
  reason?: string | undefined;
}

function pauseEnd(until: string | undefined, now: Date): Date | null {
  if (until === undefined) return null;
  const at = parseIsoInstant(until);
  if (!at)
    throw refuse('validation_error', '`until` is an ISO 8601 date (2027-01-31) or date-time with a zone.', {
      param: 'until',
    });
  if (at.getTime() <= now.getTime())
    throw refuse('invalid_field_value', '`until` must be in the future.', { param: 'until' });
  return at;
}

/** Pause, resume or cancel, by the API (live key). */
export async function moveSubscription(
  deps: Pick<Deps, 'db' | 'clock'>,
  ctx: CallContext,
  move: SubscriptionMove,
  input: PauseInput = {},
): Promise<SubscriptionRow> {
  liveOnly(ctx);
  const now = deps.clock.now();
  const pausedUntil = move === 'pause' ? pauseEnd(input.until, now) : null;
  return changeSubscription(deps, ctx.scope.companyId, ctx, async (tx, row) => {
    refuseWhenBilledByStripe(row);
    checkMove(row.status as SubscriptionStatus, move);
    if (move === 'resume') return resume(tx, row, now, 'resumed', ctx);
    const reason = reasonOf(input.reason, move === 'pause' ? 'paused_by_request' : 'cancelled_by_request');
    const changed = await updateSubscription(tx, row.companyId, {
      status: statusAfter[move],
      reason,
      updated: now,
      ...(move === 'pause' ? { pausedAt: now, pausedUntil } : { cancelledAt: now, pausedUntil: null }),
    });
    await announce(tx, changed, move === 'pause' ? 'subscription.paused' : 'subscription.cancelled', reason, now, ctx);
    return changed;
  });
}

/**
 * Active again. A period that ended meanwhile is not renewed after the fact: a new one starts
 * now (to the end of this month). The contract has no `resumed` event: `subscription.renewed`
 * with `reason: resumed` carries the active status.
 */
async function resume(
  tx: Tx,
  row: SubscriptionRow,
  now: Date,
  reason: string,
  origin: Origin,
): Promise<SubscriptionRow> {
  const period = row.currentPeriodEnd.getTime() <= now.getTime() ? firstPeriod(now) : null;
  const changed = await updateSubscription(tx, row.companyId, {
    status: 'active',
    pausedAt: null,
    pausedUntil: null,
    cancelledAt: null,
    reason,
    updated: now,
    ...(period ? { currentPeriodStart: period.start, currentPeriodEnd: period.end } : {}),
  });
  await announce(tx, changed, 'subscription.renewed', reason, now, origin);
  return changed;
}

/**
 * The periodic pass, on real time: announces the subscriptions the migration made
 * (`subscription.created`), resumes pauses whose end came, and renews active subscriptions whose
 * period ended (`subscription.renewed`, one per period). Rows are locked `SKIP LOCKED`, so two
 * nodes never move one twice.
 */
export async function advanceSubscriptions(
  deps: Pick<Deps, 'db' | 'clock'>,
  options: { companyIds?: string[]; batch?: number } = {},
): Promise<number> {
  const batch = options.batch ?? 100;
  let total = 0;
  for (;;) {
    const resumed: string[] = [];
    const moved = await inTransaction(deps.db, null, async (tx) => {
      const now = deps.clock.now();
      const due = await claimSubscriptionsDue(tx, now, batch, options.companyIds);
      for (const { row, work } of due) {
        if (work === 'announce') {
          await updateSubscription(tx, row.companyId, { announced: true });
          await announce(tx, row, 'subscription.created', 'existing_company', now, null);
        } else if (work === 'resume') {
          await resume(tx, row, now, 'pause_ended', null);
          // Cached authentications carry the status: every node forgets them at the commit.
          await announceAuthChange(tx, `company:${row.companyId}`);
          resumed.push(row.companyId);
        } else {
          let current = row;
          for (const [index, period] of periodsDue(row.currentPeriodEnd, now).entries()) {
            current = await updateSubscription(tx, row.companyId, {
              currentPeriodStart: period.start,
              currentPeriodEnd: period.end,
              reason: 'period_ended',
              updated: now,
            });
            await announce(tx, current, 'subscription.renewed', 'period_ended', later(now, index), null);
          }
        }
      }
      return due.length;
    });
    for (const companyId of resumed) forgetInThisProcess(`company:${companyId}`);
    total += moved;
    if (moved < batch) return total;
  }
}

/** For work the service does on the company's behalf: `subscription_paused` unless active. */
export async function checkSubscriptionActive(db: Executor, companyId: string): Promise<void> {
  checkActive((await readSubscription(db, companyId)).status as SubscriptionStatus);
}

/** The company's plan, read in the caller's transaction. */
export async function planOf(db: Executor, companyId: string): Promise<PlanName> {
  return (await readSubscription(db, companyId)).plan as PlanName;
}

/**
 * Files count against the plan's storage, per environment: a capability that stores a file
 * reserves its bytes in the transaction that records it (`storage_quota_exceeded` past the plan's
 * storage; nothing is counted if the transaction rolls back), and releases them when it deletes it.
 */
export async function reserveStorage(tx: Executor, scope: Scope, bytes: number): Promise<void> {
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new Error(`cannot reserve ${bytes} bytes`);
  const plan = await planOf(tx, scope.companyId);
  const limit = plans[plan].storageBytes;
  if (!(await addStoredBytes(tx, scope, bytes, limit))) {
    throw new ApiError('storage_quota_exceeded', {
      values: { plan },
      hint: `The ${plan} plan stores ${limit} bytes per environment; delete files or upgrade the plan.`,
    });
  }
}

/**
 * A file the service must keep whatever the storage: a finalized document's legal files, an
 * invoice the platform delivered. Counted in the transaction that stores it, never refused (a
 * document already numbered must get its files, a received invoice must be kept); the storage
 * past the plan's then refuses what would add more (`checkStorageRoom`: finalizations) and what
 * the company asks for (exports, `reserveStorage`).
 */
export async function countStorage(tx: Executor, scope: Scope, bytes: number): Promise<void> {
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new Error(`cannot count ${bytes} bytes`);
  if (bytes === 0) return;
  await addStoredBytes(tx, scope, bytes, Number.MAX_SAFE_INTEGER);
}

/**
 * Refuses with `storage_quota_exceeded` when the scope's storage is used up (its stored bytes
 * reach the plan's storage): a finalization, whose files will be counted whatever their size,
 * checks it first. `plan`, when the caller holds it, saves reading it again.
 */
export async function checkStorageRoom(tx: Executor, scope: Scope, plan?: PlanName): Promise<void> {
  const name = plan ?? (await planOf(tx, scope.companyId));
  checkStorageBytes(name, await storedBytes(tx, scope));
}

/** The company's stored bytes, read inside a caller's bigger statement (one round trip): `checkStorageRoom` then judges them. */
export function storedBytesLookup(scope: Scope): Lookup<number> {
  return storageUsageLookup(scope);
}

/** `checkStorageRoom` on the bytes a lookup read (`storedBytesLookup`) in a bigger statement. */
export function checkStorageBytes(name: PlanName, bytes: number): void {
  const limit = plans[name].storageBytes;
  if (bytes >= limit) {
    throw new ApiError('storage_quota_exceeded', {
      values: { plan: name },
      hint: `The ${name} plan stores ${limit} bytes per environment and its files fill it: documents are not finalized until files are deleted (expired exports, a sandbox reset) or the plan is upgraded.`,
    });
  }
}

export async function releaseStorage(tx: Executor, scope: Scope, bytes: number): Promise<void> {
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new Error(`cannot release ${bytes} bytes`);
  await removeStoredBytes(tx, scope, bytes);
}

/** Sandbox reset: the test files go with the test data, and so does their count. */
export async function purgeTestStorage(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live storage');
  return deleteStoredBytes(tx, scope);
}

export type BillingDelivery =
  | { kind: 'unknown' }
  | { kind: 'malformed'; reason: string }
  | {
      kind: 'acknowledged';
      eventId: string;
      outcome: 'applied' | 'unchanged' | 'ignored' | 'duplicate' | 'other';
      reason: string | null;
    };

/**
 * `POST /billing/stripe`: an event of the operator's Stripe Billing, signed with its endpoint's
 * secret (a Stripe endpoint is of one mode, so its secret says live or test). A
 * `customer.subscription.*` event moves the company's subscription to what the Stripe
 * subscription says (plan from its price, status, period) and emits the contract's events for it,
 * in the transaction that claims the event's id: a redelivery, a replay or two deliveries at once
 * move it once, and an event older than the last applied one changes nothing.
 */
export async function receiveStripeBillingEvent(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  raw: Buffer,
  signature: string | undefined,
  now: Date = new Date(),
): Promise<BillingDelivery> {
  const billing = deps.config.stripeBilling;
  if (!billing) return { kind: 'unknown' };
  if (!verifyStripeSignature(raw, signature, billing.webhookSecret, now).valid) return { kind: 'unknown' };
  const reading = readStripeBillingEvent(raw);
  if (reading.kind === 'malformed') return reading;
  if (reading.kind === 'other')
    return { kind: 'acknowledged', eventId: reading.eventId, outcome: 'other', reason: null };
  const { facts } = reading;
  const touched: string[] = [];
  const delivery = await inTransaction(deps.db, null, async (tx): Promise<BillingDelivery> => {
    const claimed = await claimBillingEvent(tx, {
      provider: 'stripe',
      eventId: facts.eventId,
      type: facts.type,
      companyId: null,
      outcome: 'applied',
      reason: null,
      received: now,
    });
    if (!claimed) return { kind: 'acknowledged', eventId: facts.eventId, outcome: 'duplicate', reason: null };
    const result = await followStripeSubscription(tx, facts, billing.prices, now);
    await settleBillingEvent(tx, { provider: 'stripe', eventId: facts.eventId, ...result });
    if (result.outcome === 'applied' && result.companyId) {
      await announceAuthChange(tx, `company:${result.companyId}`);
      touched.push(result.companyId);
    }
    return { kind: 'acknowledged', eventId: facts.eventId, outcome: result.outcome, reason: result.reason };
  });
  for (const companyId of touched) forgetInThisProcess(`company:${companyId}`);
  if (delivery.kind === 'acknowledged' && delivery.outcome === 'ignored')
    deps.log.warn({ eventId: facts.eventId, reason: delivery.reason }, 'stripe billing event ignored');
  return delivery;
}

/** The company's subscription moved to the Stripe subscription's state, with its events. */
async function followStripeSubscription(
  tx: Tx,
  facts: StripeSubscriptionFacts,
  prices: Partial<Record<PlanName, string>>,
  now: Date,
): Promise<{ companyId: string | null; outcome: 'applied' | 'unchanged' | 'ignored'; reason: string | null }> {
  const ignored = (companyId: string | null, reason: string) => ({ companyId, outcome: 'ignored' as const, reason });
  // The link made by an earlier event is authoritative; the metadata names the company the first time.
  const row =
    (await findSubscriptionByProvider(tx, facts.subscriptionId)) ??
    (facts.companyId ? await findSubscription(tx, facts.companyId, true) : undefined);
  if (!row)
    return ignored(
      facts.companyId,
      'no_company: the subscription names no company of this service (metadata.facteur_company)',
    );
  const following = row.providerSubscriptionId === facts.subscriptionId;
  if (row.providerSubscriptionId && !following && facts.type !== 'customer.subscription.created')
    return ignored(row.companyId, `superseded: the company follows ${row.providerSubscriptionId}`);
  if (following && row.providerSyncedAt && facts.created.getTime() < row.providerSyncedAt.getTime())
    return ignored(row.companyId, 'stale: a later event of this subscription was applied');
  const state = billedState(facts, prices);
  if ('ignored' in state) return ignored(row.companyId, state.ignored);
  const moves = providerMoves(row, state, facts.subscriptionId);
  const changed = await updateSubscription(tx, row.companyId, {
    plan: state.plan,
    status: state.status,
    currentPeriodStart: state.periodStart,
    currentPeriodEnd: state.periodEnd,
    providerSubscriptionId: facts.subscriptionId,
    providerSyncedAt: facts.created,
    pausedAt: state.status === 'paused' ? (row.status === 'paused' ? row.pausedAt : now) : null,
    pausedUntil: null,
    cancelledAt: state.status === 'cancelled' ? (row.status === 'cancelled' ? row.cancelledAt : now) : null,
    ...(moves.length > 0 ? { reason: moves.at(-1)!.reason } : {}),
    updated: now,
  });
  for (const [index, move] of moves.entries())
    await announce(tx, changed, move.type, move.reason, later(now, index), null);
  const same =
    moves.length === 0 &&
    row.plan === changed.plan &&
    row.status === changed.status &&
    row.currentPeriodStart.getTime() === changed.currentPeriodStart.getTime() &&
    row.currentPeriodEnd.getTime() === changed.currentPeriodEnd.getTime();
  return { companyId: row.companyId, outcome: same ? 'unchanged' : 'applied', reason: null };
}
