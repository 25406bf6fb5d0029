import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { createDocumentEmailWorker } from '../../src/mail/service.js';
import { createFileWorker } from '../../src/invoices/generation.js';
import { testCacheDir } from '../einvoice/support.js';
import {
  asDecisionCustomer,
  chair,
  consumerBuyer,
  customer,
  decision,
  eventsOf,
  finalizedCreditNote,
  seller,
} from '../invoices/support.js';
import { attachmentOf, headerOf, startSmtpServer } from './smtp-server.js';

test('a B2C invoice is sent by e-mail with its PDF; invoice.sent when the e-mail leaves', async (t) => {
  const smtp = await startSmtpServer();
  t.after(() => smtp.close());
  const h = await startHarness({
    clockStart: '2026-10-15T10:00:00Z',
    config: { smtpUrl: smtp.url, mailFrom: 'Facteur <factures@facteur.example>' },
  });
  t.after(() => h.close());
  const call = h.call.bind(h);
  h.call = (...args) => {
    h.clock.advance(1000);
    return call(...args);
  };
  const mailWorker = createDocumentEmailWorker(h.deps, { timeoutMs: 20_000, companies: () => [...ours] });
  t.after(() => mailWorker.stop());
  // The suite's other e-mail workers share the database: each claims its own test's companies only.
  const ours = new Set<string>();
  const ownSeller = async (...args: Parameters<typeof seller>) => {
    const made = await seller(...args);
    ours.add(made.companyId);
    return made;
  };
  const fileWorker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1 });
  t.after(() => fileWorker.stop());

  async function b2cInvoice(key: string, buyer: Record<string, unknown> = consumerBuyer) {
    const taken = await decision(h, key, { customer: asDecisionCustomer(buyer) }, [chair]);
    const draft = await h.call('POST', '/v1/invoices', {
      key,
      body: { buyer, lines: [chair], taxDecisionId: taken.id },
    });
    assert.equal(draft.statusCode, 201, draft.body);
    const finalized = await h.call('POST', `/v1/invoices/${draft.data.id}/finalize`, { key });
    assert.equal(finalized.statusCode, 200, finalized.body);
    return finalized.data;
  }
  const sentEvents = async (key: string, id: string) =>
    (await eventsOf(h, key)).filter((e: any) => e.type === 'invoice.sent' && e.data.id === id);

  await t.test(
    'test mode: files being generated, then the e-mail is logged, never sent; invoice.sent at once',
    async () => {
      const { key } = await ownSeller(h);
      const invoice = await b2cInvoice(key);
      // `send` keeps the contract's answer: no platform carries it (the e-mail is its own route).
      const send = await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
      assert.equal(send.statusCode, 400, send.body);
      assert.equal(send.data.error.code, 'not_einvoicing_channel');
      const early = await h.call('POST', `/v1/invoices/${invoice.id}/email`, { key });
      assert.equal(early.statusCode, 409, early.body);
      assert.ok(early.headers['retry-after']);
      await fileWorker.drain();
      const sent = await h.call('POST', `/v1/invoices/${invoice.id}/email`, { key });
      assert.equal(sent.statusCode, 200, sent.body);
      assert.equal(sent.data.einvoicing?.paTrackingId ?? null, null, 'nothing deposited');
      assert.equal((await sentEvents(key, invoice.id)).length, 1);
      await mailWorker.drain();
      assert.equal(smtp.received.length, 0, 'never sent');
      const { rows } = await h.deps.pool.query('select status, "to" from document_emails where document_id = $1', [
        invoice.id,
      ]);
      assert.deepEqual(rows, [{ status: 'logged', to: consumerBuyer.email }]);
      const listed = await h.call('GET', `/v1/invoices/${invoice.id}/emails`, { key });
      assert.equal(listed.statusCode, 200, listed.body);
      assert.equal(listed.data.object, 'list');
      assert.equal(listed.data.url, `/v1/invoices/${invoice.id}/emails`);
      assert.equal(listed.data.data.length, 1);
      const [email] = listed.data.data;
      assert.equal(email.object, 'document_email');
      assert.equal(email.livemode, false);
      assert.equal(email.status, 'logged');
      assert.match(email.error, /test mode/);
      assert.equal(email.sentAt, null);
    },
  );

  await t.test('live: the PDF leaves through SMTP, byte for byte; then invoice.sent', async () => {
    const { key } = await ownSeller(h, { env: 'live' });
    const invoice = await b2cInvoice(key);
    await fileWorker.drain();
    const sent = await h.call('POST', `/v1/invoices/${invoice.id}/email`, { key });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal((await sentEvents(key, invoice.id)).length, 0, 'not before the e-mail leaves');
    await mailWorker.drain();
    assert.equal(smtp.received.length, 1);
    const mail = smtp.received[0]!;
    assert.deepEqual(mail.to, [consumerBuyer.email]);
    assert.equal(headerOf(mail.raw, 'Subject'), `Facture ${invoice.number} de Vendeur SAS`);
    const pdf = await h.call('GET', `/v1/invoices/${invoice.id}/files/facturx`, { key });
    assert.equal(pdf.statusCode, 200);
    const attached = attachmentOf(mail.raw, `${invoice.number}.pdf`);
    assert.ok(attached, 'the PDF is attached');
    assert.deepEqual(attached, pdf.rawPayload, 'the frozen PDF, byte for byte');
    assert.equal((await sentEvents(key, invoice.id)).length, 1);
    const listed = (await h.call('GET', `/v1/invoices/${invoice.id}/emails`, { key })).data.data;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].status, 'sent');
    assert.equal(listed[0].to, consumerBuyer.email);
    assert.equal(listed[0].attempts, 1);
    assert.equal(listed[0].messageId, headerOf(mail.raw, 'Message-ID'));
    assert.ok(listed[0].sentAt, 'when the SMTP server accepted it');
  });

  await t.test('live: a credit note to a consumer is e-mailed too; credit_note.sent when it leaves', async () => {
    const { key } = await ownSeller(h, { env: 'live' });
    const customerId = await customer(h, key, {
      ...consumerBuyer,
      address: { ...consumerBuyer.address, country: 'FR' },
    });
    const taken = await decision(h, key, { customerId }, [chair]);
    const draft = await h.call('POST', '/v1/invoices', {
      key,
      body: { customerId, lines: [chair], taxDecisionId: taken.id },
    });
    const invoice = (await h.call('POST', `/v1/invoices/${draft.data.id}/finalize`, { key })).data;
    const note = await finalizedCreditNote(h, key, invoice);
    await fileWorker.drain();
    const before = smtp.received.length;
    const sent = await h.call('POST', `/v1/credit-notes/${note.id}/email`, { key });
    assert.equal(sent.statusCode, 200, sent.body);
    await mailWorker.drain();
    assert.equal(smtp.received.length, before + 1);
    const mail = smtp.received.at(-1)!;
    assert.equal(headerOf(mail.raw, 'Subject'), `Avoir ${note.number} de Vendeur SAS`);
    assert.ok(attachmentOf(mail.raw, `${note.number}.pdf`), 'its Factur-X attached');
    const events = (await eventsOf(h, key)).filter((e: any) => e.type === 'credit_note.sent');
    assert.equal(events.length, 1);
    assert.equal(events[0].data.id, note.id);
    assert.equal(events[0].data.paStatus, 'not_applicable');
    assert.equal(events[0].data.paInvoiceId, null);
    const listed = await h.call('GET', `/v1/credit-notes/${note.id}/emails`, { key });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(
      listed.data.data.map((email: any) => [email.documentId, email.status]),
      [[note.id, 'sent']],
    );
    // The invoice it corrects was never e-mailed; a document of another kind or company is not found.
    assert.deepEqual((await h.call('GET', `/v1/invoices/${invoice.id}/emails`, { key })).data.data, []);
    assert.equal((await h.call('GET', `/v1/invoices/${note.id}/emails`, { key })).statusCode, 404);
    const stranger = await ownSeller(h, { env: 'live' });
    const foreign = await h.call('GET', `/v1/credit-notes/${note.id}/emails`, { key: stranger.key });
    assert.equal(foreign.statusCode, 404, foreign.body);
  });

  await t.test('live without an SMTP server: not_supported, nothing queued', async () => {
    const { key } = await ownSeller(h, { env: 'live' });
    const invoice = await b2cInvoice(key);
    await fileWorker.drain();
    const smtpUrl = h.deps.config.smtpUrl;
    h.deps.config.smtpUrl = null;
    try {
      const send = await h.call('POST', `/v1/invoices/${invoice.id}/email`, { key });
      assert.equal(send.statusCode, 400, send.body);
      assert.equal(send.data.error.code, 'not_supported');
      assert.match(send.body, /FACTEUR_SMTP_URL/);
      const { rows } = await h.deps.pool.query('select 1 from document_emails where document_id = $1', [invoice.id]);
      assert.equal(rows.length, 0);
    } finally {
      h.deps.config.smtpUrl = smtpUrl;
    }
  });
});
