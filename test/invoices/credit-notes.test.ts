import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../support/harness.js';
import {
  advice,
  chair,
  customer,
  decision,
  eventsOf,
  finalizedInvoice,
  readyDraft,
  seller,
  sellerProfile,
  documentHarness,
} from '../invoices/support.js';

/** A draft credit note of `invoice` on `lines` (all of it without), with its own decision. */
async function creditNote(h: Harness, key: string, invoice: any, lines?: Record<string, unknown>[]): Promise<any> {
  const decided =
    lines ??
    invoice.lines.map((l: any) => ({
      description: l.description,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      nature: l.nature,
    }));
  const taken = await decision(h, key, { customerId: invoice.customerId }, decided);
  const response = await h.call('POST', '/v1/credit-notes', {
    key,
    body: { relatedInvoiceId: invoice.id, taxDecisionId: taken.id, ...(lines ? { lines } : {}) },
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.data;
}

async function finalizedNote(h: Harness, key: string, invoice: any, lines?: Record<string, unknown>[]): Promise<any> {
  const note = await creditNote(h, key, invoice, lines);
  const response = await h.call('POST', `/v1/credit-notes/${note.id}/finalize`, { key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data;
}

const refund = (h: Harness, key: string, id: string, body: Record<string, unknown>) =>
  h.call('POST', `/v1/credit-notes/${id}/refunds`, { key, body });

test('credit notes and refunds', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());

  await t.test(
    "a total credit note: the invoice's lines and buyer, its number frozen; credit_note.created with relatedInvoiceId and relatedInvoiceNumber",
    async () => {
      const { key } = await seller(h);
      const invoice = await finalizedInvoice(h, key, { lines: [chair, advice] });
      const note = await creditNote(h, key, invoice);
      assert.match(note.id, /^cn_[0-9a-z]{26}$/);
      assert.equal(note.object, 'credit_note');
      assert.deepEqual(
        [note.status, note.number, note.customerId, note.relatedInvoiceId, note.relatedInvoiceNumber],
        ['draft', null, invoice.customerId, invoice.id, invoice.number],
      );
      assert.equal(note.lines.length, 2);
      assert.equal(note.subtotal, invoice.subtotal);
      const [created] = await eventsOf(h, key, 'credit_note.created');
      assert.deepEqual(
        [
          created.data.id,
          created.data.object,
          created.data.status,
          created.data.previous_status,
          created.data.relatedInvoiceId,
          created.data.relatedInvoiceNumber,
        ],
        [note.id, 'credit_note', 'draft', null, invoice.id, invoice.number],
      );
      assert.deepEqual((await h.call('GET', `/v1/credit-notes/${note.id}`, { key })).data, note);
    },
  );

  await t.test(
    'finalize: its own decision, its own series (AV); the invoice owes less; credit_note.finalized',
    async () => {
      const { key } = await seller(h);
      const invoice = await finalizedInvoice(h, key, { lines: [chair, advice] });
      const partial = await finalizedNote(h, key, invoice, [advice]);
      assert.deepEqual(
        [partial.number, partial.status, partial.total, partial.relatedInvoiceNumber],
        ['TEST-AV2026-000001', 'finalized', 32400, 'TEST-F2026-000001'],
      );
      const after = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
      assert.deepEqual(
        [after.amountCredited, after.amountDue, after.documentStatus],
        [32400, invoice.total - 32400, 'finalized'],
      );
      const [finalized] = await eventsOf(h, key, 'credit_note.finalized');
      assert.deepEqual(
        [
          finalized.data.number,
          finalized.data.previous_status,
          finalized.data.status,
          finalized.data.relatedInvoiceNumber,
        ],
        ['TEST-AV2026-000001', 'draft', 'finalized', invoice.number],
      );
      const next = await finalizedInvoice(h, key);
      assert.equal(next.number, 'TEST-F2026-000002', 'a credit note never takes an invoice number');
      // The rest of the invoice is credited; no more after that.
      await finalizedNote(h, key, invoice, [chair]);
      const over = await creditNote(h, key, invoice, [chair]);
      const refused = await h.call('POST', `/v1/credit-notes/${over.id}/finalize`, { key });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.data.error.code, 'invalid_field_value');
      assert.match(refused.data.error.message, /left to credit/);
      assert.equal((await h.call('GET', `/v1/credit-notes/${over.id}`, { key })).data.number, null);
      assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data.amountDue, 0);
    },
  );

  await t.test('a credit note that settles a partly paid invoice moves it to paid (invoice.paid)', async () => {
    const { key } = await seller(h);
    const invoice = await finalizedInvoice(h, key, { lines: [chair, advice] });
    await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: invoice.total - 32400 } });
    await finalizedNote(h, key, invoice, [advice]);
    const after = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
    assert.deepEqual([after.paymentStatus, after.status, after.amountDue], ['paid', 'paid', 0]);
    const [paid] = await eventsOf(h, key, 'invoice.paid');
    assert.deepEqual([paid.data.id, paid.data.previous_status], [invoice.id, 'partially_paid']);
  });

  await t.test(
    'creation refusals: related_invoice_not_found, a draft invoice, another buyer; a standalone credit note names its buyer and lines',
    async () => {
      const { key } = await seller(h);
      const missing = await h.call('POST', '/v1/credit-notes', {
        key,
        body: { relatedInvoiceId: 'inv_01m80kd1cn1220tzdk3rc8ms8q' },
      });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.data.error.code, 'related_invoice_not_found');
      assert.equal(missing.data.error.param, 'relatedInvoiceId');
      const draft = await readyDraft(h, key);
      assert.equal(
        (await h.call('POST', '/v1/credit-notes', { key, body: { relatedInvoiceId: draft.id } })).data.error.code,
        'invalid_status_transition',
      );
      const invoice = await finalizedInvoice(h, key);
      const other = await customer(h, key);
      assert.equal(
        (await h.call('POST', '/v1/credit-notes', { key, body: { relatedInvoiceId: invoice.id, customerId: other } }))
          .data.error.param,
        'customerId',
      );
      assert.equal(
        (await h.call('POST', '/v1/credit-notes', { key, body: { customerId: other } })).data.error.param,
        'lines',
      );
      const standalone = await h.call('POST', '/v1/credit-notes', {
        key,
        body: { customerId: other, lines: [advice] },
      });
      assert.equal(standalone.statusCode, 201, standalone.body);
      assert.deepEqual([standalone.data.relatedInvoiceId, standalone.data.relatedInvoiceNumber], [null, null]);
    },
  );

  await t.test(
    'a finalized credit note cannot be edited (invoice_not_editable); drafts are edited and deleted',
    async () => {
      const { key } = await seller(h);
      const invoice = await finalizedInvoice(h, key, { lines: [chair, advice] });
      const draft = await creditNote(h, key, invoice, [advice]);
      const edited = await h.call('POST', `/v1/credit-notes/${draft.id}`, { key, body: { notes: 'Geste commercial' } });
      assert.equal(edited.data.notes, 'Geste commercial');
      const finalized = await h.call('POST', `/v1/credit-notes/${draft.id}/finalize`, { key });
      assert.equal(finalized.statusCode, 200, finalized.body);
      assert.equal(
        (await h.call('POST', `/v1/credit-notes/${draft.id}`, { key, body: { notes: 'x' } })).data.error.code,
        'invoice_not_editable',
      );
      const other = await creditNote(h, key, invoice, [chair]);
      assert.equal((await h.call('DELETE', `/v1/credit-notes/${other.id}`, { key })).data.documentStatus, 'cancelled');
      const list = (await h.call('GET', `/v1/credit-notes?relatedInvoiceId=${invoice.id}`, { key })).data;
      assert.deepEqual(
        list.data.map((n: any) => n.id),
        [other.id, draft.id],
      );
      assert.equal((await h.call('GET', `/v1/credit-notes?status=finalized`, { key })).data.data.length, 1);
      assert.equal(
        (await h.call('GET', `/v1/invoices/${draft.id}`, { key })).statusCode,
        404,
        'a credit note is not an invoice',
      );
    },
  );

  await t.test(
    'refunds: the finalized credit note gives back what was paid; the invoice moves to partially_refunded, then refunded; payment.received with a negative amount',
    async () => {
      const { key } = await seller(h);
      const invoice = await finalizedInvoice(h, key, { lines: [chair, advice] });
      await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: invoice.total } });
      const note = await finalizedNote(h, key, invoice, [advice]);
      const first = await refund(h, key, note.id, { amount: 2400, method: 'transfer', reference: 'REMB-1' });
      assert.equal(first.statusCode, 201, first.body);
      assert.match(first.data.id, /^ref_/);
      assert.deepEqual(
        [first.data.object, first.data.creditNoteId, first.data.invoiceId, first.data.amount, first.data.reference],
        ['refund', note.id, invoice.id, 2400, 'REMB-1'],
      );
      let after = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
      assert.deepEqual(
        [after.paymentStatus, after.status, after.amountRefunded],
        ['partially_refunded', 'partially_refunded', 2400],
      );
      assert.equal(
        (await h.call('GET', `/v1/credit-notes/${note.id}`, { key })).data.paymentStatus,
        'partially_refunded',
      );
      const [received] = await eventsOf(h, key, 'payment.received');
      assert.deepEqual(
        [
          received.data.id,
          received.data.paymentId,
          received.data.refundId,
          received.data.amount,
          received.data.previous_status,
          received.data.status,
        ],
        [invoice.id, null, first.data.id, '-24.00', 'paid', 'partially_refunded'],
      );
      await refund(h, key, note.id, { amount: 30000 });
      assert.equal((await h.call('GET', `/v1/credit-notes/${note.id}`, { key })).data.paymentStatus, 'refunded');
      after = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data;
      assert.equal(after.amountRefunded, 32400);
      // The credit note is refunded in full: the invoice gave back all it owed back, it is no longer partly refunded.
      assert.deepEqual([after.paymentStatus, after.status], ['refunded', 'refunded']);
      const list = (await h.call('GET', `/v1/credit-notes/${note.id}/refunds`, { key })).data;
      assert.equal(list.data.length, 2);
    },
  );

  await t.test(
    'refund refusals: credit_note_not_refundable, invalid_refund_amount, refund_exceeds_credit_note, related_invoice_not_found',
    async () => {
      const { key } = await seller(h);
      const invoice = await finalizedInvoice(h, key, { lines: [chair, advice] });
      await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: invoice.total } });
      const draft = await creditNote(h, key, invoice, [advice]);
      const notFinalized = await refund(h, key, draft.id, { amount: 100 });
      assert.equal(notFinalized.statusCode, 400);
      assert.equal(notFinalized.data.error.code, 'credit_note_not_refundable');
      await h.call('POST', `/v1/credit-notes/${draft.id}/finalize`, { key });
      for (const amount of [0, -5, 1.5, '100', null]) {
        const response = await refund(h, key, draft.id, { amount });
        assert.equal(response.statusCode, 400, JSON.stringify(amount));
        assert.equal(response.data.error.code, 'invalid_refund_amount');
      }
      const over = await refund(h, key, draft.id, { amount: 32401 });
      assert.equal(over.data.error.code, 'refund_exceeds_credit_note');
      assert.match(over.data.error.message, /32401 cents exceeds the 32400 cents/);
      assert.equal((await refund(h, key, draft.id, { amount: 32400 })).statusCode, 201);
      const full = await refund(h, key, draft.id, { amount: 1 });
      assert.equal(full.data.error.code, 'credit_note_not_refundable', 'fully refunded');
      // Never more than the buyer paid: an unpaid invoice's credit note has nothing to give back.
      const unpaid = await finalizedInvoice(h, key);
      const noteOfUnpaid = await finalizedNote(h, key, unpaid);
      const nothing = await refund(h, key, noteOfUnpaid.id, { amount: 100 });
      assert.equal(nothing.data.error.code, 'refund_exceeds_credit_note');
      assert.match(nothing.data.error.message, /the 0 cents left/);
      // A standalone credit note corrects no invoice.
      const other = await customer(h, key);
      const standalone = (
        await h.call('POST', '/v1/credit-notes', {
          key,
          body: {
            customerId: other,
            lines: [advice],
            taxDecisionId: (await decision(h, key, { customerId: other }, [advice])).id,
          },
        })
      ).data;
      // It is not issued: a French credit note names the invoice it corrects (BR-FR-CO-05), so
      // the own checks refuse it before any number, and there is nothing to refund.
      const refused = await h.call('POST', `/v1/credit-notes/${standalone.id}/finalize`, { key });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.data.error.code, 'schematron_validation_failed');
      assert.match(refused.data.error.message, /BR-FR-CO-05_BT-3/);
      const orphan = await refund(h, key, standalone.id, { amount: 100 });
      assert.equal(orphan.data.error.code, 'credit_note_not_refundable');
      assert.equal((await refund(h, key, 'cn_01m80kd1cn1220tzdk3rc8ms8q', { amount: 100 })).statusCode, 404);
    },
  );

  await t.test("live: a credit note consumes the quota; its finalization is limited like an invoice's", async () => {
    const { companyId } = await seller(h);
    const live = await h.key(companyId, { env: 'live' });
    await h.call('POST', '/v1/tax-profiles', { key: live, body: sellerProfile });
    const invoice = await finalizedInvoice(h, live);
    const note = await finalizedNote(h, live, invoice);
    assert.equal(note.number, 'AV2026-000001');
    assert.equal((await h.call('GET', '/v1/subscription', { key: live })).data.usage.documents, 2);
  });

  await t.test('scopes: credit_notes:*', async () => {
    const { companyId, key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    const invoicesOnly = await h.key(companyId, { scopes: ['invoices:write'] });
    const denied = await h.call('POST', '/v1/credit-notes', {
      key: invoicesOnly,
      body: { relatedInvoiceId: invoice.id },
    });
    assert.equal(denied.statusCode, 403);
    const writer = await h.key(companyId, { scopes: ['credit_notes:write'] });
    assert.equal(
      (await h.call('POST', '/v1/credit-notes', { key: writer, body: { relatedInvoiceId: invoice.id } })).statusCode,
      201,
    );
  });
});
