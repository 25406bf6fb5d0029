import type { PlanName } from '../kernel/plans.js';
import type { SubscriptionStatus } from './subscription-rules.js';

/**
 * Stripe Billing, pure: what a `customer.subscription.*` event says (Stripe's Subscription object,
 * https://docs.stripe.com/api/subscriptions/object), the facteur subscription it stands for, and
 * the contract's events that moving there emits. Every such event carries the whole subscription,
 * so the state is taken from it, not from the event's type: a redelivered or reordered event leads
 * to the same state.
 */

export interface StripeSubscriptionFacts {
  eventId: string;
  type: string;
  /** When Stripe created the event (seconds): an event older than the last applied one is stale. */
  created: Date;
  subscriptionId: string;
  /** `metadata.facteur_company`, set when the subscription is made in Stripe (Checkout or the dashboard). */
  companyId: string | null;
  /** Stripe's status: `active`, `trialing`, `past_due`, `unpaid`, `paused`, `canceled`, `incomplete`, `incomplete_expired`. */
  status: string;
  /** The first item's price: the plan. */
  priceId: string | null;
  /** The current period (on the subscription in API versions before 2025-03-31, on its items since). */
  periodStart: Date | null;
  periodEnd: Date | null;
  /** Collection paused (`pause_collection` set): the service is paused too. */
  collectionPaused: boolean;
}

export type StripeBillingReading =
  | { kind: 'subscription'; facts: StripeSubscriptionFacts }
  | { kind: 'other'; eventId: string; type: string }
  | { kind: 'malformed'; reason: string };

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
const seconds = (value: unknown) => (Number.isSafeInteger(value) ? new Date((value as number) * 1000) : null);

/** Reads a signed Stripe Billing event; `other` for a type facteur does not follow. */
export function readStripeBillingEvent(raw: Buffer): StripeBillingReading {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(raw.toString('utf8'));
  } catch {
    return { kind: 'malformed', reason: 'not JSON' };
  }
  if (!event || typeof event !== 'object') return { kind: 'malformed', reason: 'not a Stripe event' };
  const eventId = text(event.id);
  const type = text(event.type);
  const created = seconds(event.created);
  if (event.object !== 'event' || !eventId || !type || !created)
    return { kind: 'malformed', reason: 'not a Stripe event' };
  if (!type.startsWith('customer.subscription.')) return { kind: 'other', eventId, type };
  const subscription = (event.data as { object?: Record<string, unknown> } | undefined)?.object;
  if (!subscription || subscription.object !== 'subscription' || !text(subscription.id) || !text(subscription.status))
    return { kind: 'malformed', reason: 'no subscription in data.object' };
  const items = (subscription.items as { data?: Record<string, unknown>[] } | undefined)?.data ?? [];
  const item = items[0];
  const price = (item?.price as Record<string, unknown> | undefined) ?? undefined;
  const metadata = (subscription.metadata as Record<string, unknown> | undefined) ?? {};
  return {
    kind: 'subscription',
    facts: {
      eventId,
      type,
      created,
      subscriptionId: subscription.id as string,
      companyId: text(metadata.facteur_company),
      status: subscription.status as string,
      priceId: text(price?.id),
      periodStart: seconds(subscription.current_period_start) ?? seconds(item?.current_period_start),
      periodEnd: seconds(subscription.current_period_end) ?? seconds(item?.current_period_end),
      collectionPaused: subscription.pause_collection !== null && subscription.pause_collection !== undefined,
    },
  };
}

export interface BilledState {
  plan: PlanName;
  status: SubscriptionStatus;
  periodStart: Date;
  periodEnd: Date;
  /** Why, in the contract's `reason` of the event a move emits. */
  reason: string;
}

/**
 * The facteur subscription a Stripe subscription stands for, or why none: its price must be a
 * plan's (FACTEUR_STRIPE_BILLING_PRICES), and a subscription whose first payment is not made yet
 * (`incomplete`) gives nothing yet. `past_due` stays active while Stripe retries the payment;
 * `unpaid` (its retries exhausted) pauses the service, as a paused collection does.
 */
export function billedState(
  facts: StripeSubscriptionFacts,
  prices: Partial<Record<PlanName, string>>,
): BilledState | { ignored: string } {
  if (facts.status === 'incomplete') return { ignored: 'incomplete: the first payment is not made yet' };
  const plan = (Object.keys(prices) as PlanName[]).find((name) => prices[name] === facts.priceId);
  if (!plan) return { ignored: `unknown_price: ${facts.priceId ?? 'none'} is not the price of a plan` };
  if (!facts.periodStart || !facts.periodEnd) return { ignored: 'no_period: the subscription gives no current period' };
  const period = { plan, periodStart: facts.periodStart, periodEnd: facts.periodEnd };
  switch (facts.status) {
    case 'canceled':
    case 'incomplete_expired':
      return { ...period, status: 'cancelled', reason: 'stripe_cancelled' };
    case 'unpaid':
      return { ...period, status: 'paused', reason: 'stripe_unpaid' };
    case 'paused':
      return { ...period, status: 'paused', reason: 'stripe_paused' };
    case 'active':
    case 'trialing':
    case 'past_due':
      return facts.collectionPaused
        ? { ...period, status: 'paused', reason: 'stripe_paused' }
        : { ...period, status: 'active', reason: 'stripe_active' };
    default:
      return { ignored: `unknown_status: ${facts.status}` };
  }
}

/** What the subscription is before a move, as far as the moves are concerned. */
export interface FollowedSubscription {
  plan: string;
  status: string;
  currentPeriodEnd: Date;
  providerSubscriptionId: string | null;
}

export interface ProviderMove {
  type: 'subscription.created' | 'subscription.paused' | 'subscription.cancelled' | 'subscription.renewed';
  reason: string;
}

/**
 * The contract's events a move to `after` emits: `subscription.created` when the subscription
 * starts following this Stripe subscription (then its status if it is not active); else one event
 * for a change of status (paused, cancelled, or renewed with `stripe_resumed`), or, still active,
 * `subscription.renewed` for a new plan (`plan_changed`) or a new period (`period_ended`); none
 * when nothing changed.
 */
export function providerMoves(
  before: FollowedSubscription,
  after: BilledState,
  subscriptionId: string,
): ProviderMove[] {
  const statusMove = (): ProviderMove[] => {
    if (after.status === 'paused') return [{ type: 'subscription.paused', reason: after.reason }];
    if (after.status === 'cancelled') return [{ type: 'subscription.cancelled', reason: after.reason }];
    return [];
  };
  if (before.providerSubscriptionId !== subscriptionId)
    return [{ type: 'subscription.created', reason: 'stripe_subscription_created' }, ...statusMove()];
  if (after.status !== before.status)
    return after.status === 'active' ? [{ type: 'subscription.renewed', reason: 'stripe_resumed' }] : statusMove();
  if (after.status !== 'active') return [];
  if (after.plan !== before.plan) return [{ type: 'subscription.renewed', reason: 'plan_changed' }];
  if (after.periodEnd.getTime() > before.currentPeriodEnd.getTime())
    return [{ type: 'subscription.renewed', reason: 'period_ended' }];
  return [];
}
