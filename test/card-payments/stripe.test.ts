import { test } from 'node:test';
import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { startHarness, type Harness } from '../support/harness.js';
import { startStripeServer } from '../support/stripe-server.js';
import type { StripeEventShape } from '../support/stripe-shape.js';
import { finalizedCreditNote, finalizedInvoice, seller, sellerProfile, eventsOf } from '../invoices/support.js';
import { verifyStripeSignature } from '../../src/card-payments/stripe-signature.js';
import { readStripeEvent } from '../../src/card-payments/stripe-event.js';

const stripe = new Stripe('sk_test_only_for_signatures');
const secretKey = 'rk_live_51AbCdEfGhIjKlMnOpQr1234';
const webhookSecret = 'whsec_a1b2c3d4e5f6a7b8c9d0e1f2';

const sign = (payload: string, secret = webhookSecret, timestamp = Math.floor(Date.now() / 1000)) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

/** A Stripe event saying a checkout of `amount` cents was paid. */
function paidEvent(
  invoice: { id: string },
  companyId: string,
  amount: number,
  options: { id?: string; livemode?: boolean; type?: Stripe.Event.Type } = {},
): string {
  const body: StripeEventShape<Stripe.Checkout.Session> = {
    id: options.id ?? `evt_${Math.random().toString(36).slice(2, 14)}`,
    object: 'event',
    api_version: '2025-09-30.clover',
    created: Math.floor(Date.now() / 1000),
    livemode: options.livemode ?? true,
    type: options.type ?? 'checkout.session.completed',
    data: {
      object: {
        id: `cs_live_${Math.random().toString(36).slice(2, 14)}`,
        object: 'checkout.session',
        amount_total: amount,
        currency: 'eur',
        client_reference_id: invoice.id,
        metadata: { facteur_invoice: invoice.id, facteur_company: companyId },
        payment_intent: 'pi_3Example123',
        payment_status: 'paid',
        status: 'complete',
      },
    },
  };
  return JSON.stringify(body);
}

/** A Stripe `charge.refunded`: `amountRefunded` is the charge's running total, every refund of it together. */
function refundedEvent(
  amountRefunded: number,
  options: { id?: string; paymentIntent?: string; livemode?: boolean; currency?: string } = {},
): string {
  const body: StripeEventShape<Stripe.Charge> = {
    id: options.id ?? `evt_${Math.random().toString(36).slice(2, 14)}`,
    object: 'event',
    api_version: '2025-09-30.clover',
    created: Math.floor(Date.now() / 1000),
    livemode: options.livemode ?? true,
    type: 'charge.refunded',
    data: {
      object: {
        id: 'ch_3Example123',
        object: 'charge',
        amount: 35_760,
        amount_refunded: amountRefunded,
        currency: options.currency ?? 'eur',
        payment_intent: options.paymentIntent ?? 'pi_3Example123',
        refunded: amountRefunded === 35_760,
        status: 'succeeded',
      },
    },
  };
  return JSON.stringify(body);
}

test('Stripe signatures: ours accepts what the stripe package signs, and nothing else', () => {
  const now = new Date();
  const body = '{"id":"evt_1","object":"event"}';
  const header = sign(body);
  assert.deepEqual(verifyStripeSignature(Buffer.from(body), header, webhookSecret, now), { valid: true });
  assert.equal(stripe.webhooks.constructEvent(body, header, webhookSecret).id, 'evt_1');
  const refused = (raw: string, h: string | undefined, secret = webhookSecret) =>
    verifyStripeSignature(Buffer.from(raw), h, secret, now);
  assert.deepEqual(refused(`${body} `, header), { valid: false, reason: 'mismatch' });
  assert.deepEqual(refused(body, header, 'whsec_another_secret'), { valid: false, reason: 'mismatch' });
  assert.deepEqual(refused(body, sign(body, webhookSecret, Math.floor(now.getTime() / 1000) - 301)), {
    valid: false,
    reason: 'stale',
  });
  assert.deepEqual(refused(body, undefined), { valid: false, reason: 'malformed' });
  assert.deepEqual(refused(body, 't=abc,v1=00'), { valid: false, reason: 'malformed' });
  // A secret being rolled: two v1, one of them right.
  const v1 = header.split(',').find((part) => part.startsWith('v1='))!;
  const t = header.split(',').find((part) => part.startsWith('t='))!;
  assert.deepEqual(refused(body, `${t},v1=${'0'.repeat(64)},${v1}`), { valid: true });
});

