import { test } from 'node:test';
import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { startHarness, type Harness } from '../support/harness.js';
import type { StripeEventShape } from '../support/stripe-shape.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import {
  billedState,
  providerMoves,
  readStripeBillingEvent,
  type FollowedSubscription,
} from '../../src/subscriptions/stripe-billing.js';

/**
 * Stripe Billing: with the operator's Stripe Billing configured, a company's subscription follows
 * its Stripe subscription (plan from the price, status, period), moved by Stripe's signed events,
 * each applied once, and neither the API nor the periodic pass moves it any more.
 */

const stripe = new Stripe('sk_test_only_for_signatures');
const webhookSecret = 'whsec_billing0123456789abcdef';
const prices = { essential: 'price_Essential0001', pro: 'price_Pro000000001' };

const sign = (payload: string, secret = webhookSecret) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) });

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

interface SubscriptionShape {
  id?: string;
  companyId?: string | null;
  status?: string;
  price?: string;
  periodStart?: string;
  periodEnd?: string;
  pauseCollection?: boolean;
}

/** A `customer.subscription.*` event of the shape Stripe sends (API 2025-09-30: the period on the item). */
function subscriptionEvent(
  type: Stripe.Event.Type,
  shape: SubscriptionShape = {},
  event: { id?: string; created?: number } = {},
): string {
  const periodStart = seconds(shape.periodStart ?? '2026-12-01T00:00:00Z');
  const periodEnd = seconds(shape.periodEnd ?? '2027-01-01T00:00:00Z');
  const body: StripeEventShape<Stripe.Subscription> = {
    id: event.id ?? `evt_${Math.random().toString(36).slice(2, 14)}`,
    object: 'event',
    api_version: '2025-09-30.clover',
    created: event.created ?? Math.floor(Date.now() / 1000),
    livemode: true,
    type,
    data: {
      object: {
        id: shape.id ?? 'sub_1Billing',
        object: 'subscription',
        customer: 'cus_1Billing',
        status: shape.status ?? 'active',
        metadata: shape.companyId === null ? {} : { facteur_company: shape.companyId ?? 'co_unknown' },
        pause_collection: shape.pauseCollection ? { behavior: 'void', resumes_at: null } : null,
        items: {
          object: 'list',
          data: [
            {
              id: 'si_1Billing',
              object: 'subscription_item',
              price: { id: shape.price ?? prices.pro, object: 'price' },
              current_period_start: periodStart,
              current_period_end: periodEnd,
            },
          ],
        },
      },
    },
  };
  return JSON.stringify(body);
}

const factsOf = (payload: string) => {
  const reading = readStripeBillingEvent(Buffer.from(payload));
  assert.equal(reading.kind, 'subscription');
  return (reading as Extract<typeof reading, { kind: 'subscription' }>).facts;
};

test('Stripe Billing events read: the subscription, its price, period and status', () => {
  const facts = factsOf(subscriptionEvent('customer.subscription.updated', { companyId: 'co_1' }, { id: 'evt_1' }));
  assert.equal(facts.eventId, 'evt_1');
  assert.equal(facts.subscriptionId, 'sub_1Billing');
  assert.equal(facts.companyId, 'co_1');
  assert.equal(facts.priceId, prices.pro);
  assert.equal(facts.periodEnd?.toISOString(), '2027-01-01T00:00:00.000Z');
  // An older API version carries the period on the subscription itself.
  const old = JSON.parse(subscriptionEvent('customer.subscription.updated'));
  old.data.object.current_period_end = seconds('2027-02-01T00:00:00Z');
  assert.equal(
    factsOf(JSON.stringify(old)).periodEnd?.toISOString(),
    '2027-02-01T00:00:00.000Z',
    'the subscription period, where the version has one',
  );
  assert.equal(readStripeBillingEvent(Buffer.from(subscriptionEvent('invoice.paid'))).kind, 'other');
  assert.equal(readStripeBillingEvent(Buffer.from('{"object":"event"')).kind, 'malformed');
  const noObject = JSON.parse(subscriptionEvent('customer.subscription.updated'));
  noObject.data.object.object = 'customer';
  assert.equal(readStripeBillingEvent(Buffer.from(JSON.stringify(noObject))).kind, 'malformed');
});

