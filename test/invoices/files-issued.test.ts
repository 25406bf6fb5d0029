import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../support/harness.js';
import {
  advice,
  consumerBuyer,
  customer,
  decision,
  finalizedCreditNote,
  finalizedInvoice as finalizedWith,
  frenchBuyer,
  seller,
  documentHarness,
  pageTexts,
} from './support.js';
import { createFileWorker } from '../../src/invoices/generation.js';
import { specimenMark } from '../../src/einvoice/pdf-renderer.js';
import { testCacheDir } from '../einvoice/support.js';

/**
 * Issued means frozen: the files of a finalized document say what was issued (a payment recorded
 * before the worker runs changes the resource, never the files, to the byte); a credit note prints
 * what the buyer is owed and asks for no payment; BT-72 comes from the operation; a test document
 * carries the specimen mark; a live document due on the e-invoicing network that nothing can
 * deposit says so in the finalization's answer.
 */

/** A buyer the French rules accept as a B2B recipient (BR-FR-21). */
const addressedBuyer = { ...frenchBuyer, electronicAddress: '732829320' };

async function finalizedInvoice(h: Harness, key: string) {
  return finalizedWith(h, key, { lines: [advice], customerId: await customer(h, key, addressedBuyer) });
}

async function download(h: Harness, key: string, path: string) {
  const kinds = ['facturx', 'xml', 'pdf'] as const;
  const files: Record<string, Buffer> = {};
  for (const kind of kinds) {
    const response = await h.call('GET', `${path}/files/${kind}`, { key });
    assert.equal(response.statusCode, 200, response.body);
    files[kind] = response.rawPayload;
  }
  return files as Record<(typeof kinds)[number], Buffer>;
}

/** The document's files generated again, from the document as it is stored now. */
async function regenerate(h: Harness, companyId: string, documentId: string) {
  await h.deps.pool.query(
    `update document_files set state = 'pending', attempts = 0, files = null, facturx = null, xml = null, pdf = null,
       next_attempt_at = '2000-01-01' where company_id = $1 and document_id = $2`,
    [companyId, documentId],
  );
}