test('Stripe events read field by field', () => {
  const invoice = { id: 'inv_1' };
  const paid = readStripeEvent(Buffer.from(paidEvent(invoice, 'co_1', 12_000, { id: 'evt_9' })));
  assert.equal(paid.kind, 'payment');
  if (paid.kind === 'payment') {
    assert.equal(paid.facts.eventId, 'evt_9');
    assert.equal(paid.facts.invoiceId, 'inv_1');
    assert.equal(paid.facts.companyId, 'co_1');
    assert.equal(paid.facts.amount, 12_000);
    assert.equal(paid.facts.currency, 'EUR');
    assert.equal(paid.facts.paymentIntent, 'pi_3Example123');
  }
  const unpaid = JSON.parse(paidEvent(invoice, 'co_1', 100));
  unpaid.data.object.payment_status = 'unpaid';
  assert.equal(readStripeEvent(Buffer.from(JSON.stringify(unpaid))).kind, 'other', 'a delayed method not yet paid');
  assert.equal(
    readStripeEvent(Buffer.from(paidEvent(invoice, 'co_1', 100, { type: 'charge.succeeded' }))).kind,
    'other',
  );
  assert.equal(readStripeEvent(Buffer.from('{"id":"evt_1"')).kind, 'malformed');
  const refunded = readStripeEvent(Buffer.from(refundedEvent(4_000, { id: 'evt_r' })));
  assert.equal(refunded.kind, 'refund');
  if (refunded.kind === 'refund') {
    assert.equal(refunded.facts.amountRefunded, 4_000);
    assert.equal(refunded.facts.paymentIntent, 'pi_3Example123');
    assert.equal(refunded.facts.chargeId, 'ch_3Example123');
    assert.equal(refunded.facts.currency, 'EUR');
  }
  const noIntent = JSON.parse(refundedEvent(100));
  noIntent.data.object.payment_intent = null;
  assert.equal(readStripeEvent(Buffer.from(JSON.stringify(noIntent))).kind, 'malformed');
  const noAmount = JSON.parse(paidEvent(invoice, 'co_1', 100));
  delete noAmount.data.object.amount_total;
  assert.equal(readStripeEvent(Buffer.from(JSON.stringify(noAmount))).kind, 'malformed');
});