test("Stripe's statuses map to the subscription's, and the moves emit the contract's events", () => {
  const state = (shape: SubscriptionShape) =>
    billedState(factsOf(subscriptionEvent('customer.subscription.updated', shape)), prices);
  const statusOf = (shape: SubscriptionShape) => {
    const result = state(shape);
    return 'ignored' in result ? result.ignored.split(':')[0] : result.status;
  };
  assert.equal(statusOf({ status: 'active' }), 'active');
  assert.equal(statusOf({ status: 'trialing' }), 'active');
  assert.equal(statusOf({ status: 'past_due' }), 'active', 'Stripe is still retrying the payment');
  assert.equal(statusOf({ status: 'unpaid' }), 'paused');
  assert.equal(statusOf({ status: 'paused' }), 'paused');
  assert.equal(statusOf({ status: 'active', pauseCollection: true }), 'paused');
  assert.equal(statusOf({ status: 'canceled' }), 'cancelled');
  assert.equal(statusOf({ status: 'incomplete_expired' }), 'cancelled');
  assert.equal(statusOf({ status: 'incomplete' }), 'incomplete');
  assert.equal(statusOf({ price: 'price_Unknown00001' }), 'unknown_price');
  const essential = state({ price: prices.essential });
  assert.ok(!('ignored' in essential) && essential.plan === 'essential');

  const active = state({}) as Exclude<ReturnType<typeof state>, { ignored: string }>;
  const linked: FollowedSubscription = {
    plan: 'pro',
    status: 'active',
    currentPeriodEnd: new Date('2027-01-01T00:00:00Z'),
    providerSubscriptionId: 'sub_1Billing',
  };
  const types = (before: typeof linked, after: typeof active) =>
    providerMoves(before, after, 'sub_1Billing').map((move) => `${move.type}/${move.reason}`);
  assert.deepEqual(types({ ...linked, providerSubscriptionId: null }, active), [
    'subscription.created/stripe_subscription_created',
  ]);
  assert.deepEqual(types({ ...linked, providerSubscriptionId: null }, { ...active, status: 'paused' }), [
    'subscription.created/stripe_subscription_created',
    'subscription.paused/stripe_active',
  ]);
  assert.deepEqual(types(linked, active), [], 'nothing changed: no event');
  assert.deepEqual(types(linked, { ...active, plan: 'essential' }), ['subscription.renewed/plan_changed']);
  assert.deepEqual(types(linked, { ...active, periodEnd: new Date('2027-02-01T00:00:00Z') }), [
    'subscription.renewed/period_ended',
  ]);
  assert.deepEqual(types(linked, { ...active, status: 'cancelled', reason: 'stripe_cancelled' }), [
    'subscription.cancelled/stripe_cancelled',
  ]);
  assert.deepEqual(types({ ...linked, status: 'paused' }, active), ['subscription.renewed/stripe_resumed']);
});

test('FACTEUR_STRIPE_BILLING_*: all or nothing, a price per paid plan', () => {
  const base = { FACTEUR_ENCRYPTION_KEY: undefined } as NodeJS.ProcessEnv;
  assert.equal(loadConfig(base).stripeBilling, null);
  const configured = loadConfig({
    ...base,
    FACTEUR_STRIPE_BILLING_WEBHOOK_SECRET: webhookSecret,
    FACTEUR_STRIPE_BILLING_PRICES: `essential=${prices.essential}, pro=${prices.pro}`,
  });
  assert.deepEqual(configured.stripeBilling, { webhookSecret, prices });
  for (const env of [
    { FACTEUR_STRIPE_BILLING_PRICES: `pro=${prices.pro}` },
    { FACTEUR_STRIPE_BILLING_WEBHOOK_SECRET: webhookSecret },
    { FACTEUR_STRIPE_BILLING_WEBHOOK_SECRET: webhookSecret, FACTEUR_STRIPE_BILLING_PRICES: `free=${prices.pro}` },
    { FACTEUR_STRIPE_BILLING_WEBHOOK_SECRET: webhookSecret, FACTEUR_STRIPE_BILLING_PRICES: 'pro=12' },
    {
      FACTEUR_STRIPE_BILLING_WEBHOOK_SECRET: webhookSecret,
      FACTEUR_STRIPE_BILLING_PRICES: `essential=${prices.pro},pro=${prices.pro}`,
    },
  ])
    assert.throws(() => loadConfig({ ...base, ...env }), ConfigError, JSON.stringify(env));
});

