/**
 * `facteur trigger` for the documents' events, against a real HTTP service (the app listening on
 * a port): each type goes through the API calls an integration makes in test mode (a customer,
 * the tax profile when the company has none, a tax decision, a draft, finalize, send, a payment)
 * and its event is then in the company's `GET /v1/events`, about the object the command names.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { startHarness, type Harness } from '../support/harness.js';
import { runTrigger } from '../../src/cli/developer-commands.js';
import { triggerableEventTypes } from '../../src/cli/trigger.js';

const timeout = 180_000;

interface Triggered {
  triggered: string;
  livemode: boolean;
  object: string;
}

describe('facteur trigger for document events', { timeout }, () => {
  let h: Harness;
  let apiUrl: string;
  before(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  after(async () => h?.close());

  const run = (key: string, type: string) =>
    runTrigger(h.deps.config, [type, '--api-key', key, '--api-url', apiUrl], {}) as Promise<Triggered>;

  async function eventsOf(key: string, type: string): Promise<{ type: string; livemode: boolean; data: any }[]> {
    const answer = await h.call('GET', `/v1/events?type=${encodeURIComponent(type)}&limit=100`, { key });
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.data.data;
  }

  /** The id an event is about: the object itself (a payment's events name it `paymentId`). */
  const subject = (event: { data: any }) => event.data.id ?? event.data.paymentId ?? event.data.object?.id;

  const documentTypes: [type: string, prefix: RegExp][] = [
    ['invoice.created', /^inv_/],
    ['invoice.finalized', /^inv_/],
    ['invoice.sent', /^inv_/],
    ['invoice.paid', /^inv_/],
    ['payment.created', /^pay_/],
    ['credit_note.created', /^cn_/],
    ['quote.created', /^qt_/],
  ];

  for (const [type, prefix] of documentTypes) {
    test(`${type}: the event is in GET /v1/events, about the object named`, async () => {
      const { key } = await h.tenant();
      assert.deepEqual(await eventsOf(key, type), [], 'a new company has none');
      const triggered = await run(key, type);
      assert.equal(triggered.triggered, type);
      assert.equal(triggered.livemode, false);
      assert.match(triggered.object, prefix);
      const events = await eventsOf(key, type);
      assert.equal(events.length, 1, `one ${type} event`);
      assert.equal(events[0]!.type, type);
      assert.equal(events[0]!.livemode, false);
      assert.equal(subject(events[0]!), triggered.object);
    });
  }

  test('the tax profile made for a company without one is reused: a second document trigger adds none', async () => {
    const { key } = await h.tenant();
    assert.equal((await h.call('GET', '/v1/tax-profiles', { key })).data.data.length, 0);
    await run(key, 'invoice.finalized');
    await run(key, 'invoice.sent');
    const profiles = (await h.call('GET', '/v1/tax-profiles', { key })).data.data;
    assert.equal(profiles.length, 1);
    assert.equal((await eventsOf(key, 'invoice.finalized')).length, 2, 'each run finalizes an invoice of its own');
  });

  test('every type the command offers is a type of the contract, the documents among them', () => {
    for (const [type] of documentTypes) assert.ok(triggerableEventTypes.includes(type), type);
  });
});
