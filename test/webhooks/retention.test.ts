import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, startHarness } from '../support/harness.js';
import { startReceiver, stubResolver } from '../support/webhook-receiver.js';
import { inTransaction } from '../../src/db/transaction.js';
import { recordEvent } from '../../src/webhooks/service.js';
import { createDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { createDeliveryClient } from '../../src/webhooks/delivery-client.js';
import { webhooksCapability } from '../../src/webhooks/index.js';

const day = 86_400_000;

test('events are kept 90 days, or 90 days after their last successful delivery', async (t) => {
  const resolver = stubResolver({ localhost: ['127.0.0.1'] });
  const h = await startHarness({ config: { allowPrivateWebhooks: true }, deps: { resolveHost: resolver } });
  const receiver = await startReceiver();
  const client = createDeliveryClient({ resolve: resolver, allowPrivate: true }, 5000);
  t.after(async () => {
    await client.close();
    await receiver.close();
    await h.close();
  });
  const quiet = await h.tenant();
  const delivered = await h.tenant();
  await h.call('POST', '/v1/webhook-endpoints', { key: delivered.key, body: { url: receiver.url } });

  const record = async (companyId: string, at: Date) => {
    const ctx = contextFor(companyId, false, at);
    return inTransaction(h.deps.db, ctx, (tx) =>
      recordEvent(tx, ctx, 'customer.created', { id: 'cus_x', object: 'customer', livemode: false }, at),
    );
  };
  const now = h.clock.now().getTime();
  const old = await record(quiet.companyId, new Date(now - 91 * day));
  const recent = await record(quiet.companyId, new Date(now - 89 * day));
  // Created 91 days ago, delivered only now: its term starts again from the delivery.
  const lateDelivery = await record(delivered.companyId, new Date(now - 91 * day));
  await createDeliveryWorker(h.deps, { client, companies: [delivered.companyId] }).drain();
  assert.equal((await h.call('GET', `/v1/events/${lateDelivery.id}`, { key: delivered.key })).data.delivered, true);

  // The capability's periodic pass, as the workers run it.
  const purge = webhooksCapability.passes!.find((pass) => pass.name === 'webhooks.purge-expired-events')!;
  assert.ok((await purge.run(h.deps)) >= 1);
  assert.equal((await h.call('GET', `/v1/events/${old.id}`, { key: quiet.key })).statusCode, 404);
  assert.equal((await h.call('GET', `/v1/events/${recent.id}`, { key: quiet.key })).statusCode, 200);
  assert.equal((await h.call('GET', `/v1/events/${lateDelivery.id}`, { key: delivered.key })).statusCode, 200);
  const { rows } = await h.deps.pool.query('select count(*)::int as n from webhook_deliveries where event_id = $1', [
    old.id,
  ]);
  assert.equal(rows[0].n, 0);
});
