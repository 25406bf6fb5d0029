import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startHarness, untilKeyCached, type Harness } from '../support/harness.js';
import { advanceSubscriptions } from '../../src/subscriptions/service.js';

const publicHost = { resolveHost: async () => ['93.184.216.34'] };

async function eventsOf(h: Harness, key: string, type: string): Promise<any[]> {
  const response = await h.call('GET', `/v1/events?limit=100&type=${type}`, { key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data.data;
}

/** A company with a test key and a live key, both without scopes. */
async function account(h: Harness, plan = 'pro'): Promise<{ companyId: string; test: string; live: string }> {
  const companyId = await h.company({ plan });
  return { companyId, test: await h.key(companyId), live: await h.key(companyId, { env: 'live' }) };
}

const customer = { name: 'Atelier Lumière SAS' };

test('the subscription', async (t) => {
  const h = await startHarness({ deps: publicHost });
  t.after(() => h.close());

  await t.test(
    'created with the company (subscription.created, a live event); GET: plan, status, period, usage',
    async () => {
      h.clock.set('2026-11-24T10:00:00.000Z');
      const { test: key, live } = await account(h);
      const response = await h.call('GET', '/v1/subscription', { key });
      assert.equal(response.statusCode, 200, response.body);
      const subscription = response.data;
      assert.equal(subscription.object, 'subscription');
      assert.equal(subscription.livemode, false);
      assert.equal(subscription.plan, 'pro');
      assert.equal(subscription.status, 'active');
      assert.equal(subscription.providerSubscriptionId, null);
      assert.equal(subscription.currentPeriodStart, '2026-11-24T10:00:00.000Z');
      assert.equal(subscription.currentPeriodEnd, '2026-12-01T00:00:00.000Z');
      assert.deepEqual(subscription.usage, {
        period: '2026-11',
        documents: 0,
        monthlyQuota: 50_000,
        webhookEndpoints: 0,
        establishments: 0,
        storageBytes: 0,
      });
      assert.deepEqual(subscription.features, { recurringAutoFinalize: true });
      assert.equal((await h.call('GET', '/v1/subscription', { key: live })).data.livemode, true);
      assert.deepEqual(await eventsOf(h, key, 'subscription.created'), [], 'not sandbox data');
      for (const k of [live]) {
        const [created, ...more] = await eventsOf(h, k, 'subscription.created');
        assert.equal(more.length, 0);
        assert.deepEqual(
          {
            status: created.data.status,
            plan: created.data.plan,
            providerSubscriptionId: created.data.providerSubscriptionId,
            pausedUntil: created.data.pausedUntil,
            reason: created.data.reason,
          },
          { status: 'active', plan: 'pro', providerSubscriptionId: null, pausedUntil: null, reason: 'company_created' },
        );
        assert.equal(created.livemode, true);
      }
      // The usage counts the calling environment's endpoints.
      const endpoint = await h.call('POST', '/v1/webhook-endpoints', {
        key,
        body: { url: 'https://hooks.example.com/a' },
      });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      assert.equal((await h.call('GET', '/v1/subscription', { key })).data.usage.webhookEndpoints, 1);
      assert.equal((await h.call('GET', '/v1/subscription', { key: live })).data.usage.webhookEndpoints, 0);
    },
  );

  await t.test('changing the plan: a live key without scopes; the new limits apply at once', async () => {
    h.clock.set('2026-11-24T11:00:00.000Z');
    const { companyId, test: key, live } = await account(h, 'essential');
    // The key's company (with its plan) is now cached on this node.
    assert.equal((await h.call('GET', '/v1/account', { key })).data.plan, 'essential');
    for (const url of ['https://hooks.example.com/1', 'https://hooks.example.com/2'])
      assert.equal((await h.call('POST', '/v1/webhook-endpoints', { key, body: { url } })).statusCode, 201);

    const fromTest = await h.call('POST', '/v1/subscription', { key, body: { plan: 'free' } });
    assert.equal(fromTest.statusCode, 400);
    assert.equal(fromTest.data.error.code, 'not_supported');
    const scoped = await h.key(companyId, { env: 'live', scopes: ['invoices:write'] });
    const refused = await h.call('POST', '/v1/subscription', { key: scoped, body: { plan: 'free' } });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.data.error.code, 'scope_insufficient');
    const unknown = await h.call('POST', '/v1/subscription', { key: live, body: { plan: 'gold' } });
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.data.error.code, 'validation_error');

    const changed = await h.call('POST', '/v1/subscription', { key: live, body: { plan: 'free' } });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.data.plan, 'free');
    assert.equal(changed.data.limits.webhookEndpoints, 1);
    assert.equal((await h.call('GET', '/v1/account', { key })).data.plan, 'free', 'the cached company is forgotten');
    const third = await h.call('POST', '/v1/webhook-endpoints', { key, body: { url: 'https://hooks.example.com/3' } });
    assert.equal(third.statusCode, 402);
    assert.equal(third.data.error.code, 'plan_limit_error');
    for (const k of [live]) {
      const [renewed] = await eventsOf(h, k, 'subscription.renewed');
      assert.deepEqual(
        [renewed.data.plan, renewed.data.reason, renewed.data.status],
        ['free', 'plan_changed', 'active'],
      );
    }
    const same = await h.call('POST', '/v1/subscription', { key: live, body: { plan: 'free' } });
    assert.equal(same.statusCode, 200);
    assert.equal((await eventsOf(h, live, 'subscription.renewed')).length, 1, 'the same plan changes nothing');
  });

  await t.test(
    'paused: every write answers subscription_paused; reads and the subscription routes stay open',
    async () => {
      h.clock.set('2026-11-24T12:00:00.000Z');
      const { test: key, live } = await account(h);
      assert.equal((await h.call('POST', '/v1/customers', { key, body: customer })).statusCode, 201);

      const paused = await h.call('POST', '/v1/subscription/pause', { key: live, body: { reason: 'unpaid invoice' } });
      assert.equal(paused.statusCode, 200, paused.body);
      assert.equal(paused.data.status, 'paused');
      assert.equal(paused.data.pausedAt, '2026-11-24T12:00:00.000Z');
      for (const k of [live]) {
        const [event] = await eventsOf(h, k, 'subscription.paused');
        assert.deepEqual(
          [event.data.status, event.data.reason, event.data.pausedUntil],
          ['paused', 'unpaid invoice', null],
        );
      }

      const idempotencyKey = randomUUID();
      for (const k of [key, live]) {
        const write = await h.call('POST', '/v1/customers', {
          key: k,
          body: customer,
          headers: { 'idempotency-key': idempotencyKey },
        });
        assert.equal(write.statusCode, 400, write.body);
        assert.equal(write.data.error.code, 'subscription_paused');
        assert.equal(write.data.error.type, 'invalid_request_error');
        const remove = await h.call('DELETE', '/v1/webhook-endpoints/we_00000000000000000000000000', { key: k });
        assert.equal(remove.data.error.code, 'subscription_paused');
      }
      const list = await h.call('GET', '/v1/customers', { key });
      assert.equal(list.statusCode, 200);
      assert.equal(list.data.data.length, 1, 'reads stay open, and the refused write wrote nothing');
      assert.equal((await h.call('GET', '/v1/subscription', { key })).data.status, 'paused');
      const again = await h.call('POST', '/v1/subscription/pause', { key: live });
      assert.equal(again.data.error.code, 'invalid_status_transition');
      const plan = await h.call('POST', '/v1/subscription', { key: live, body: { plan: 'essential' } });
      assert.equal(plan.statusCode, 200, 'the plan changes while paused');
      assert.equal(plan.data.status, 'paused');

      const resumed = await h.call('POST', '/v1/subscription/resume', { key: live });
      assert.equal(resumed.statusCode, 200, resumed.body);
      assert.deepEqual([resumed.data.status, resumed.data.pausedAt], ['active', null]);
      // (Both events carry the same instant here: the harness's clock stands still.)
      const renewed = (await eventsOf(h, live, 'subscription.renewed')).find((e) => e.data.reason === 'resumed');
      assert.equal(renewed.data.status, 'active');
      // The key of the refused request was not consumed: it runs now.
      const write = await h.call('POST', '/v1/customers', {
        key,
        body: customer,
        headers: { 'idempotency-key': idempotencyKey },
      });
      assert.equal(write.statusCode, 201, write.body);
    },
  );

  await t.test('cancelled: writes refused, reads open; cancelling twice is refused; resume reactivates', async () => {
    const { test: key, live } = await account(h);
    const cancelled = await h.call('POST', '/v1/subscription/cancel', { key: live, body: {} });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(cancelled.data.status, 'cancelled');
    const [event] = await eventsOf(h, live, 'subscription.cancelled');
    assert.deepEqual([event.data.status, event.data.reason], ['cancelled', 'cancelled_by_request']);
    assert.equal(
      (await h.call('POST', '/v1/products', { key, body: { name: 'x', nature: 'goods', unitPrice: '10' } })).data.error
        .code,
      'subscription_paused',
    );
    assert.equal((await h.call('GET', '/v1/products', { key })).statusCode, 200);
    assert.equal((await h.call('GET', '/v1/account', { key: live })).statusCode, 200);
    assert.equal(
      (await h.call('POST', '/v1/subscription/cancel', { key: live })).data.error.code,
      'invalid_status_transition',
    );
    assert.equal(
      (await h.call('POST', '/v1/subscription/pause', { key: live })).data.error.code,
      'invalid_status_transition',
    );
    assert.equal((await h.call('POST', '/v1/subscription/resume', { key: live })).data.status, 'active');
    const product = await h.call('POST', '/v1/products', {
      key,
      body: { name: 'x', nature: 'goods', unitPrice: '10' },
    });
    assert.equal(product.statusCode, 201, product.body);
  });

  await t.test('a pause with an end resumes by itself; periods renew at their end, on real time', async () => {
    h.clock.set('2026-11-24T13:00:00.000Z');
    const { companyId, test: key, live } = await account(h);
    const only = { companyIds: [companyId] };
    // The sandbox clock does not move the subscription: it is the account's, on real time.
    await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 60 * 86_400 } });
    assert.equal((await h.call('GET', '/v1/subscription', { key })).data.currentPeriodEnd, '2026-12-01T00:00:00.000Z');
    assert.equal((await eventsOf(h, live, 'subscription.renewed')).length, 0);
    const bad = await h.call('POST', '/v1/subscription/pause', { key: live, body: { until: '2026-11-01' } });
    assert.equal(bad.data.error.code, 'invalid_field_value', 'an end in the past');
    const paused = await h.call('POST', '/v1/subscription/pause', {
      key: live,
      body: { until: '2026-11-26T00:00:00Z' },
    });
    assert.equal(paused.data.pausedUntil, '2026-11-26T00:00:00.000Z');
    assert.equal((await eventsOf(h, live, 'subscription.paused'))[0].data.pausedUntil, '2026-11-26T00:00:00.000Z');
    assert.equal(await advanceSubscriptions(h.deps, only), 0, 'nothing is due yet');
    assert.equal((await h.call('GET', '/v1/subscription', { key })).data.status, 'paused');

    h.clock.set('2026-11-26T00:00:01.000Z');
    assert.equal(await advanceSubscriptions(h.deps, only), 1);
    const resumed = (await h.call('GET', '/v1/subscription', { key })).data;
    assert.deepEqual([resumed.status, resumed.pausedUntil, resumed.reason], ['active', null, 'pause_ended']);
    assert.equal((await h.call('POST', '/v1/customers', { key, body: customer })).statusCode, 201, 'writes again');

    // Two months later: one renewal per period that ended, the last holding now.
    h.clock.set('2027-01-15T09:00:00.000Z');
    assert.equal(await advanceSubscriptions(h.deps, only), 1);
    assert.equal(await advanceSubscriptions(h.deps, only), 0, 'once');
    const renewals = (await eventsOf(h, live, 'subscription.renewed')).filter((e) => e.data.reason === 'period_ended');
    assert.deepEqual(renewals.map((e) => e.data.currentPeriodStart).sort(), [
      '2026-12-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
    const renewed = (await h.call('GET', '/v1/subscription', { key })).data;
    assert.deepEqual(
      [renewed.currentPeriodStart, renewed.currentPeriodEnd],
      ['2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
    );

    // Paused across a period's end: no renewal while paused; the resume starts a period now.
    assert.equal((await h.call('POST', '/v1/subscription/pause', { key: live })).statusCode, 200);
    h.clock.set('2027-03-10T08:00:00.000Z');
    assert.equal(await advanceSubscriptions(h.deps, only), 0, 'a paused subscription does not renew');
    const back = (await h.call('POST', '/v1/subscription/resume', { key: live })).data;
    assert.deepEqual(
      [back.currentPeriodStart, back.currentPeriodEnd],
      ['2027-03-10T08:00:00.000Z', '2027-04-01T00:00:00.000Z'],
    );
  });

  await t.test(
    'the subscriptions the migration made are announced once by the pass (reason existing_company)',
    async () => {
      const { companyId, live } = await account(h);
      await h.deps.pool.query('update subscriptions set announced = false where company_id = $1', [companyId]);
      // (A worker of another test may run the pass too: what counts is the events, once.)
      await advanceSubscriptions(h.deps, { companyIds: [companyId] });
      assert.equal(await advanceSubscriptions(h.deps, { companyIds: [companyId] }), 0);
      const reasons = (await eventsOf(h, live, 'subscription.created')).map((e) => e.data.reason).sort();
      assert.deepEqual(reasons, ['company_created', 'existing_company']);
    },
  );
});

