import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { decision, finalizedInvoice, seller } from './support.js';

/** Documents, payments and quotes of another company or of the other environment answer 404, exactly as missing ones. */
test('isolation of invoices, credit notes, payments and quotes', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const owner = await seller(h);
  const invoice = await finalizedInvoice(h, owner.key);
  const note = (
    await h.call('POST', '/v1/credit-notes', {
      key: owner.key,
      body: {
        relatedInvoiceId: invoice.id,
        taxDecisionId: (await decision(h, owner.key, { customerId: invoice.customerId })).id,
      },
    })
  ).data;
  const payment = (
    await h.call('POST', '/v1/payments', { key: owner.key, body: { invoiceId: invoice.id, amount: 100 } })
  ).data;
  const quote = (
    await h.call('POST', '/v1/quotes', {
      key: owner.key,
      body: { customerId: invoice.customerId, lines: [{ description: 'x', unitPrice: '1', nature: 'services' }] },
    })
  ).data;
  const stranger = await seller(h);
  const live = await h.key(owner.companyId, { env: 'live' });

  const routes: [string, string, unknown?][] = [
    ['GET', `/v1/invoices/${invoice.id}`],
    ['POST', `/v1/invoices/${invoice.id}`, { notes: 'x' }],
    ['DELETE', `/v1/invoices/${invoice.id}`],
    ['POST', `/v1/invoices/${invoice.id}/finalize`],
    ['POST', `/v1/invoices/${invoice.id}/send`],
    ['GET', `/v1/invoices/${invoice.id}/history`],
    ['GET', `/v1/invoices/${invoice.id}/payments`],
    ['POST', '/v1/payments', { invoiceId: invoice.id, amount: 1 }],
    ['GET', `/v1/payments/${payment.id}`],
    ['GET', `/v1/credit-notes/${note.id}`],
    ['POST', `/v1/credit-notes/${note.id}/finalize`],
    ['POST', `/v1/credit-notes/${note.id}/refunds`, { amount: 1 }],
    ['GET', `/v1/credit-notes/${note.id}/refunds`],
    ['POST', '/v1/credit-notes', { relatedInvoiceId: invoice.id }],
    ['GET', `/v1/quotes/${quote.id}`],
    ['POST', `/v1/quotes/${quote.id}/finalize`],
    ['POST', `/v1/quotes/${quote.id}/convert`],
  ];
  for (const [name, key] of [
    ['another company', stranger.key],
    ['the live environment', live],
  ] as const) {
    for (const [method, url, body] of routes) {
      const response = await h.call(method as 'GET', url, { key, ...(body ? { body } : {}) });
      const expected = url === '/v1/credit-notes' ? 'related_invoice_not_found' : 'not_found';
      assert.equal(response.data.error?.code, expected, `${name}: ${method} ${url}: ${response.body}`);
    }
    const payLink = await h.call('POST', `/v1/invoices/${invoice.id}/payment-link`, { key });
    assert.equal(payLink.statusCode, 404, name);
    for (const list of ['/v1/invoices', '/v1/credit-notes', '/v1/payments', '/v1/quotes']) {
      assert.equal((await h.call('GET', list, { key })).data.data.length, 0, `${name}: ${list}`);
    }
  }
  const simulate = await h.call('POST', `/v1/sandbox/invoices/${invoice.id}/simulate`, {
    key: stranger.key,
    body: { status: 'fr:200' },
  });
  assert.equal(simulate.statusCode, 404);
});