test('a subscription billed through Stripe follows its Stripe subscription', async (t) => {
  const h: Harness = await startHarness({
    config: { stripeBilling: { webhookSecret, prices } },
  });
  t.after(() => h.close());
  const deliver = (payload: string, signature = sign(payload)) =>
    h.call('POST', '/billing/stripe', {
      body: payload,
      headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
    });
  const subscriptionEvents = async (key: string) => {
    const response = await h.call('GET', '/v1/events?limit=100', { key });
    return response.data.data
      .filter((event: any) => event.type.startsWith('subscription.'))
      .map((event: any) => `${event.type}/${event.data.reason}`)
      .reverse();
  };

  const companyId = await h.company({ plan: 'free' });
  const live = await h.key(companyId, { env: 'live' });
  const subscription = async () => (await h.call('GET', '/v1/subscription', { key: live })).data;

  await t.test('forged, unsigned or unknown: 404, nothing moves', async () => {
    const payload = subscriptionEvent('customer.subscription.created', { companyId });
    for (const response of [
      await deliver(payload, sign(payload, 'whsec_attacker000000000000')),
      await h.call('POST', '/billing/stripe', { body: payload, headers: { 'content-type': 'application/json' } }),
    ]) {
      assert.equal(response.statusCode, 404, response.body);
      assert.equal(response.data.error.code, 'not_found');
    }
    assert.equal((await subscription()).providerSubscriptionId, null);
  });

  await t.test('signed but not a Stripe event: 422 validation_error in the envelope, nothing moves', async () => {
    const response = await deliver('{"object":"not-an-event"}');
    assert.equal(response.statusCode, 422, response.body);
    assert.equal(response.data.error.code, 'validation_error');
    assert.ok(!response.body.includes('    at '), 'no stack trace');
    assert.equal((await subscription()).providerSubscriptionId, null);
  });

  await t.test('created: linked, plan and period from Stripe, subscription.created once', async () => {
    const payload = subscriptionEvent('customer.subscription.created', { companyId }, { id: 'evt_created' });
    const [first, second] = await Promise.all([deliver(payload), deliver(payload)]);
    assert.deepEqual([first.statusCode, second.statusCode], [200, 200], `${first.body} ${second.body}`);
    assert.deepEqual([first.data.outcome, second.data.outcome].sort(), ['applied', 'duplicate']);
    assert.equal((await deliver(payload)).data.outcome, 'duplicate');
    const now = await subscription();
    assert.equal(now.plan, 'pro');
    assert.equal(now.status, 'active');
    assert.equal(now.providerSubscriptionId, 'sub_1Billing');
    assert.equal(now.currentPeriodEnd, '2027-01-01T00:00:00.000Z');
    assert.equal(now.limits.monthlyQuota, 50_000, "the pro plan's limits apply");
    const created = (await h.call('GET', '/v1/events?limit=100&type=subscription.created', { key: live })).data.data;
    const linked = created.filter((event: any) => event.data.providerSubscriptionId === 'sub_1Billing');
    assert.equal(linked.length, 1);
    assert.equal(linked[0].data.reason, 'stripe_subscription_created');
  });

  await t.test(
    'renewed, plan changed, paused, resumed, cancelled: each once, stale events change nothing',
    async () => {
      const updated = (shape: SubscriptionShape, event: { id?: string; created?: number } = {}) =>
        deliver(subscriptionEvent('customer.subscription.updated', { companyId, ...shape }, event));
      const renewal = { periodStart: '2027-01-01T00:00:00Z', periodEnd: '2027-02-01T00:00:00Z' };
      assert.equal((await updated(renewal)).data.outcome, 'applied');
      assert.equal((await updated(renewal)).data.outcome, 'unchanged', 'a new event with the same state');
      assert.equal((await updated({ ...renewal, price: prices.essential })).data.outcome, 'applied');
      assert.equal((await subscription()).plan, 'essential');
      const paused = await updated({ ...renewal, price: prices.essential, pauseCollection: true }, { id: 'evt_pause' });
      assert.equal(paused.data.outcome, 'applied');
      assert.equal((await subscription()).status, 'paused');
      const blocked = await h.call('POST', '/v1/customers', { key: live, body: { name: 'Atelier Lumière SAS' } });
      assert.equal(blocked.statusCode, 400, blocked.body);
      assert.equal(blocked.data.error.code, 'subscription_paused');

      // An event Stripe created before the pause, delivered after it.
      const stale = await updated(
        { ...renewal, price: prices.essential },
        { created: Math.floor(Date.now() / 1000) - 60 },
      );
      assert.equal(stale.data.outcome, 'ignored');
      assert.match(stale.data.reason, /^stale/);
      assert.equal((await subscription()).status, 'paused');

      // The API no longer moves it: Stripe would undo it.
      const local = await h.call('POST', '/v1/subscription/resume', { key: live });
      assert.equal(local.statusCode, 400, local.body);
      assert.equal(local.data.error.code, 'not_supported');
      assert.match(local.data.error.message, /billed through Stripe \(sub_1Billing\)/);

      assert.equal(
        (
          await deliver(
            subscriptionEvent('customer.subscription.resumed', { companyId, ...renewal, price: prices.essential }),
          )
        ).data.outcome,
        'applied',
      );
      assert.equal((await subscription()).status, 'active');
      const deleted = await deliver(
        subscriptionEvent('customer.subscription.deleted', { companyId, ...renewal, status: 'canceled' }),
      );
      assert.equal(deleted.data.outcome, 'applied');
      const cancelled = await subscription();
      assert.equal(cancelled.status, 'cancelled');
      assert.ok(cancelled.cancelledAt);

      assert.deepEqual((await subscriptionEvents(live)).slice(-6), [
        'subscription.created/stripe_subscription_created',
        'subscription.renewed/period_ended',
        'subscription.renewed/plan_changed',
        'subscription.paused/stripe_paused',
        'subscription.renewed/stripe_resumed',
        'subscription.cancelled/stripe_cancelled',
      ]);
    },
  );

  await t.test('what cannot apply is acknowledged and changes nothing', async () => {
    const other = await h.company({ plan: 'free' });
    const otherKey = await h.key(other, { env: 'live' });
    const outcome = async (payload: string) => (await deliver(payload)).data;
    assert.match(
      (await outcome(subscriptionEvent('customer.subscription.created', { id: 'sub_2', companyId: null }))).reason,
      /^no_company/,
    );
    assert.match(
      (
        await outcome(
          subscriptionEvent('customer.subscription.created', {
            id: 'sub_3',
            companyId: other,
            price: 'price_Unknown00001',
          }),
        )
      ).reason,
      /^unknown_price/,
    );
    assert.match(
      (
        await outcome(
          subscriptionEvent('customer.subscription.created', { id: 'sub_4', companyId: other, status: 'incomplete' }),
        )
      ).reason,
      /^incomplete/,
    );
    // An event of a subscription the company no longer follows.
    assert.match(
      (await outcome(subscriptionEvent('customer.subscription.updated', { id: 'sub_old', companyId }))).reason,
      /^superseded/,
    );
    assert.equal((await outcome(subscriptionEvent('invoice.paid'))).outcome, 'other');
    const untouched = (await h.call('GET', '/v1/subscription', { key: otherKey })).data;
    assert.deepEqual([untouched.plan, untouched.providerSubscriptionId], ['free', null]);
  });
});
