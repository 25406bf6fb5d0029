import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFileWorker } from '../../src/invoices/generation.js';
import { readUbl } from '../../src/einvoice/ubl-reader.js';
import { ublValidation, ValidationPool } from '../../src/einvoice/validation-pool.js';
import { testCacheDir } from '../einvoice/support.js';
import {
  advice,
  customer,
  documentHarness,
  finalizedCreditNote,
  finalizedInvoice,
  frenchBuyer,
  seller,
} from './support.js';

/**
 * `GET /v1/invoices/:id/files/ubl` (and the credit notes'): the UBL 2.1 of a finalized document,
 * generated, validated and frozen with its Factur-X and CII, listed in its `files` and archived.
 */

/** A buyer the French rules accept as a B2B recipient (BR-FR-21). */
const addressedBuyer = { ...frenchBuyer, electronicAddress: '732829320' };

test('the UBL file of invoices and credit notes', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());
  const companyIds: string[] = [];
  const worker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds });
  t.after(() => worker.stop());
  const pool = await ValidationPool.open({ cacheDir: testCacheDir, size: 1, ...ublValidation });
  t.after(() => pool.close());
  const drain = (companyId: string) => {
    if (!companyIds.includes(companyId)) companyIds.push(companyId);
    return worker.drain();
  };

  await t.test('an invoice: served as application/xml, an Invoice with its totals, frozen and archived', async () => {
    const { companyId, key } = await seller(h, { env: 'live' });
    const customerId = await customer(h, key, addressedBuyer);
    const invoice = await finalizedInvoice(h, key, { lines: [advice], customerId });
    assert.equal(await drain(companyId), 1);
    const response = await h.call('GET', `/v1/invoices/${invoice.id}/files/ubl`, { key });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-type'], 'application/xml');
    assert.equal(response.headers['content-disposition'], `attachment; filename="${invoice.number}-ubl.xml"`);
    const xml = response.rawPayload.toString('utf8');
    const read = readUbl(xml);
    assert.equal(read.typeCode, '380');
    assert.equal(read.number, invoice.number);
    assert.equal(read.totals.gross, invoice.total);
    const report = await pool.validate(xml);
    assert.deepEqual(report.failures, [], 'the UBL XSD, EN 16931 UBL and BR-FR UBL find nothing');

    const resource = await h.call('GET', `/v1/invoices/${invoice.id}`, { key });
    const entry = resource.data.files.find((file: any) => file.kind === 'ubl');
    assert.equal(entry.state, 'ready');
    assert.equal(entry.contentType, 'application/xml');
    assert.equal(entry.url, `/v1/invoices/${invoice.id}/files/ubl`);
    assert.equal(`"${entry.sha256}"`, response.headers.etag);
    const again = await h.call('GET', `/v1/invoices/${invoice.id}/files/ubl`, {
      key,
      headers: { 'if-none-match': response.headers.etag as string },
    });
    assert.equal(again.statusCode, 304);

    // Archived with the others: the verification hashes it too.
    const verified = await h.call('GET', `/v1/invoices/${invoice.id}/verify`, { key });
    assert.equal(verified.data.status, 'intact', verified.body);
    assert.equal(verified.data.entry.fileHashes.ubl, entry.sha256);

    // Generated again from the stored document: the same bytes (frozen).
    await h.deps.pool.query(
      `update document_files set state = 'pending', attempts = 0, files = null, facturx = null, xml = null, pdf = null,
         ubl = null, next_attempt_at = '2000-01-01' where company_id = $1 and document_id = $2`,
      [companyId, invoice.id],
    );
    assert.equal(await drain(companyId), 1);
    const regenerated = await h.call('GET', `/v1/invoices/${invoice.id}/files/ubl`, { key });
    assert.ok(regenerated.rawPayload.equals(response.rawPayload));
  });

  await t.test('a credit note: a UBL CreditNote naming its invoice, under /v1/credit-notes', async () => {
    const { companyId, key } = await seller(h);
    const customerId = await customer(h, key, addressedBuyer);
    const invoice = await finalizedInvoice(h, key, { lines: [advice], customerId });
    const note = await finalizedCreditNote(h, key, invoice);
    assert.equal(await drain(companyId), 2);
    const response = await h.call('GET', `/v1/credit-notes/${note.id}/files/ubl`, { key });
    assert.equal(response.statusCode, 200, response.body);
    const xml = response.rawPayload.toString('utf8');
    assert.match(xml, /<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
    const read = readUbl(xml);
    assert.equal(read.typeCode, '381');
    assert.equal(read.precedingInvoice?.number, invoice.number);
    assert.deepEqual((await pool.validate(xml)).failures, []);
  });

  await t.test(
    'a document generated before UBL was issued has no UBL: not_supported, its other files served',
    async () => {
      const { companyId, key } = await seller(h);
      const customerId = await customer(h, key, addressedBuyer);
      const invoice = await finalizedInvoice(h, key, { lines: [advice], customerId });
      assert.equal(await drain(companyId), 1);
      await h.deps.pool.query(
        `update document_files set ubl = null, files = files - 'ubl' where company_id = $1 and document_id = $2`,
        [companyId, invoice.id],
      );
      const response = await h.call('GET', `/v1/invoices/${invoice.id}/files/ubl`, { key });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.data.error.code, 'not_supported');
      assert.equal((await h.call('GET', `/v1/invoices/${invoice.id}/files/xml`, { key })).statusCode, 200);
      const resource = await h.call('GET', `/v1/invoices/${invoice.id}`, { key });
      assert.equal(resource.data.files.find((file: any) => file.kind === 'ubl').sha256, null);
    },
  );
});
