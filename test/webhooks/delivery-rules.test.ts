import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import Stripe from 'stripe';
import {
  afterAttempt,
  maxAttempts,
  outcomeOfStatus,
  retryDelaysMs,
  type Outcome,
} from '../../src/webhooks/retry-schedule.js';
import { afterFailure, afterSuccess } from '../../src/webhooks/endpoint-health.js';
import { summarizeDeliveries } from '../../src/webhooks/delivery-summary.js';
import { signatureHeader } from '../../src/webhooks/signature.js';
import { loadConfig, ConfigError } from '../../src/config.js';

const failed: Outcome = { kind: 'failed', status: 500, error: 'HTTP 500' };
const t0 = new Date('2026-11-22T10:00:00Z');
const minutes = (n: number) => n * 60_000;

test('the schedule: 1 min, 5 min, 30 min, 2 h after each failure, five attempts', () => {
  assert.equal(maxAttempts, 5);
  assert.deepEqual(retryDelaysMs, [minutes(1), minutes(5), minutes(30), minutes(120)]);
  assert.equal(
    retryDelaysMs.reduce((a, b) => a + b, 0),
    minutes(156),
    'planned delays total 2 h 36 min',
  );
  let at = t0;
  const times = [at.getTime()];
  for (let attempt = 1; attempt < maxAttempts; attempt++) {
    const next = afterAttempt(attempt, failed, at);
    assert.equal(next.state, 'pending');
    at = next.nextAttemptAt!;
    times.push(at.getTime());
  }
  assert.deepEqual(
    times.map((t) => (t - t0.getTime()) / 60_000),
    [0, 1, 6, 36, 156],
  );
  assert.deepEqual(afterAttempt(5, failed, at), { state: 'failed', nextAttemptAt: null });
});

test('a success ends the delivery whatever the attempt', () => {
  for (let attempt = 1; attempt <= 5; attempt++) {
    assert.deepEqual(afterAttempt(attempt, { kind: 'delivered', status: 204 }, t0), {
      state: 'delivered',
      nextAttemptAt: null,
    });
  }
});

test('a retry is never planned in the past', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5 }),
      fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('2200-01-01') }),
      (attempt, at) => {
        const next = afterAttempt(attempt, failed, at);
        if (next.nextAttemptAt) assert.ok(next.nextAttemptAt.getTime() > at.getTime());
      },
    ),
  );
});

test('only 2xx is success: 3xx is not followed, 4xx and 5xx fail', () => {
  for (const status of [200, 201, 202, 204, 299])
    assert.equal(outcomeOfStatus(status).kind, 'delivered', String(status));
  for (const status of [199, 301, 302, 307, 308, 400, 404, 410, 429, 500, 503])
    assert.equal(outcomeOfStatus(status).kind, 'failed', String(status));
});

test('an endpoint failing without a break for three days is deactivated, with an e-mail', () => {
  const healthy = { status: 'enabled', failingSince: null, lastAlertAt: null };
  const first = afterFailure(healthy, t0, false);
  assert.deepEqual(first, { failingSince: t0, disable: false, alert: null, lastAlertAt: null });
  const almost = afterFailure({ ...healthy, failingSince: t0 }, new Date(t0.getTime() + 72 * 3_600_000 - 1), false);
  assert.equal(almost.disable, false);
  const three = afterFailure(
    { ...healthy, failingSince: t0, lastAlertAt: new Date(t0.getTime() + 3_600_000) },
    new Date(t0.getTime() + 72 * 3_600_000),
    false,
  );
  assert.equal(three.disable, true);
  assert.equal(three.alert, 'deactivated');
  assert.deepEqual(afterSuccess({ ...healthy, failingSince: t0 }).failingSince, null, 'a success ends the run');
  assert.equal(
    afterFailure(
      { status: 'disabled', failingSince: t0, lastAlertAt: null },
      new Date(t0.getTime() + 100 * 3_600_000),
      false,
    ).disable,
    false,
    'already disabled',
  );
});

test('alerts about one endpoint are at least 24 hours apart', () => {
  const health = { status: 'enabled', failingSince: t0, lastAlertAt: null };
  const firstAlert = afterFailure(health, t0, true);
  assert.equal(firstAlert.alert, 'delivery_failed');
  const soon = afterFailure({ ...health, lastAlertAt: t0 }, new Date(t0.getTime() + 23 * 3_600_000), true);
  assert.equal(soon.alert, null);
  assert.equal(soon.lastAlertAt?.getTime(), t0.getTime());
  const later = afterFailure({ ...health, lastAlertAt: t0 }, new Date(t0.getTime() + 24 * 3_600_000), true);
  assert.equal(later.alert, 'delivery_failed');
  assert.equal(afterFailure(health, t0, false).alert, null, 'no alert while attempts remain');
});

test('the event counters describe the latest generation of each endpoint', () => {
  const base = {
    companyId: 'co',
    livemode: false,
    eventId: 'evt',
    lockedUntil: null,
    lockToken: null,
    created: t0,
    updated: t0,
  };
  const deliveries = [
    { ...base, id: 'd1', endpointId: 'we_a', generation: 1, state: 'failed', attemptCount: 5, nextAttemptAt: null },
    {
      ...base,
      id: 'd2',
      endpointId: 'we_a',
      generation: 2,
      state: 'pending',
      attemptCount: 1,
      nextAttemptAt: new Date(t0.getTime() + 60_000),
    },
    { ...base, id: 'd3', endpointId: 'we_b', generation: 1, state: 'delivered', attemptCount: 2, nextAttemptAt: null },
  ];
  const summary = summarizeDeliveries(deliveries, []);
  assert.equal(summary.generation, 2);
  assert.equal(summary.attemptCount, 3);
  assert.equal(summary.nextRetry, new Date(t0.getTime() + 60_000).toISOString());
  assert.equal(summary.delivered, false);
  assert.equal(summaryOf([{ ...deliveries[2]! }]).delivered, true);
  assert.equal(summaryOf([]).delivered, false);
});

function summaryOf(deliveries: Parameters<typeof summarizeDeliveries>[0]) {
  return summarizeDeliveries(deliveries, []);
}

test('signatures verify with the official stripe package, one v1 per secret', () => {
  const stripe = new Stripe('sk_test_unused');
  const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'ping', data: { é: '€' } });
  const now = Math.floor(Date.now() / 1000);
  const header = signatureHeader(['whsec_current', 'whsec_previous'], now, body);
  assert.match(header, /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  for (const secret of ['whsec_current', 'whsec_previous']) {
    assert.equal(stripe.webhooks.constructEvent(body, header, secret).id, 'evt_1');
  }
  assert.throws(() => stripe.webhooks.constructEvent(body, header, 'whsec_other'));
  assert.throws(
    () => stripe.webhooks.constructEvent(`${body} `, header, 'whsec_current'),
    'the raw body is what is signed',
  );
  assert.throws(
    () => stripe.webhooks.constructEvent(body, signatureHeader(['whsec_current'], now - 301, body), 'whsec_current'),
    'stale timestamps are refused',
  );
  assert.equal(
    stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_current', timestamp: now }),
    signatureHeader(['whsec_current'], now, body),
  );
});

test('private webhook targets are refused in production', () => {
  assert.throws(() => loadConfig({ FACTEUR_ALLOW_PRIVATE_WEBHOOKS: 'true', NODE_ENV: 'production' }), ConfigError);
  assert.equal(loadConfig({ FACTEUR_ALLOW_PRIVATE_WEBHOOKS: 'true' }).allowPrivateWebhooks, true);
  assert.equal(loadConfig({}).allowPrivateWebhooks, false);
});
