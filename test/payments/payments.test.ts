import { test } from 'node:test';
import { advanceWaitingStatements } from '../../src/payments/service.js';
import { sendDueStatements } from '../../src/payments/statement-sender.js';
import assert from 'node:assert/strict';
import {
  advice,
  chair,
  eventsOf,
  finalizedCreditNote,
  finalizedInvoice,
  readyDraft,
  seller,
  sellerProfile,
  documentHarness,
} from '../invoices/support.js';

test('payments', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());

  await t.test(
    'fr212: a payment on a domestic B2B e-invoice of services taxed on collection owes a statement (212); where the invoice stands on the platform says its state, payment.received carries it; the pass moves it once the invoice is deposited (payment.obligation_updated)',
    async () => {
      const { key, companyId: sellerCompany } = await seller(h);
      const sellerOf = new Map([[key, { companyId: sellerCompany }]]);
      const invoice = await finalizedInvoice(h, key, { lines: [chair, advice] });
      const pay = async (amount: number) => {
        const response = await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount } });
        assert.equal(response.statusCode, 201, response.body);
        return response.data;
      };
      const simulate = async (status: string, extra: Record<string, unknown> = {}) => {
        const response = await h.call('POST', `/v1/sandbox/invoices/${invoice.id}/simulate`, {
          key,
          body: { status, ...extra },
        });
        assert.equal(response.statusCode, 200, response.body);
      };

      // Not sent yet: the statement waits for the deposit.
      const before = await pay(1000);
      assert.equal(before.fr212.state, 'awaiting_deposit');
      assert.equal(before.fr212.lastErrorCode, 'awaiting_pa_deposit');
      assert.equal(before.fr212.sentAt, null);
      assert.match(before.fr212.lastErrorReason, /not deposited/);
      assert.equal(before.fr212.updatedAt, before.created);
      const received = (await eventsOf(h, key, 'payment.received')).find((e) => e.data.paymentId === before.id);
      assert.deepEqual(received.data.fr212, before.fr212);
      assert.deepEqual((await h.call('GET', `/v1/payments/${before.id}`, { key })).data.fr212, before.fr212);

      // Sent, then deposited: the statement is due.
      assert.equal((await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key })).statusCode, 200);
      assert.equal((await pay(1000)).fr212.state, 'awaiting_deposit', 'sending is not deposited yet');
      await simulate('fr:200');
      // The pass moves the statements that waited on the deposit, once each, and says so.
      const { companyId } = sellerOf.get(key)!;
      const movedAt = h.clock.now().toISOString();
      assert.equal(await advanceWaitingStatements(h.deps, { companyIds: [companyId] }), 2);
      assert.equal(await advanceWaitingStatements(h.deps, { companyIds: [companyId] }), 0, 'a move is reported once');
      const moved = (await eventsOf(h, key, 'payment.obligation_updated')).filter(
        (e) => e.data.invoiceId === invoice.id,
      );
      assert.equal(moved.length, 2);
      for (const event of moved) {
        assert.deepEqual(event.data.fr212, { state: 'pending', sentAt: null, lastErrorCode: null, updatedAt: movedAt });
        assert.deepEqual(event.data.obligation, {
          state: 'waiting',
          reasonCode: null,
          reasonSource: null,
          owner: 'service',
          action: null,
          nextAttemptAt: null,
        });
        assert.equal(event.data.object, 'payment');
        assert.equal(event.data.reason, null);
      }
      assert.deepEqual(
        (await h.call('GET', `/v1/payments/${before.id}`, { key })).data.fr212,
        moved.find((e) => e.data.id === before.id).data.fr212,
      );

      // The sandbox's platform takes the due statements at once, once.
      assert.equal(await sendDueStatements(h.deps, { companyIds: [companyId] }), 2);
      assert.equal(await sendDueStatements(h.deps, { companyIds: [companyId] }), 0, 'sent once');
      const sentOne = (await h.call('GET', `/v1/payments/${before.id}`, { key })).data.fr212;
      assert.deepEqual([sentOne.state, sentOne.sentAt !== null, sentOne.lastErrorCode], ['sent', true, null]);
      // Over HTTPS, to the pa-simulator the sandbox runs: a CDAR flow it read and acknowledged.
      const platform = await h.deps.sandboxPlatform.connectorOf(companyId);
      const statementFlow = await platform.findDeposit(`fr212-${before.id}`);
      assert.ok(statementFlow.ok && statementFlow.value, 'the platform holds the statement');
      assert.deepEqual(
        [statementFlow.value.flowSyntax, statementFlow.value.ackStatus],
        ['CDAR', 'Ok'],
        JSON.stringify(statementFlow.value.ackDetails),
      );

      const deposited = await pay(1000);
      assert.deepEqual(
        [deposited.fr212.state, deposited.fr212.lastErrorCode, deposited.fr212.sentAt],
        ['pending', null, null],
      );

      // Rejected by the platform: its life cycle takes no statement until it is deposited again.
      await simulate('fr:213', { reasonCode: 'REJ_SEMAN', reason: 'BR-FR-08' });
      const rejected = await pay(1000);
      assert.deepEqual([rejected.fr212.state, rejected.fr212.lastErrorCode], ['pending', 'pa_lifecycle_not_ready']);
      // The statement due before the rejection waits on the invoice again; a sent one stays sent.
      assert.equal(await advanceWaitingStatements(h.deps, { companyIds: [companyId] }), 0);
      assert.equal(
        await sendDueStatements(h.deps, { companyIds: [companyId] }),
        0,
        'nothing leaves for a rejected invoice',
      );

      const list = (await h.call('GET', `/v1/invoices/${invoice.id}/payments`, { key })).data.data;
      assert.deepEqual(
        list.map((p: any) => p.fr212.state),
        // The first two moved when the invoice was deposited, then went.
        ['pending', 'pending', 'sent', 'sent'],
      );

      // Goods only: no statement (VAT due on delivery).
      const goods = await finalizedInvoice(h, key, { lines: [chair] });
      const response = await h.call('POST', '/v1/payments', { key, body: { invoiceId: goods.id, amount: 100 } });
      assert.equal(response.data.fr212, null);
    },
  );

  await t.test(
    "fr212 of a refund: a refund through a credit note owes the negative statement, waits on the invoice's deposit like a payment's, then the sandbox's platform takes it; none on goods",
    async () => {
      const { key, companyId } = await seller(h);
      const invoice = await finalizedInvoice(h, key, { lines: [chair, advice] });
      const paid = await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: 5000 } });
      assert.equal(paid.statusCode, 201, paid.body);
      const note = await finalizedCreditNote(h, key, invoice);
      const refund = await h.call('POST', `/v1/credit-notes/${note.id}/refunds`, { key, body: { amount: 2000 } });
      assert.equal(refund.statusCode, 201, refund.body);
      assert.deepEqual(
        [refund.data.fr212.state, refund.data.fr212.lastErrorCode],
        ['awaiting_deposit', 'awaiting_pa_deposit'],
      );
      assert.equal(await sendDueStatements(h.deps, { companyIds: [companyId] }), 0, 'nothing before the deposit');

      assert.equal((await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key })).statusCode, 200);
      const simulated = await h.call('POST', `/v1/sandbox/invoices/${invoice.id}/simulate`, {
        key,
        body: { status: 'fr:200' },
      });
      assert.equal(simulated.statusCode, 200, simulated.body);
      assert.equal(
        await advanceWaitingStatements(h.deps, { companyIds: [companyId] }),
        2,
        'the payment and the refund',
      );
      const moved = (await eventsOf(h, key, 'payment.obligation_updated')).find(
        (e) => e.data.refundId === refund.data.id,
      );
      assert.deepEqual(
        [moved.data.id, moved.data.object, moved.data.fr212.state],
        [refund.data.id, 'payment', 'pending'],
      );
      assert.equal(await sendDueStatements(h.deps, { companyIds: [companyId] }), 2);
      const listed = (await h.call('GET', `/v1/credit-notes/${note.id}/refunds`, { key })).data.data;
      assert.equal(listed[0].fr212.state, 'sent');

      // Goods only: neither the payment nor its refund owes a statement.
      const goods = await finalizedInvoice(h, key, { lines: [chair] });
      await h.call('POST', '/v1/payments', { key, body: { invoiceId: goods.id, amount: 1000 } });
      const goodsNote = await finalizedCreditNote(h, key, goods);
      const goodsRefund = await h.call('POST', `/v1/credit-notes/${goodsNote.id}/refunds`, {
        key,
        body: { amount: 500 },
      });
      assert.equal(goodsRefund.statusCode, 201, goodsRefund.body);
      assert.equal(goodsRefund.data.fr212, null);
    },
  );

  await t.test(
    'POST /v1/payments: the payment resource (cents, fr212 null), partial then full; paymentStatus and summary move',
    async () => {
      const { key } = await seller(h);
      const invoice = await finalizedInvoice(h, key);
      assert.equal(invoice.total, 35760);
      const first = await h.call('POST', '/v1/payments', {
        key,
        body: {
          invoiceId: invoice.id,
          amount: 10000,
          method: 'transfer',
          reference: 'VIR-2026-10-17',
          paidAt: '2026-10-14',
        },
      });
      assert.equal(first.statusCode, 201, first.body);
      const payment = first.data;
      assert.match(payment.id, /^pay_[0-9a-z]{26}$/);
      assert.deepEqual(
        { ...payment, id: undefined, created: undefined },
        {
          id: undefined,
          object: 'payment',
          livemode: false,
          invoiceId: invoice.id,
          amount: 10000,
          currency: 'EUR',
          method: 'transfer',
          reference: 'VIR-2026-10-17',
          paidAt: '2026-10-14T00:00:00.000Z',
          recorded_by: 'api',
          fr212: null,
          metadata: {},
          created: undefined,
        },
      );
      assert.deepEqual((await h.call('GET', `/v1/payments/${payment.id}`, { key })).data, payment);
      const partial = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
      assert.deepEqual(
        [partial.status, partial.paymentStatus, partial.amountPaid, partial.amountDue],
        ['partially_paid', 'partially_paid', 10000, 25760],
      );
      const second = await h.call('POST', '/v1/payments', {
        key,
        body: { invoiceId: invoice.id, amount: 25760, method: 'card' },
      });
      assert.equal(second.statusCode, 201);
      const paid = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
      assert.deepEqual([paid.status, paid.paymentStatus, paid.amountPaid, paid.amountDue], ['paid', 'paid', 35760, 0]);
      const list = (await h.call('GET', `/v1/invoices/${invoice.id}/payments`, { key })).data;
      assert.deepEqual(
        list.data.map((p: any) => [p.id, p.fr212]),
        [
          [second.data.id, null],
          [payment.id, null],
        ],
      );
      assert.equal(list.url, `/v1/invoices/${invoice.id}/payments`);
      const all = (await h.call('GET', `/v1/payments?invoiceId=${invoice.id}&limit=1`, { key })).data;
      assert.equal(all.has_more, true);
      assert.equal(
        (await h.call('GET', `/v1/payments?invoiceId=${invoice.id}&starting_after=${all.next_cursor}`, { key })).data
          .data[0].id,
        payment.id,
      );
    },
  );

  await t.test(
    'events: payment.created (invoiceId, paymentId, amount, method), payment.received with euro strings, invoice.partially_paid then invoice.paid',
    async () => {
      const { key } = await seller(h);
      const invoice = await finalizedInvoice(h, key);
      const partial = (
        await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: 5, method: 'transfer' } })
      ).data;
      const [created] = await eventsOf(h, key, 'payment.created');
      assert.deepEqual(created.data, {
        invoiceId: invoice.id,
        paymentId: partial.id,
        amount: '0.05',
        method: 'transfer',
      });
      const [received] = await eventsOf(h, key, 'payment.received');
      assert.deepEqual(received.data, {
        id: invoice.id,
        object: 'invoice',
        status: 'partially_paid',
        previous_status: 'finalized',
        livemode: false,
        number: invoice.number,
        documentStatus: 'finalized',
        transmissionStatus: 'pending',
        transmissionDetail: null,
        paymentStatus: 'partially_paid',
        paErrorCode: null,
        rejectionReason: null,
        rejectionCategory: null,
        rejectionCode: null,
        rejectionSource: null,
        metadata: {},
        obligation: {
          state: 'waiting',
          reasonCode: 'not_sent',
          reasonSource: 'service',
          owner: 'client',
          action: 'send',
          nextAttemptAt: null,
        },
        paymentId: partial.id,
        fr212: null,
        amount: '0.05',
        total_paid: '0.05',
        total_due: '357.60',
        total: '357.60',
        amountDue: '357.55',
      });
      const [partially] = await eventsOf(h, key, 'invoice.partially_paid');
      assert.deepEqual([partially.data.previous_status, partially.data.status], ['finalized', 'partially_paid']);
      await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: 35755 } });
      const [last] = await eventsOf(h, key, 'payment.received');
      assert.deepEqual(
        [last.data.amount, last.data.total_paid, last.data.amountDue, last.data.previous_status, last.data.status],
        ['357.55', '357.60', '0.00', 'partially_paid', 'paid'],
      );
      const [paid] = await eventsOf(h, key, 'invoice.paid');
      assert.deepEqual(
        [paid.data.previous_status, paid.data.status, paid.data.paymentStatus],
        ['partially_paid', 'paid', 'paid'],
      );
      const types = (await eventsOf(h, key))
        .map((e) => e.type)
        .slice(0, 3)
        .reverse();
      assert.deepEqual(
        types,
        ['payment.created', 'payment.received', 'invoice.paid'],
        'the events of a payment, in order',
      );
    },
  );

  await t.test('invalid_payment_amount: zero, negative, not an integer of cents', async () => {
    const { key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    for (const amount of [0, -100, 12.5]) {
      const response = await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount } });
      assert.equal(response.statusCode, 400, String(amount));
      assert.equal(response.data.error.code, 'invalid_payment_amount');
      assert.equal(response.data.error.param, 'amount');
    }
    assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}/payments`, { key })).data.data.length, 0);
  });

  await t.test('payment_exceeds_amount_due: above what is still due; nothing recorded', async () => {
    const { key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    const over = await h.call('POST', '/v1/payments', {
      key,
      body: { invoiceId: invoice.id, amount: invoice.total + 1 },
    });
    assert.equal(over.statusCode, 400);
    assert.equal(over.data.error.code, 'payment_exceeds_amount_due');
    assert.match(over.data.error.message, /35761 cents exceeds the 35760 cents/);
    await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: invoice.total } });
    assert.equal(
      (await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: 1 } })).data.error.code,
      'payment_exceeds_amount_due',
      'a paid invoice owes nothing',
    );
    assert.equal((await eventsOf(h, key, 'payment.created')).length, 1);
  });

  await t.test('livemode_mismatch: the payment declares the other environment', async () => {
    const { companyId, key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    const mismatch = await h.call('POST', '/v1/payments', {
      key,
      body: { invoiceId: invoice.id, amount: 100, livemode: true },
    });
    assert.equal(mismatch.statusCode, 400);
    assert.equal(mismatch.data.error.code, 'livemode_mismatch');
    assert.equal(mismatch.data.error.param, 'livemode');
    assert.equal(
      (await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: 100, livemode: false } }))
        .statusCode,
      201,
    );
    const live = await h.key(companyId, { env: 'live' });
    const other = await h.call('POST', '/v1/payments', { key: live, body: { invoiceId: invoice.id, amount: 100 } });
    assert.equal(other.statusCode, 404, 'a test invoice does not exist for a live key');
  });

  await t.test('a draft, a missing invoice, a future payment date', async () => {
    const { key } = await seller(h);
    const draft = await readyDraft(h, key);
    assert.equal(
      (await h.call('POST', '/v1/payments', { key, body: { invoiceId: draft.id, amount: 100 } })).data.error.code,
      'invalid_status_transition',
    );
    const missing = await h.call('POST', '/v1/payments', {
      key,
      body: { invoiceId: 'inv_01m80kd1cn1220tzdk3rc8ms8q', amount: 100 },
    });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.data.error.param, 'invoiceId');
    const invoice = await finalizedInvoice(h, key);
    assert.equal(
      (
        await h.call('POST', '/v1/payments', {
          key,
          body: { invoiceId: invoice.id, amount: 100, paidAt: '2030-01-01' },
        })
      ).data.error.param,
      'paidAt',
    );
    assert.equal((await h.call('GET', '/v1/payments/pay_01m80kd1cn1220tzdk3rc8ms8q', { key })).statusCode, 404);
    assert.equal(
      (await h.call('GET', '/v1/invoices/inv_01m80kd1cn1220tzdk3rc8ms8q/payments', { key })).statusCode,
      404,
    );
  });

  await t.test('live payments count nothing against the quota and live in their own environment', async () => {
    const { companyId } = await seller(h);
    const live = await h.key(companyId, { env: 'live' });
    await h.call('POST', '/v1/tax-profiles', { key: live, body: sellerProfile });
    const invoice = await finalizedInvoice(h, live);
    const payment = await h.call('POST', '/v1/payments', {
      key: live,
      body: { invoiceId: invoice.id, amount: invoice.total, method: 'card' },
    });
    assert.equal(payment.statusCode, 201);
    assert.equal(payment.data.livemode, true);
    assert.equal((await h.call('GET', '/v1/subscription', { key: live })).data.usage.documents, 1, 'the invoice only');
  });

  await t.test('scopes: payments:read reads, payments:write records', async () => {
    const { companyId, key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    const reader = await h.key(companyId, { scopes: ['payments:read'] });
    const denied = await h.call('POST', '/v1/payments', { key: reader, body: { invoiceId: invoice.id, amount: 1 } });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.data.error.code, 'scope_insufficient');
    assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}/payments`, { key: reader })).statusCode, 200);
    const writer = await h.key(companyId, { scopes: ['payments:write'] });
    assert.equal(
      (await h.call('POST', '/v1/payments', { key: writer, body: { invoiceId: invoice.id, amount: 1 } })).statusCode,
      201,
    );
  });
});