test('issued documents', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());
  const companyIds: string[] = [];
  const worker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds });
  t.after(() => worker.stop());
  const drain = (companyId: string) => {
    if (!companyIds.includes(companyId)) companyIds.push(companyId);
    return worker.drain();
  };

  await t.test('a payment recorded before the file worker runs leaves the files as issued, byte for byte', async () => {
    const { companyId, key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    const paid = await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: invoice.total } });
    assert.equal(paid.statusCode, 201, paid.body);
    assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data.paymentStatus, 'paid');
    assert.equal(await drain(companyId), 1);
    const afterPayment = await download(h, key, `/v1/invoices/${invoice.id}`);

    // Nothing prepaid in the XML (BT-113), the whole total due (BT-115), and the PDF says the same.
    const xml = afterPayment.xml.toString('utf8');
    assert.doesNotMatch(xml, /TotalPrepaidAmount/);
    const total = (invoice.total / 100).toFixed(2);
    assert.match(xml, new RegExp(`<ram:DuePayableAmount>${total}</ram:DuePayableAmount>`));
    for (const bytes of [afterPayment.pdf, afterPayment.facturx]) {
      const [page] = await pageTexts(bytes);
      assert.ok(!page!.includes('Déjà réglé'), page);
      assert.match(page!, new RegExp(`Net à payer\\s+${total.replace('.', ',')} €`));
    }

    // The same document unpaid, regenerated: the same bytes, and again on every regeneration.
    await h.deps.pool.query(
      `update invoices set amount_paid = 0, payment_status = 'unpaid', status = 'finalized' where company_id = $1 and id = $2`,
      [companyId, invoice.id],
    );
    for (let round = 0; round < 2; round++) {
      await regenerate(h, companyId, invoice.id);
      assert.equal(await drain(companyId), 1);
      const unpaid = await download(h, key, `/v1/invoices/${invoice.id}`);
      for (const kind of ['facturx', 'xml', 'pdf'] as const)
        assert.ok(unpaid[kind].equals(afterPayment[kind]), `${kind} is the file issued`);
    }
  });

  await t.test(
    'a credit note: no due date, its payment axis says whether it was refunded, its PDF what the buyer is owed and no IBAN',
    async () => {
      const { companyId, key } = await seller(h);
      const invoice = await finalizedInvoice(h, key);
      const note = await finalizedCreditNote(h, key, invoice);
      assert.deepEqual([note.dueDate, note.paymentStatus], [null, 'unpaid']);
      assert.equal(await drain(companyId), 2);
      const files = await download(h, key, `/v1/credit-notes/${note.id}`);
      const xml = files.xml.toString('utf8');
      assert.doesNotMatch(xml, /DueDateDateTime|IBANID|SpecifiedTradeSettlementPaymentMeans/);
      const [page] = await pageTexts(files.pdf);
      for (const expected of [
        'AVOIR',
        `Facture d’origine : ${invoice.number} du 15/10/2026`,
        'Montant dû au client',
        `Avoir en faveur du client : à déduire de la facture ${invoice.number} du 15/10/2026`,
      ])
        assert.ok(page!.includes(expected), `"${expected}" in ${page}`);
      for (const absent of ['IBAN', 'échéance', 'Pénalités de retard', '40 €'])
        assert.ok(!page!.includes(absent), `no "${absent}" on the credit note`);
    },
  );

  await t.test(
    'BT-72: without a delivery date, the operation date of the tax decision, not the issue date',
    async () => {
      const { companyId, key } = await seller(h);
      const customerId = await customer(h, key, addressedBuyer);
      const taken = await decision(h, key, { customerId }, [advice], { date: '2026-10-01' });
      const draft = await h.call('POST', '/v1/invoices', {
        key,
        body: { customerId, lines: [advice], taxDecisionId: taken.id },
      });
      assert.equal(draft.statusCode, 201, draft.body);
      const finalized = await h.call('POST', `/v1/invoices/${draft.data.id}/finalize`, { key });
      assert.equal(finalized.statusCode, 200, finalized.body);
      assert.deepEqual([finalized.data.issueDate, finalized.data.deliveryDate], ['2026-10-15', null]);
      assert.equal(await drain(companyId), 1);
      const files = await download(h, key, `/v1/invoices/${draft.data.id}`);
      assert.match(
        files.xml.toString('utf8'),
        /<ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime><udt:DateTimeString format="102">20261001</,
      );
      const [page] = await pageTexts(files.pdf);
      assert.ok(page!.includes('Date de la prestation : 01/10/2026'), page);
    },
  );

  await t.test('a test document carries the specimen mark on every page of its PDFs', async () => {
    const { companyId, key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    assert.equal(await drain(companyId), 1);
    const files = await download(h, key, `/v1/invoices/${invoice.id}`);
    for (const bytes of [files.pdf, files.facturx])
      for (const page of await pageTexts(bytes)) assert.ok(page.includes(specimenMark), page);
  });

  await t.test(
    'live, no platform connected: the finalization of a document due on the network warns `pa_not_configured`; its files carry no specimen mark',
    async () => {
      const { companyId, key } = await seller(h, { env: 'live' });
      const invoice = await finalizedInvoice(h, key);
      assert.equal(invoice.number.startsWith('TEST-'), false);
      assert.deepEqual(
        invoice.warnings.map((warning: any) => warning.code),
        ['pa_not_configured'],
      );
      assert.match(invoice.warnings[0].message, /send/);
      // Only the finalization's answer carries them.
      assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data.warnings, undefined);
      // `send` refuses with the code the warning named.
      const sent = await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
      assert.equal(sent.data.error?.code, 'pa_not_configured', sent.body);

      // Nothing blocks a consumer invoice (not routed to e-invoicing): no warning.
      const consumer = await finalizedWith(h, key, { customerId: await customer(h, key, consumerBuyer) });
      assert.deepEqual(consumer.warnings, []);

      assert.equal(await drain(companyId), 2);
      const files = await download(h, key, `/v1/invoices/${invoice.id}`);
      for (const bytes of [files.pdf, files.facturx])
        for (const page of await pageTexts(bytes)) assert.ok(!page.includes('SPÉCIMEN'), page);
    },
  );

  await t.test('test mode: the sandbox plays the platform, nothing to warn about', async () => {
    const { key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    assert.deepEqual(invoice.warnings, []);
  });
});
