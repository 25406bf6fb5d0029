import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, startHarness, type Harness } from '../support/harness.js';
import { recordEvent } from '../../src/webhooks/service.js';
import { inTransaction } from '../../src/db/transaction.js';

async function seedEvents(
  h: Harness,
  companyId: string,
  count: number,
  livemode = false,
  type = 'customer.created',
): Promise<string[]> {
  const ctx = contextFor(companyId, livemode, h.clock.now(), 'req_seed');
  const ids: string[] = [];
  await inTransaction(h.deps.db, ctx, async (tx) => {
    for (let i = 0; i < count; i++) {
      h.clock.advance(1);
      ids.push((await recordEvent(tx, ctx, type, { id: `cus_${i}`, object: 'customer', livemode }, h.clock.now())).id);
    }
  });
  return ids;
}

test('events and list pagination', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  await t.test('an event has the contract envelope, with milliseconds in created', async () => {
    const { companyId, key } = await h.tenant();
    const [id] = await seedEvents(h, companyId, 1);
    const response = await h.call('GET', `/v1/events/${id}`, { key });
    assert.equal(response.statusCode, 200);
    for (const field of ['apiVersion', 'created', 'data', 'id', 'livemode', 'object', 'request', 'type'])
      assert.ok(field in response.data, field);
    assert.deepEqual(response.data.deliveries, [], 'no endpoint: no delivery');
    assert.equal(response.data.delivered, false);
    assert.equal(response.data.attemptCount, 0);
    assert.equal(response.data.nextRetry, null);
    assert.match(response.data.id, /^evt_/);
    assert.equal(response.data.object, 'event');
    assert.equal(response.data.apiVersion, '2026-09-01');
    assert.match(response.data.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(response.data.request, { id: 'req_seed', idempotency_key: null });
    assert.equal(response.data.data.object, 'customer');
  });

  await t.test('an event is recorded in its change transaction: a rollback leaves none', async () => {
    const { companyId, key } = await h.tenant();
    const ctx = contextFor(companyId, false, h.clock.now());
    await assert.rejects(
      inTransaction(h.deps.db, ctx, async (tx) => {
        await recordEvent(tx, ctx, 'customer.created', {}, h.clock.now());
        throw new Error('the change failed');
      }),
    );
    assert.equal((await h.call('GET', '/v1/events', { key })).data.data.length, 0);
  });

  await t.test('a list is the envelope: newest first, 25 by default, has_more and next_cursor', async () => {
    const { companyId, key } = await h.tenant();
    const ids = await seedEvents(h, companyId, 30);
    const first = await h.call('GET', '/v1/events', { key });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(Object.keys(first.data).sort(), ['data', 'has_more', 'next_cursor', 'object', 'url']);
    assert.equal(first.data.object, 'list');
    assert.equal(first.data.url, '/v1/events');
    assert.equal(first.data.data.length, 25);
    assert.equal(first.data.has_more, true);
    assert.deepEqual(
      first.data.data.map((e: { id: string }) => e.id),
      ids.slice().reverse().slice(0, 25),
    );
    assert.equal(first.data.next_cursor, first.data.data[24].id);
    const second = await h.call('GET', `/v1/events?starting_after=${first.data.next_cursor}`, { key });
    assert.equal(second.data.data.length, 5);
    assert.equal(second.data.has_more, false);
    assert.equal(second.data.next_cursor, null);
  });

  await t.test('a traversal with any page size visits every item once, in created order', async () => {
    const { companyId, key } = await h.tenant();
    const ids = await seedEvents(h, companyId, 23);
    for (const limit of [1, 7, 23, 100]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await h.call('GET', `/v1/events?limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`, {
          key,
        });
        seen.push(...page.data.data.map((e: { id: string }) => e.id));
        cursor = page.data.next_cursor;
        assert.equal(page.data.has_more, cursor !== null);
      } while (cursor);
      assert.deepEqual(seen, ids.slice().reverse(), `limit ${limit}`);
    }
  });

  await t.test('limit outside 1..100 is refused with param limit', async () => {
    const { key } = await h.tenant();
    for (const limit of ['0', '101', '-1', '1.5', '1e9']) {
      const response = await h.call('GET', `/v1/events?limit=${limit}`, { key });
      assert.equal(response.statusCode, 400, limit);
      assert.equal(response.data.error.param, 'limit');
    }
    assert.equal((await h.call('GET', '/v1/events?limit=100', { key })).statusCode, 200);
  });

  await t.test('filters combine with pagination', async () => {
    const { companyId, key } = await h.tenant();
    await seedEvents(h, companyId, 3, false, 'customer.created');
    const updated = await seedEvents(h, companyId, 3, false, 'customer.updated');
    const page1 = await h.call('GET', '/v1/events?type=customer.updated&limit=2', { key });
    const page2 = await h.call(
      'GET',
      `/v1/events?type=customer.updated&limit=2&starting_after=${page1.data.next_cursor}`,
      { key },
    );
    assert.deepEqual(
      [...page1.data.data, ...page2.data.data].map((e: { id: string }) => e.id),
      updated.slice().reverse(),
    );
    assert.equal(page2.data.has_more, false);
  });

  await t.test('an unknown, deleted or foreign cursor is 400 invalid_field_value, never a first page', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const [aEvent] = await seedEvents(h, a.companyId, 2);
    const [bEvent] = await seedEvents(h, b.companyId, 2);
    const [aLiveEvent] = await seedEvents(h, a.companyId, 1, true);
    await seedEvents(h, a.companyId, 1);
    const deleted = (await seedEvents(h, a.companyId, 1))[0];
    await h.deps.pool.query('delete from events where id = $1', [deleted]);
    for (const cursor of ['evt_doesnotexist', bEvent, aLiveEvent, deleted, 'cus_01m80kd1cn1220tzdk3rc8ms8q']) {
      const response = await h.call('GET', `/v1/events?starting_after=${cursor}`, { key: a.key });
      assert.equal(response.statusCode, 400, String(cursor));
      assert.equal(response.data.error.code, 'invalid_field_value');
      assert.equal(response.data.error.param, 'starting_after');
    }
    assert.equal((await h.call('GET', `/v1/events?starting_after=${aEvent}`, { key: a.key })).statusCode, 200);
  });
});
