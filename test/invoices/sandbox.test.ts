import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { invoiceFixtures } from '../../src/invoices/fixtures.js';
import { finalizedInvoice, seller, sellerProfile } from './support.js';

test('sandbox: fixture invoices, payment links and the payment page', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());

  await t.test(
    'a reset injects fixture invoices in several states, numbered first in the test series; the counter moves beyond them',
    async () => {
      const { key } = await seller(h);
      await finalizedInvoice(h, key);
      const reset = await h.call('POST', '/v1/sandbox/reset', { key });
      assert.equal(reset.statusCode, 200, reset.body);
      assert.equal(reset.data.purged.invoices, 1);
      const list = (await h.call('GET', '/v1/invoices?limit=100', { key })).data.data;
      assert.equal(list.length, invoiceFixtures.length);
      const byName = Object.fromEntries(list.map((i: any) => [i.metadata.fixture, i]));
      const states = Object.fromEntries(
        Object.entries(byName).map(([name, i]: [string, any]) => [
          name,
          [i.status, i.transmissionStatus, i.transmissionDetail, i.paymentStatus],
        ]),
      );
      assert.deepEqual(states, {
        paid: ['paid', 'approved', null, 'paid'],
        partially_paid_overdue: ['partially_paid', 'transmitted', 'received', 'partially_paid'],
        rejected: ['rejected', 'rejected', null, 'unpaid'],
        refused: ['refused', 'rejected', 'refused', 'unpaid'],
        approved: ['approved', 'approved', null, 'unpaid'],
        consumer_paid_by_card: ['paid', 'not_applicable', null, 'paid'],
        finalized: ['finalized', 'pending', null, 'unpaid'],
        draft: ['draft', 'not_applicable', null, 'unpaid'],
      });
      const numbers = list
        .filter((i: any) => i.number)
        .map((i: any) => i.number)
        .sort();
      assert.deepEqual(
        numbers,
        [1, 2, 3, 4, 5, 6, 7].map((n) => `TEST-F2026-00000${n}`),
      );
      assert.ok(byName.paid.issueDate < byName.finalized.issueDate, 'numbers follow the dates');
      assert.equal(byName.partially_paid_overdue.overdue, true);
      assert.equal(byName.rejected.einvoicing.rejectionCategory, 'semantic_error');
      assert.equal(byName.refused.einvoicing.rejectionSource, 'buyer');
      assert.match(byName.rejected.einvoicing.rejectionNote, /\n/, 'the rejection notes, one per line');
      assert.equal(byName.refused.einvoicing.rejectionNote, null, 'a refusal without notes');
      assert.deepEqual(
        Object.fromEntries(
          Object.entries(byName).map(([name, i]: [string, any]) => [
            name,
            i.obligation && [i.obligation.state, i.obligation.reasonCode, i.obligation.owner],
          ]),
        ),
        {
          paid: ['fulfilled', null, null],
          partially_paid_overdue: ['fulfilled', null, null],
          rejected: ['waiting', 'REJ_SEMAN', 'client'],
          refused: ['fulfilled', null, null],
          approved: ['fulfilled', null, null],
          consumer_paid_by_card: ['waiting', 'ereporting_not_enabled', 'client'],
          finalized: ['waiting', 'not_sent', 'client'],
          draft: null,
        },
      );
      assert.deepEqual(
        (await h.call('GET', `/v1/invoices/${byName.paid.id}/payments`, { key })).data.data.map((p: any) => p.amount),
        [byName.paid.total],
      );
      // The fixtures keep their ids across resets; the next invoice follows their numbers.
      await h.call('POST', '/v1/sandbox/reset', { key });
      assert.equal((await h.call('GET', `/v1/invoices/${byName.approved.id}`, { key })).statusCode, 200);
      await h.call('POST', '/v1/tax-profiles', { key, body: sellerProfile });
      const next = await finalizedInvoice(h, key);
      assert.ok(Number(next.number.split('-').at(-1)) > 7, `${next.number} is beyond the fixtures`);
      // A fixture can be driven like any invoice: pay the rest of the overdue one.
      const rest = byName.partially_paid_overdue.amountDue;
      assert.equal(
        (
          await h.call('POST', '/v1/payments', {
            key,
            body: { invoiceId: byName.partially_paid_overdue.id, amount: rest },
          })
        ).statusCode,
        201,
      );
      const quotes = (await h.call('GET', '/v1/quotes', { key })).data.data;
      assert.deepEqual(
        quotes.map((q: any) => q.status),
        ['sent', 'draft'],
      );
    },
  );

  await t.test(
    'payment link: 422 sandbox_payment_unavailable for a test invoice; a live invoice gets its payment page',
    async () => {
      const { companyId, key } = await seller(h);
      const invoice = await finalizedInvoice(h, key);
      const refused = await h.call('POST', `/v1/invoices/${invoice.id}/payment-link`, { key });
      assert.equal(refused.statusCode, 422);
      assert.equal(refused.data.error.code, 'sandbox_payment_unavailable');
      assert.equal(refused.data.error.type, 'invalid_request_error');
      const live = await h.key(companyId, { env: 'live' });
      await h.call('POST', '/v1/tax-profiles', { key: live, body: sellerProfile });
      const liveInvoice = await finalizedInvoice(h, live);
      const link = await h.call('POST', `/v1/invoices/${liveInvoice.id}/payment-link`, { key: live });
      assert.equal(link.statusCode, 200, link.body);
      assert.deepEqual(
        { ...link.data, url: undefined },
        {
          object: 'payment_link',
          livemode: true,
          invoiceId: liveInvoice.id,
          url: undefined,
          amountDue: liveInvoice.total,
          currency: 'EUR',
        },
      );
      assert.equal(link.data.url, liveInvoice.paymentPortalUrl);
      const page = await h.call('GET', new URL(link.data.url).pathname);
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /text\/html/);
      assert.match(page.body, new RegExp(liveInvoice.number));
      assert.match(page.body, /Amount due: <strong>357\.60 EUR<\/strong>/);
      assert.equal(page.headers['referrer-policy'], 'no-referrer');
      await h.call('POST', '/v1/payments', {
        key: live,
        body: { invoiceId: liveInvoice.id, amount: liveInvoice.total },
      });
      assert.match((await h.call('GET', new URL(link.data.url).pathname)).body, /This invoice is paid/);
      assert.equal(
        (await h.call('POST', `/v1/invoices/${liveInvoice.id}/payment-link`, { key: live })).data.error.code,
        'invalid_status_transition',
        'nothing due',
      );
    },
  );

  await t.test(
    'the public payment page of a test invoice: 409 sandbox_payment_unavailable; an unknown token: 404',
    async () => {
      const { key } = await seller(h);
      const invoice = await finalizedInvoice(h, key);
      const page = await h.call('GET', new URL(invoice.paymentPortalUrl).pathname);
      assert.equal(page.statusCode, 409);
      assert.equal(page.data.error.code, 'sandbox_payment_unavailable');
      assert.match(page.data.error.request_id, /^req_/);
      const unknown = await h.call('GET', '/pay/nope');
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.data.error.code, 'not_found');
    },
  );
});