test('two nodes: a pause on one blocks writes on the other at once; a resume there opens them here', async (t) => {
  const nodeA = await startHarness();
  const nodeB = await startHarness();
  t.after(async () => {
    await nodeA.close();
    await nodeB.close();
  });
  const companyId = await nodeA.company({ plan: 'pro' });
  const key = await nodeA.key(companyId);
  const live = await nodeA.key(companyId, { env: 'live' });
  for (const node of [nodeA, nodeB]) {
    const write = () => node.call('POST', '/v1/customers', { key, body: customer });
    assert.ok(await untilKeyCached(node, key, write), 'the key and its company are served from memory');
  }

  /** Writes on `node` until the answer is `expected` (the notification is read between requests), within 2 s. */
  async function writeUntil(node: Harness, expected: number): Promise<number> {
    const deadline = Date.now() + 2000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await node.call('POST', '/v1/customers', { key, body: customer })).statusCode;
      if (status === expected) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return status;
  }

  assert.equal((await nodeA.call('POST', '/v1/subscription/pause', { key: live })).statusCode, 200);
  // On the node that paused: at once, not even after the notification.
  const here = await nodeA.call('POST', '/v1/customers', { key, body: customer });
  assert.equal(here.data.error?.code, 'subscription_paused');
  assert.equal(await writeUntil(nodeB, 400), 400, 'node B no longer serves the active status it had cached');
  const there = await nodeB.call('POST', '/v1/customers', { key, body: customer });
  assert.equal(there.data.error.code, 'subscription_paused');
  assert.equal((await nodeB.call('GET', '/v1/customers', { key })).statusCode, 200, 'reads stay open');

  assert.equal((await nodeB.call('POST', '/v1/subscription/resume', { key: live })).statusCode, 200);
  assert.equal((await nodeB.call('POST', '/v1/customers', { key, body: customer })).statusCode, 201);
  assert.equal(await writeUntil(nodeA, 201), 201, 'node A forgot the paused status');

  // A pause that ends by itself, moved by the pass of a worker: both nodes hear of it.
  assert.equal(
    (
      await nodeA.call('POST', '/v1/subscription/pause', {
        key: live,
        body: { until: new Date(nodeA.clock.now().getTime() + 60_000).toISOString() },
      })
    ).statusCode,
    200,
  );
  assert.equal(await writeUntil(nodeB, 400), 400);
  nodeA.clock.advance(61_000);
  await advanceSubscriptions(nodeA.deps, { companyIds: [companyId] });
  assert.equal(await writeUntil(nodeB, 201), 201);
  assert.equal(await writeUntil(nodeA, 201), 201);
});
