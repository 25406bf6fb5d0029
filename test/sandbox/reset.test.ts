import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startHarness } from '../support/harness.js';
import { probeRoutes } from '../support/probe-routes.js';

test('account and sandbox reset', async (t) => {
  const h = await startHarness({ extraV1Routes: probeRoutes });
  t.after(() => h.close());

  await t.test(
    'GET /v1/account: company, plan and limits, livemode of the key; GET /v1/subscription: the usage',
    async () => {
      const companyId = await h.company({ plan: 'essential', name: 'Atelier Dupont' });
      const key = await h.key(companyId, { env: 'live' });
      const response = await h.call('GET', '/v1/account', { key });
      assert.equal(response.statusCode, 200);
      assert.equal(response.data.object, 'account');
      assert.equal(response.data.id, companyId);
      assert.equal(response.data.name, 'Atelier Dupont');
      assert.equal(response.data.livemode, true);
      assert.equal(response.data.plan, 'essential');
      assert.deepEqual(response.data.limits, {
        requestsPerMinute: 300,
        monthlyQuota: 10_000,
        webhookEndpoints: 5,
        storageBytes: 1024 * 1024 * 1024,
        connectedEstablishments: 5,
      });
      const subscription = await h.call('GET', '/v1/subscription', { key });
      assert.equal(subscription.statusCode, 200);
      assert.equal(subscription.data.plan, 'essential');
      assert.deepEqual(subscription.data.usage.documents, 0);
      assert.equal(subscription.data.usage.monthlyQuota, 10_000);
      assert.match(subscription.data.usage.period, /^\d{4}-\d\d$/);
    },
  );

  await t.test('the reset purges the test data of the company, and only that', async () => {
    const a = await h.tenant();
    const aLive = await h.key(a.companyId, { env: 'live' });
    const b = await h.tenant();
    for (const key of [a.key, aLive, b.key])
      await h.call('POST', '/v1/probe/items', { key, body: { name: 'x', kind: 'goods' } });
    const reset = await h.call('POST', '/v1/sandbox/reset', { key: a.key });
    assert.equal(reset.statusCode, 200);
    assert.equal(reset.data.object, 'sandbox_reset');
    assert.equal(reset.data.livemode, false);
    assert.equal(reset.data.purged.events, 1);
    assert.equal((await h.call('GET', '/v1/events', { key: a.key })).data.data.length, 0);
    assert.equal(
      (await h.call('GET', '/v1/events?type=probe.created', { key: aLive })).data.data.length,
      1,
      'live data is untouched',
    );
    assert.equal(
      (await h.call('GET', '/v1/events', { key: b.key })).data.data.length,
      1,
      'other companies are untouched',
    );
  });

  await t.test('after a reset, an old idempotency key runs anew; the reset itself replays', async () => {
    const { key } = await h.tenant();
    const itemKey = { 'idempotency-key': randomUUID() };
    const body = { name: 'x', kind: 'goods' };
    await h.call('POST', '/v1/probe/items', { key, body, headers: itemKey });
    const resetKey = { 'idempotency-key': randomUUID() };
    const reset = await h.call('POST', '/v1/sandbox/reset', { key, headers: resetKey });
    assert.equal(reset.data.purged.idempotencyKeys, 1);
    const again = await h.call('POST', '/v1/probe/items', { key, body, headers: itemKey });
    assert.equal(again.headers['idempotent-replayed'], undefined);
    const replay = await h.call('POST', '/v1/sandbox/reset', { key, headers: resetKey });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, reset.body);
  });

  await t.test('a live key cannot reset: 400 not_supported, nothing purged', async () => {
    const { companyId } = await h.tenant();
    const live = await h.key(companyId, { env: 'live' });
    await h.call('POST', '/v1/probe/items', { key: live, body: { name: 'x', kind: 'goods' } });
    const response = await h.call('POST', '/v1/sandbox/reset', { key: live });
    assert.equal(response.statusCode, 400);
    assert.equal(response.data.error.code, 'not_supported');
    assert.equal((await h.call('GET', '/v1/events?type=probe.created', { key: live })).data.data.length, 1);
  });

  await t.test('a scoped key cannot reset', async () => {
    const companyId = await h.company();
    const key = await h.key(companyId, { scopes: ['invoices:write', 'webhooks:write'] });
    const response = await h.call('POST', '/v1/sandbox/reset', { key });
    assert.equal(response.statusCode, 403);
    assert.equal(response.data.error.code, 'scope_insufficient');
  });
});

test('concurrent resets of one company all succeed', async (t) => {
  const h = await startHarness({ extraV1Routes: probeRoutes, poolSize: 12 });
  t.after(() => h.close());
  const { key } = await h.tenant();
  for (let i = 0; i < 5; i++)
    await h.call('POST', '/v1/probe/items', {
      key,
      body: { name: 'x', kind: 'goods' },
      headers: { 'idempotency-key': randomUUID() },
    });
  const responses = await Promise.all(
    Array.from({ length: 10 }, () =>
      h.call('POST', '/v1/sandbox/reset', { key, headers: { 'idempotency-key': randomUUID() } }),
    ),
  );
  assert.deepEqual(
    responses.map((r) => r.statusCode),
    Array(10).fill(200),
  );
});
