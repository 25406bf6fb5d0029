import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { startHarness } from '../support/harness.js';
import { probeRoutes } from '../support/probe-routes.js';
import { startReceiver, stubResolver, type Receiver } from '../support/webhook-receiver.js';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { createDeliveryClient } from '../../src/webhooks/delivery-client.js';

const stripe = new Stripe('sk_test_unused');
const item = { name: 'x', kind: 'goods' };

interface Tenant {
  companyId: string;
  key: string;
  worker: DeliveryWorker;
}

test('webhook deliveries', async (t) => {
  const resolver = stubResolver({ localhost: ['127.0.0.1'], 'hooks.example.com': ['93.184.216.34'] });
  const h = await startHarness({
    extraV1Routes: probeRoutes,
    config: { allowPrivateWebhooks: true },
    deps: { resolveHost: resolver },
  });
  const receiver = await startReceiver();
  // Cleanups run last registered, first run: workers and clients before receivers and pools.
  const cleanups: (() => Promise<unknown>)[] = [() => h.close(), () => receiver.close()];
  const later = (cleanup: () => Promise<unknown>) => cleanups.push(cleanup);
  t.after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A company with its own worker: the worker never touches other tests' deliveries. */
  async function tenant(
    options: { timeoutMs?: number; resolveHost?: (host: string) => Promise<string[]>; pollMs?: number } = {},
  ): Promise<Tenant> {
    const { companyId, key } = await h.tenant();
    const client = createDeliveryClient(
      { resolve: options.resolveHost ?? resolver, allowPrivate: h.deps.config.allowPrivateWebhooks },
      options.timeoutMs ?? 5000,
    );
    later(() => client.close());
    return {
      companyId,
      key,
      worker: createDeliveryWorker(h.deps, { client, companies: [companyId], pollMs: options.pollMs }),
    };
  }

  async function endpoint(key: string, body: Record<string, unknown> = {}, target: Receiver = receiver) {
    const response = await h.call('POST', '/v1/webhook-endpoints', { key, body: { url: target.url, ...body } });
    assert.equal(response.statusCode, 201, response.body);
    return response.data;
  }

  async function advance(key: string, seconds: number) {
    const response = await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds } });
    assert.equal(response.statusCode, 200, response.body);
  }

  const requestsFor = (endpointPath: string) => receiver.received.filter((r) => r.path === endpointPath);

  await t.test('an event is delivered signed, with the contract headers, its body the event', async () => {
    const me = await tenant();
    const hook = await endpoint(me.key, { events: ['probe.created'].length ? ['*'] : [] });
    const before = receiver.received.length;
    const created = await h.call('POST', '/v1/probe/items', { key: me.key, body: item });
    assert.equal(await me.worker.drain(), 1);
    const request = receiver.received[before]!;
    assert.equal(request.method, 'POST');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['user-agent'], 'Service-Webhooks/1.0');
    assert.equal(request.headers['service-event-id'], created.data.id);
    assert.equal(request.headers['service-event-type'], 'probe.created');
    const header = String(request.headers['service-signature']);
    assert.match(header, /^t=\d{10},v1=[0-9a-f]{64}$/);
    assert.ok(Math.abs(Number(header.slice(2, 12)) - Date.now() / 1000) < 60, 't is real Unix time');
    const verified = stripe.webhooks.constructEvent(request.body, header, hook.secret);
    assert.equal(verified.id, created.data.id);
    const event = await h.call('GET', `/v1/events/${created.data.id}`, { key: me.key });
    const { deliveries, attemptCount, generation, nextRetry, delivered, endpoints, ...envelope } = event.data;
    assert.deepEqual(JSON.parse(request.body), envelope, 'the body is the event envelope');
    assert.equal(delivered, true);
    assert.equal(attemptCount, 1);
    assert.equal(generation, 1);
    assert.equal(nextRetry, null);
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0].status, 200);
    assert.equal(deliveries[0].endpointId, hook.id);
    assert.equal(endpoints[0].state, 'delivered');
    assert.ok(Number.isInteger(deliveries[0].durationMs));
  });

  await t.test(
    'only enabled endpoints of the same company and environment, subscribed to the type, receive it',
    async () => {
      const me = await tenant();
      const other = await tenant();
      const subscribed = await endpoint(me.key, { events: ['customer.created'] }, receiver);
      await endpoint(me.key, { events: ['invoice.paid'] });
      const live = await h.key(me.companyId, { env: 'live' });
      await endpoint(live, { events: ['*'] });
      await endpoint(other.key, { events: ['*'] });
      const disabled = await endpoint(me.key, { events: ['*'] });
      await h.call('POST', `/v1/webhook-endpoints/${disabled.id}`, { key: me.key, body: { status: 'disabled' } });
      const { inTransaction } = await import('../../src/db/transaction.js');
      const { recordEvent } = await import('../../src/webhooks/service.js');
      const { contextFor } = await import('../support/harness.js');
      const ctx = contextFor(me.companyId, false, h.clock.now());
      const event = await inTransaction(h.deps.db, ctx, (tx) =>
        recordEvent(tx, ctx, 'customer.created', { id: 'cus_1', object: 'customer', livemode: false }, ctx.now),
      );
      const summary = (await h.call('GET', `/v1/events/${event.id}`, { key: me.key })).data;
      assert.deepEqual(
        summary.endpoints.map((e: { endpointId: string }) => e.endpointId),
        [subscribed.id],
      );
      const before = receiver.received.length;
      await me.worker.drain();
      await other.worker.drain();
      assert.equal(receiver.received.length - before, 1, 'the other company had no event');
    },
  );

  await t.test(
    'failures retry on the contract schedule, on the sandbox clock; the fifth failure ends it, with an e-mail logged',
    async () => {
      const me = await tenant();
      await h.deps.pool.query(`update companies set email = 'ops@example.com' where id = $1`, [me.companyId]);
      const failing = await startReceiver('/failing');
      later(() => failing.close());
      failing.fallback = { status: 500 };
      await endpoint(me.key, {}, failing);
      const created = await h.call('POST', '/v1/probe/items', { key: me.key, body: item });
      const eventId = created.data.id;
      const clock0 = Date.parse((await h.call('GET', '/v1/sandbox/clock', { key: me.key })).data.now);
      await me.worker.drain();
      const read = async () => (await h.call('GET', `/v1/events/${eventId}`, { key: me.key })).data;
      let event = await read();
      assert.equal(event.attemptCount, 1);
      assert.equal(event.delivered, false);
      const planned = [60, 300, 1800, 7200];
      for (const [index, delay] of planned.entries()) {
        const due = Date.parse(event.nextRetry);
        assert.ok(
          Math.abs(due - Date.parse(event.deliveries[index].created) - delay * 1000) < 1000,
          `retry ${index + 2} is ${delay} s after the failure`,
        );
        await advance(me.key, delay - 5);
        assert.equal(await me.worker.drain(), 0, `not due ${delay - 5} s after`);
        await advance(me.key, 5);
        assert.equal(await me.worker.drain(), 1, `due ${delay} s after`);
        event = await read();
        assert.equal(event.attemptCount, index + 2);
      }
      assert.equal(failing.received.length, 5);
      assert.equal(event.delivered, false);
      assert.equal(event.nextRetry, null);
      assert.equal(event.endpoints[0].state, 'failed');
      assert.deepEqual(
        event.deliveries.map((d: { status: number }) => d.status),
        [500, 500, 500, 500, 500],
      );
      const offsets = event.deliveries.map((d: { created: string }) =>
        Math.round((Date.parse(d.created) - clock0) / 60_000),
      );
      assert.deepEqual(offsets, [0, 1, 6, 36, 156]);
      await advance(me.key, 86_400);
      assert.equal(await me.worker.drain(), 0, 'no sixth attempt');
      const emails = await h.deps.pool.query(`select status, "to", subject from emails where company_id = $1`, [
        me.companyId,
      ]);
      assert.equal(emails.rows.length, 1);
      assert.equal(emails.rows[0].status, 'logged', 'test mode: logged, never sent');
      assert.equal(emails.rows[0].to, 'ops@example.com');
      const undelivered = await h.call('GET', '/v1/events?delivered=false', { key: me.key });
      assert.deepEqual(
        undelivered.data.data.map((e: { id: string }) => e.id),
        [eventId],
      );
      assert.equal((await h.call('GET', '/v1/events?delivered=true', { key: me.key })).data.data.length, 0);
    },
  );

  await t.test(
    'replay: without body to the failed endpoints, with endpointId to one even if delivered; a new generation keeps the history',
    async () => {
      const me = await tenant();
      const flaky = await startReceiver('/flaky');
      later(() => flaky.close());
      flaky.fallback = { status: 503 };
      const bad = await endpoint(me.key, {}, flaky);
      const good = await endpoint(me.key);
      const eventId = (await h.call('POST', '/v1/probe/items', { key: me.key, body: item })).data.id;
      await me.worker.drain();
      for (const delay of [60, 300, 1800, 7200]) {
        await advance(me.key, delay);
        await me.worker.drain();
      }
      let event = (await h.call('GET', `/v1/events/${eventId}`, { key: me.key })).data;
      assert.deepEqual(
        Object.fromEntries(event.endpoints.map((e: { endpointId: string; state: string }) => [e.endpointId, e.state])),
        { [bad.id]: 'failed', [good.id]: 'delivered' },
      );
      flaky.fallback = { status: 204 };
      const replay = await h.call('POST', `/v1/events/${eventId}/retry`, { key: me.key });
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.data.generation, 2);
      await me.worker.drain();
      event = (await h.call('GET', `/v1/events/${eventId}`, { key: me.key })).data;
      assert.equal(event.delivered, true);
      assert.equal(event.deliveries.length, 7, 'history kept: five failures, one success, then the replay');
      assert.deepEqual(
        event.deliveries
          .filter((d: { generation: number }) => d.generation === 2)
          .map((d: { endpointId: string }) => d.endpointId),
        [bad.id],
      );
      const goodBefore = requestsFor('/hooks').length;
      const targeted = await h.call('POST', `/v1/events/${eventId}/retry`, {
        key: me.key,
        body: { endpointId: good.id },
      });
      assert.equal(targeted.statusCode, 200);
      await me.worker.drain();
      assert.equal(requestsFor('/hooks').length, goodBefore + 1, 'replayed to the delivered endpoint alone');
      event = (await h.call('GET', `/v1/events/${eventId}`, { key: me.key })).data;
      assert.deepEqual(event.endpoints.map((e: { generation: number }) => e.generation).sort(), [2, 2]);
      const none = await h.call('POST', `/v1/events/${eventId}/retry`, { key: me.key });
      assert.equal(none.data.attemptCount, event.attemptCount, 'nothing failed: nothing replayed');
    },
  );

  await t.test('replays racing: each answered, one new generation per failed endpoint', async () => {
    const me = await tenant();
    const hook = await endpoint(me.key);
    const eventId = (await h.call('POST', '/v1/probe/items', { key: me.key, body: item })).data.id;
    // Its attempts exhausted (as five failures would leave it).
    await h.deps.pool.query(`update webhook_deliveries set state = 'failed' where event_id = $1`, [eventId]);
    const replays = await Promise.all(
      Array.from({ length: 4 }, () => h.call('POST', `/v1/events/${eventId}/retry`, { key: me.key })),
    );
    assert.deepEqual(
      replays.map((replay) => replay.statusCode),
      [200, 200, 200, 200],
      replays.map((replay) => replay.body).join('\n'),
    );
    const deliveries = await h.deps.pool.query(
      `select endpoint_id, generation from webhook_deliveries where event_id = $1 order by generation`,
      [eventId],
    );
    assert.deepEqual(
      deliveries.rows.map((d) => [d.endpoint_id, d.generation]),
      [
        [hook.id, 1],
        [hook.id, 2],
      ],
    );
  });

  await t.test('a targeted replay to an inactive or unsubscribed endpoint is endpoint_not_subscribed', async () => {
    const me = await tenant();
    const other = await tenant();
    const unsubscribed = await endpoint(me.key, { events: ['invoice.paid'] });
    const disabled = await endpoint(me.key);
    await h.call('POST', `/v1/webhook-endpoints/${disabled.id}`, { key: me.key, body: { status: 'disabled' } });
    const foreign = await endpoint(other.key);
    const eventId = (await h.call('POST', '/v1/probe/items', { key: me.key, body: item })).data.id;
    for (const endpointId of [unsubscribed.id, disabled.id, foreign.id, 'we_doesnotexist']) {
      const response = await h.call('POST', `/v1/events/${eventId}/retry`, { key: me.key, body: { endpointId } });
      assert.equal(response.statusCode, 400, endpointId);
      assert.equal(response.data.error.code, 'endpoint_not_subscribed');
      assert.equal(response.data.error.param, 'endpointId');
    }
    assert.equal(
      (await h.call('POST', `/v1/events/${eventId}/retry`, { key: other.key })).statusCode,
      404,
      'another company cannot replay it',
    );
  });

  await t.test('ping: an ordinary event, to that endpoint alone', async () => {
    const me = await tenant();
    const pinged = await endpoint(me.key, { events: ['invoice.paid'] });
    await endpoint(me.key, { events: ['*'] });
    const response = await h.call('POST', `/v1/webhook-endpoints/${pinged.id}/ping`, { key: me.key });
    assert.equal(response.statusCode, 200);
    assert.equal(response.data.type, 'ping');
    assert.deepEqual(
      response.data.endpoints.map((e: { endpointId: string }) => e.endpointId),
      [pinged.id],
    );
    const before = receiver.received.length;
    await me.worker.drain();
    assert.equal(receiver.received.length - before, 1);
    assert.equal(receiver.received.at(-1)!.headers['service-event-type'], 'ping');
    stripe.webhooks.constructEvent(
      receiver.received.at(-1)!.body,
      String(receiver.received.at(-1)!.headers['service-signature']),
      pinged.secret,
    );
    const event = await h.call('GET', `/v1/events/${response.data.id}`, { key: me.key });
    assert.equal(event.data.delivered, true);
    assert.equal(
      (await h.call('POST', `/v1/events/${response.data.id}/retry`, { key: me.key, body: { endpointId: pinged.id } }))
        .statusCode,
      200,
      'a ping can be replayed to its endpoint',
    );
  });

  await t.test('secret rotation: both secrets sign for 24 hours, then the new one alone', async () => {
    const me = await tenant();
    const hook = await endpoint(me.key);
    const rotated = await h.call('POST', `/v1/webhook-endpoints/${hook.id}/rotate-secret`, { key: me.key });
    assert.equal(rotated.statusCode, 200);
    assert.match(rotated.data.secret, /^whsec_[A-Za-z0-9_-]{32}$/);
    assert.notEqual(rotated.data.secret, hook.secret);
    await h.call('POST', '/v1/probe/items', { key: me.key, body: item });
    await me.worker.drain();
    const during = receiver.received.at(-1)!;
    const header = String(during.headers['service-signature']);
    assert.equal(header.split(',').filter((part) => part.startsWith('v1=')).length, 2);
    for (const secret of [hook.secret, rotated.data.secret])
      stripe.webhooks.constructEvent(during.body, header, secret);
    h.clock.advance(24 * 3_600_000 + 1000);
    await h.call('POST', '/v1/probe/items', { key: me.key, body: item });
    await me.worker.drain();
    const after = receiver.received.at(-1)!;
    const single = String(after.headers['service-signature']);
    h.clock.advance(-(24 * 3_600_000 + 1000));
    assert.equal(single.split(',').filter((part) => part.startsWith('v1=')).length, 1);
    stripe.webhooks.constructEvent(after.body, single, rotated.data.secret);
    assert.throws(() => stripe.webhooks.constructEvent(after.body, single, hook.secret));
  });

  await t.test('a redirect is a failure and is not followed; a slow answer times out', async () => {
    const me = await tenant({ timeoutMs: 300 });
    const odd = await startReceiver('/odd');
    later(() => odd.close());
    odd.script({ status: 302, headers: { location: receiver.url } }, { status: 200, delayMs: 1000 });
    await endpoint(me.key, {}, odd);
    const eventId = (await h.call('POST', '/v1/probe/items', { key: me.key, body: item })).data.id;
    const before = receiver.received.length;
    await me.worker.drain();
    await advance(me.key, 60);
    await me.worker.drain();
    const event = (await h.call('GET', `/v1/events/${eventId}`, { key: me.key })).data;
    assert.deepEqual(
      event.deliveries.map((d: { status: number | null }) => d.status),
      [302, null],
    );
    assert.match(event.deliveries[1].error, /timeout/);
    assert.equal(receiver.received.length, before, 'the redirect target was never called');
  });

  await t.test('DNS rebinding gets nothing: the address dialled is checked at every delivery', async () => {
    let answer = ['93.184.216.34'];
    const rebinding = async (host: string) => (host === 'rebind.example.com' ? answer : resolver(host));
    const strict = await startHarness({
      extraV1Routes: probeRoutes,
      config: { allowPrivateWebhooks: false },
      deps: { resolveHost: rebinding },
    });
    later(() => strict.close());
    const { companyId, key } = await strict.tenant();
    const created = await strict.call('POST', '/v1/webhook-endpoints', {
      key,
      body: { url: `https://rebind.example.com:${receiver.port}/hooks` },
    });
    assert.equal(created.statusCode, 201, 'public at registration');
    answer = ['127.0.0.1'];
    const client = createDeliveryClient({ resolve: rebinding, allowPrivate: false }, 2000);
    later(() => client.close());
    const worker = createDeliveryWorker(strict.deps, { companies: [companyId], client });
    const before = receiver.received.length;
    const eventId = (await strict.call('POST', '/v1/probe/items', { key, body: item })).data.id;
    await worker.drain();
    const event = (await strict.call('GET', `/v1/events/${eventId}`, { key })).data;
    assert.equal(event.deliveries[0].status, null);
    assert.match(event.deliveries[0].error, /blocked/);
    assert.equal(receiver.received.length, before, 'no connection was made');
    const refused = await strict.call('POST', '/v1/webhook-endpoints', {
      key,
      body: { url: `https://rebind.example.com:${receiver.port}/hooks` },
    });
    assert.equal(refused.statusCode, 400, 'and it is refused at registration now');
  });

  await t.test(
    'an endpoint failing for three days is deactivated with an e-mail, and receives nothing more',
    async () => {
      const me = await tenant();
      const down = await startReceiver('/down');
      later(() => down.close());
      down.fallback = { status: 500 };
      const hook = await endpoint(me.key, {}, down);
      await h.call('POST', '/v1/probe/items', { key: me.key, body: item });
      await me.worker.drain();
      // Keep failing: a new event every 12 hours of sandbox time for three days.
      for (let i = 0; i < 6; i++) {
        await advance(me.key, 12 * 3600);
        await h.call('POST', '/v1/probe/items', { key: me.key, body: item });
        await me.worker.drain();
      }
      const read = (await h.call('GET', `/v1/webhook-endpoints/${hook.id}`, { key: me.key })).data;
      assert.equal(read.status, 'disabled');
      assert.match(read.disabledReason, /three days/);
      const emails = await h.deps.pool.query(`select subject from emails where company_id = $1 order by id`, [
        me.companyId,
      ]);
      assert.ok(emails.rows.some((row: { subject: string }) => /deactivated/.test(row.subject)));
      const alerts = emails.rows.filter((row: { subject: string }) => /failing/.test(row.subject));
      assert.ok(alerts.length <= 3, 'failure alerts at least 24 hours apart');
      const received = down.received.length;
      await h.call('POST', '/v1/probe/items', { key: me.key, body: item });
      await advance(me.key, 3 * 3600);
      await me.worker.drain();
      assert.equal(down.received.length, received);
      const enabled = await h.call('POST', `/v1/webhook-endpoints/${hook.id}`, {
        key: me.key,
        body: { status: 'enabled' },
      });
      assert.equal(enabled.data.status, 'enabled');
      assert.equal(enabled.data.disabledReason, null);
    },
  );

  await t.test('a running worker delivers a committed event at once (notification, no polling delay)', async () => {
    // Its periodic pass would come only after a minute: a delivery within the wait below is the notification's.
    const me = await tenant({ pollMs: 60_000 });
    await endpoint(me.key);
    await me.worker.start();
    later(() => me.worker.stop());
    const before = receiver.received.length;
    await h.call('POST', '/v1/probe/items', { key: me.key, body: item, headers: { 'idempotency-key': randomUUID() } });
    await receiver.waitFor(before + 1, 30_000);
  });

  await t.test(
    'the recovery pass: a due delivery with no notification, or held by a worker that died, is delivered',
    async () => {
      const me = await tenant();
      const hook = await endpoint(me.key);
      const eventId = (await h.call('POST', '/v1/probe/items', { key: me.key, body: item })).data.id;
      // What a dead worker leaves: a delivery claimed (locked) and never settled, its lock now expired.
      await h.deps.pool.query(
        `update webhook_deliveries set locked_until = $2, lock_token = 'dead-worker' where event_id = $1`,
        [eventId, new Date(h.clock.now().getTime() - 1000)],
      );
      const second = (await h.call('POST', '/v1/probe/items', { key: me.key, body: item })).data.id;
      const before = receiver.received.length;
      const worker = createDeliveryWorker(h.deps, {
        companies: [me.companyId],
        pollMs: 100,
        client: createDeliveryClient({ resolve: resolver, allowPrivate: true }, 5000),
      });
      // Started after the commits: their notifications are long gone; only the periodic pass finds them.
      await worker.start();
      later(() => worker.stop());
      await receiver.waitFor(before + 2, 5000);
      const ids = receiver.received
        .slice(before)
        .map((r) => r.headers['service-event-id'])
        .sort();
      assert.deepEqual(ids, [eventId, second].sort());
      assert.equal((await h.call('GET', `/v1/webhook-endpoints/${hook.id}`, { key: me.key })).data.status, 'enabled');
    },
  );
});