test('card payments with Stripe: connection, Checkout from the payment page, signed events recorded once', async (t) => {
  const server = await startStripeServer();
  server.keys.add(secretKey);
  const h: Harness = await startHarness({ config: { stripeApiUrl: server.url, stripeTimeoutMs: 400 } });
  t.after(async () => {
    await h.close();
    await server.close();
  });

  /** A live seller with a finalized live invoice and its payment page path. */
  async function liveSeller() {
    const { companyId } = await seller(h);
    const key = await h.key(companyId, { env: 'live' });
    await h.call('POST', '/v1/tax-profiles', { key, body: sellerProfile });
    const invoice = await finalizedInvoice(h, key);
    return { companyId, key, invoice, page: new URL(invoice.paymentPortalUrl).pathname };
  }
  const connect = (key: string, body: Record<string, unknown> = {}) =>
    h.call('PUT', '/v1/account/card-payments', {
      key,
      body: { provider: 'stripe', secretKey, webhookSecret, ...body },
    });
  const deliver = (companyId: string, payload: string, signature = sign(payload)) =>
    h.call('POST', `/card-payments/stripe/${companyId}`, {
      body: payload,
      headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
    });

  await t.test('connecting: live only, a live Stripe key Stripe accepts, sealed at rest', async () => {
    const { companyId, key: testKey } = await seller(h);
    const test = await connect(testKey);
    assert.equal(test.statusCode, 409, test.body);
    assert.equal(test.data.error.code, 'sandbox_payment_unavailable');
    const key = await h.key(companyId, { env: 'live' });
    const wrongForm = await connect(key, { secretKey: 'sk_test_51AbCdEfGhIjKlMnOp' });
    assert.equal(wrongForm.statusCode, 400, wrongForm.body);
    assert.equal(wrongForm.data.error.code, 'invalid_field_value');
    assert.equal(wrongForm.data.error.param, 'secretKey');
    const badSecret = await connect(key, { webhookSecret: 'not-a-secret' });
    assert.equal(badSecret.data.error.param, 'webhookSecret');
    const unknownKey = await connect(key, { secretKey: 'sk_live_51ZzZzZzZzZzZzZzZz9999' });
    assert.equal(unknownKey.statusCode, 400, unknownKey.body);
    assert.equal(unknownKey.data.error.param, 'secretKey');
    assert.match(unknownKey.data.error.message, /Stripe refused the key: Invalid API Key/);
    assert.equal((await h.call('GET', '/v1/account/card-payments', { key })).statusCode, 404, 'nothing stored');

    const connected = await connect(key);
    assert.equal(connected.statusCode, 200, connected.body);
    assert.equal(connected.data.object, 'card_payment_provider');
    assert.equal(connected.data.secretKeyLast4, '1234');
    assert.equal(connected.data.secretKeyVerified, true);
    assert.equal(connected.data.webhookUrl, `${h.deps.config.publicUrl}/card-payments/stripe/${companyId}`);
    assert.ok(!connected.body.includes(secretKey) && !connected.body.includes(webhookSecret), 'secrets never shown');
    const stored = await h.deps.pool.query(
      'select secret_key, webhook_secret from card_payment_providers where company_id = $1',
      [companyId],
    );
    assert.ok(stored.rows[0].secret_key.startsWith('v2.') && !stored.rows[0].secret_key.includes(secretKey));
    assert.ok(stored.rows[0].webhook_secret.startsWith('v2.'));

    server.behaviour = 'down';
    try {
      const unverified = await connect(key);
      assert.equal(unverified.statusCode, 200, unverified.body);
      assert.equal(unverified.data.secretKeyVerified, false, 'Stripe not answering says nothing of the key');
      const failing = (await h.call('GET', '/v1/account/services', { key })).data.cardPayments;
      assert.equal(failing.status, 'failing');
      assert.equal(failing.provider, 'stripe');
      assert.ok(failing.lastFailure, 'the failure is said');
    } finally {
      server.behaviour = 'ok';
    }
    await connect(key);
    const services = await h.call('GET', '/v1/account/services', { key });
    assert.equal(services.statusCode, 200, services.body);
    assert.equal(services.data.cardPayments.status, 'operational');
    assert.equal(services.data.cardPayments.lastFailure, null);
    assert.ok(services.data.cardPayments.lastExchangeAt);
    const inTestMode = (await h.call('GET', '/v1/account/services', { key: testKey })).data.cardPayments;
    assert.deepEqual([inTestMode.configured, inTestMode.status], [false, 'not_configured']);
    const deleted = await h.call('DELETE', '/v1/account/card-payments', { key });
    assert.deepEqual(deleted.data, { deleted: true });
    assert.equal((await h.call('DELETE', '/v1/account/card-payments', { key })).statusCode, 404);
    const gone = (await h.call('GET', '/v1/account/services', { key })).data.cardPayments;
    assert.equal(gone.status, 'not_configured');
  });

  await t.test(
    'the payment page: a card button once Stripe is connected, a Checkout Session for the amount due',
    async () => {
      const { companyId, key, invoice, page } = await liveSeller();
      assert.match((await h.call('GET', page)).body, /once the seller connects a payment provider/);
      assert.equal((await connect(key)).statusCode, 200);
      const offered = await h.call('GET', page);
      assert.match(offered.body, new RegExp(`<form method="post" action="${page}/checkout">`));
      assert.match(offered.body, /Pay 357\.60 EUR by card/);

      const before = server.sessions.length;
      const opened = await h.call('POST', `${page}/checkout`, {
        body: '',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(opened.statusCode, 303, opened.body);
      const seen = server.sessions[before]!;
      assert.equal(opened.headers.location, seen.session.url);
      assert.equal(seen.key, secretKey);
      assert.equal(seen.form.get('mode'), 'payment');
      assert.equal(seen.form.get('line_items[0][price_data][unit_amount]'), String(invoice.amountDue));
      assert.equal(seen.form.get('line_items[0][price_data][currency]'), 'eur');
      assert.equal(seen.form.get('client_reference_id'), invoice.id);
      assert.equal(seen.form.get('metadata[facteur_company]'), companyId);
      assert.equal(seen.form.get('success_url'), `${h.deps.config.publicUrl}${page}?checkout=success`);
      const again = await h.call('POST', `${page}/checkout`);
      assert.equal(again.headers.location, opened.headers.location, 'a second click reuses the session');
      assert.equal(server.sessions.length, before + 1);
      assert.match((await h.call('GET', `${page}?checkout=cancelled`)).body, /cancelled; nothing was charged/);

      for (const behaviour of ['down', 'timeout', 'malformed'] as const) {
        server.behaviour = behaviour;
        try {
          // A new amount due, so Stripe's idempotency does not hide the call.
          await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: 1 } });
          const failed = await h.call('POST', `${page}/checkout`);
          assert.equal(failed.statusCode, 503, `${behaviour}: ${failed.body}`);
          assert.match(failed.body, /Card payment is unavailable right now/);
        } finally {
          server.behaviour = 'ok';
        }
      }
    },
  );

  await t.test(
    'a paid checkout recorded once: payment.received with method card, replays and races change nothing',
    async () => {
      const { companyId, key, invoice, page } = await liveSeller();
      await connect(key);
      const payload = paidEvent(invoice, companyId, invoice.amountDue, { id: 'evt_paid_once' });
      const [first, second] = await Promise.all([deliver(companyId, payload), deliver(companyId, payload)]);
      assert.deepEqual([first.statusCode, second.statusCode], [200, 200], `${first.body} ${second.body}`);
      const outcomes = [first.data.outcome, second.data.outcome].sort();
      assert.deepEqual(outcomes, ['duplicate', 'recorded']);
      const replay = await deliver(companyId, payload);
      assert.equal(replay.data.outcome, 'duplicate');

      const payments = await h.call('GET', `/v1/payments?invoiceId=${invoice.id}`, { key });
      const cards = payments.data.data.filter((payment: any) => payment.invoiceId === invoice.id);
      assert.equal(cards.length, 1, 'one payment for one event');
      assert.equal(cards[0].method, 'card');
      assert.equal(cards[0].recorded_by, 'stripe');
      assert.equal(cards[0].reference, 'pi_3Example123');
      assert.equal(cards[0].amount, invoice.amountDue);
      assert.equal(cards[0].metadata.stripeEvent, 'evt_paid_once');
      const received = (await eventsOf(h, key, 'payment.received')).filter((e) => e.data.paymentId === cards[0].id);
      assert.equal(received.length, 1);
      assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data.amountDue, 0);
      assert.match((await h.call('GET', page)).body, /This invoice is paid/);

      // The invoice is paid: a second paid checkout cannot apply; it is kept as ignored, with why.
      const late = await deliver(companyId, paidEvent(invoice, companyId, 500, { id: 'evt_too_late' }));
      assert.equal(late.data.outcome, 'ignored');
      const testEvent = await deliver(
        companyId,
        paidEvent(invoice, companyId, 500, { id: 'evt_test', livemode: false }),
      );
      assert.equal(testEvent.data.outcome, 'ignored');
      const other = await deliver(companyId, paidEvent(invoice, companyId, 500, { type: 'charge.succeeded' }));
      assert.equal(other.data.outcome, 'other');
      const provider = (await h.call('GET', '/v1/account/card-payments', { key })).data;
      const reasons = Object.fromEntries(provider.recentEvents.map((e: any) => [e.eventId, e.reason ?? e.outcome]));
      assert.match(reasons.evt_too_late, /^payment_exceeds_amount_due/);
      assert.match(reasons.evt_test, /^stripe_test_mode/);
      assert.equal(reasons.evt_paid_once, 'recorded');
    },
  );

  await t.test(
    'charge.refunded: the refund goes on the invoice credit note, the running total recorded once',
    async () => {
      const { companyId, key, invoice } = await liveSeller();
      await connect(key);
      const paid = await deliver(companyId, paidEvent(invoice, companyId, invoice.amountDue));
      assert.equal(paid.data.outcome, 'recorded', paid.body);

      // Refunded in Stripe before any credit note: nothing to put it on; the company is told what to do.
      const early = await deliver(companyId, refundedEvent(10_000, { id: 'evt_refund_early' }));
      assert.equal(early.statusCode, 200, early.body);
      assert.equal(early.data.outcome, 'ignored');
      const unknown = await deliver(
        companyId,
        refundedEvent(10_000, { id: 'evt_refund_unknown', paymentIntent: 'pi_elsewhere' }),
      );
      assert.equal(unknown.data.outcome, 'ignored');
      const inTest = await deliver(companyId, refundedEvent(10_000, { id: 'evt_refund_test', livemode: false }));
      assert.equal(inTest.data.outcome, 'ignored');

      const note = await finalizedCreditNote(h, key, invoice);
      // Two refunds in Stripe (100 then 150 euros in all), their events delivered at once.
      const [first, second] = await Promise.all([
        deliver(companyId, refundedEvent(10_000, { id: 'evt_refund_1' })),
        deliver(companyId, refundedEvent(15_000, { id: 'evt_refund_2' })),
      ]);
      assert.deepEqual([first.statusCode, second.statusCode], [200, 200], `${first.body} ${second.body}`);
      const refunds = (await h.call('GET', `/v1/credit-notes/${note.id}/refunds`, { key })).data.data;
      assert.equal(
        refunds.reduce((sum: number, refund: any) => sum + refund.amount, 0),
        15_000,
        'the running total, once, in whichever order the events came',
      );
      for (const refund of refunds) {
        assert.equal(refund.method, 'card');
        assert.equal(refund.reference, 'pi_3Example123');
        assert.equal(refund.invoiceId, invoice.id);
        assert.equal(refund.metadata.stripeCharge, 'ch_3Example123');
      }
      const recorded = [first.data, second.data].filter((delivery) => delivery.outcome === 'recorded');
      assert.ok(recorded.length >= 1);
      assert.deepEqual(
        recorded.map((delivery) => delivery.refundId).sort(),
        refunds.map((refund: any) => refund.id).sort(),
      );

      assert.equal((await deliver(companyId, refundedEvent(15_000, { id: 'evt_refund_2' }))).data.outcome, 'duplicate');
      const same = await deliver(companyId, refundedEvent(15_000, { id: 'evt_refund_resent' }));
      assert.equal(same.data.outcome, 'ignored', 'a new event with the same total records nothing more');
      const more = await deliver(companyId, refundedEvent(40_000, { id: 'evt_refund_too_much' }));
      assert.equal(more.data.outcome, 'ignored', 'more than the credit note has left');
      assert.equal(
        (await h.call('GET', `/v1/credit-notes/${note.id}/refunds`, { key })).data.data.length,
        refunds.length,
      );

      const provider = (await h.call('GET', '/v1/account/card-payments', { key })).data;
      const byId = Object.fromEntries(provider.recentEvents.map((e: any) => [e.eventId, e]));
      assert.match(byId.evt_refund_early.reason, /^unmatched: .*credit note.*reference pi_3Example123/);
      assert.match(byId.evt_refund_unknown.reason, /^unknown_payment/);
      assert.match(byId.evt_refund_test.reason, /^stripe_test_mode/);
      assert.match(byId.evt_refund_resent.reason, /^already_recorded/);
      assert.match(byId.evt_refund_too_much.reason, /^unmatched/);
      for (const delivery of recorded) assert.equal(byId[delivery.eventId].refundId, delivery.refundId);
    },
  );

  await t.test('forged, stale, unsigned or misaddressed events: 404, nothing recorded', async () => {
    const { companyId, key, invoice } = await liveSeller();
    await connect(key);
    const payload = paidEvent(invoice, companyId, invoice.amountDue);
    const stale = sign(payload, webhookSecret, Math.floor(Date.now() / 1000) - 301);
    for (const [what, response] of [
      ['forged', await deliver(companyId, payload, sign(payload, 'whsec_attacker_secret_123'))],
      ['stale', await deliver(companyId, payload, stale)],
      ['unsigned', await h.call('POST', `/card-payments/stripe/${companyId}`, { body: payload })],
      ['another company', await deliver('co_unknown', payload)],
    ] as const) {
      assert.equal(response.statusCode, 404, `${what}: ${response.body}`);
      assert.equal(response.data.error.code, 'not_found');
    }
    assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data.amountDue, invoice.amountDue);
  });

  await t.test('a test invoice: no card checkout (sandbox_payment_unavailable)', async () => {
    const { key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    const refused = await h.call('POST', `${new URL(invoice.paymentPortalUrl).pathname}/checkout`);
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.data.error.code, 'sandbox_payment_unavailable');
  });
});
