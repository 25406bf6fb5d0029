import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, startHarness } from '../support/harness.js';
import { recordEvent } from '../../src/webhooks/service.js';
import { inTransaction } from '../../src/db/transaction.js';

test('isolation between companies and environments', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const a = await h.tenant();
  const aLive = await h.key(a.companyId, { env: 'live' });
  const b = await h.tenant();

  async function eventOf(companyId: string, livemode: boolean): Promise<string> {
    const ctx = contextFor(companyId, livemode, h.clock.now());
    return inTransaction(
      h.deps.db,
      ctx,
      async (tx) => (await recordEvent(tx, ctx, 'customer.created', { livemode }, h.clock.now())).id,
    );
  }

  await t.test("another company's resource is 404 not_found, like a missing one", async () => {
    const bEvent = await eventOf(b.companyId, false);
    const foreign = await h.call('GET', `/v1/events/${bEvent}`, { key: a.key });
    const missing = await h.call('GET', '/v1/events/evt_01m80kd1cn1220tzdk3rc8ms8q', { key: a.key });
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.data.error.code, 'not_found');
    assert.equal(foreign.data.error.type, 'not_found_error');
    const shape = (body: any) => ({
      ...body.error,
      request_id: undefined,
      message: body.error.message.replace(/evt_\w+/, 'ID'),
    });
    assert.deepEqual(shape(foreign.data), shape(missing.data), 'indistinguishable from a missing id');
    assert.equal((await h.call('GET', `/v1/events/${bEvent}`, { key: b.key })).statusCode, 200);
  });

  await t.test('a resource of the other environment is 404 not_found, both ways', async () => {
    const liveEvent = await eventOf(a.companyId, true);
    const testEvent = await eventOf(a.companyId, false);
    assert.equal((await h.call('GET', `/v1/events/${liveEvent}`, { key: a.key })).statusCode, 404);
    assert.equal((await h.call('GET', `/v1/events/${testEvent}`, { key: aLive })).statusCode, 404);
    assert.equal((await h.call('GET', `/v1/events/${liveEvent}`, { key: aLive })).statusCode, 200);
  });

  await t.test('lists only show the key’s company and environment', async () => {
    const list = await h.call('GET', '/v1/events?limit=100', { key: a.key });
    assert.ok(list.data.data.length > 0);
    for (const event of list.data.data) assert.equal(event.livemode, false);
    const ids = new Set(list.data.data.map((e: { id: string }) => e.id));
    const bList = await h.call('GET', '/v1/events?limit=100', { key: b.key });
    for (const event of bList.data.data) assert.ok(!ids.has(event.id));
  });
});
