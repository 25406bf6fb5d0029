import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../support/harness.js';
import {
  chair,
  advice,
  customer,
  documentHarness,
  finalizedInvoice as finalizedWith,
  frenchBuyer,
  readyDraft,
  seller,
} from '../invoices/support.js';
import { createFileWorker } from '../../src/invoices/generation.js';
import { testCacheDir } from '../einvoice/support.js';
import { plans } from '../../src/kernel/plans.js';
import { extractFacturXml } from '../../src/einvoice/cii-reader.js';
import { closeValidation } from '../../src/received/official-validation.js';
import { ownFacturX, receive } from '../received/support.js';

/**
 * The files the service keeps count against the plan's storage (per environment): the three
 * generated files of a finalized document, counted when the worker stores them; a received
 * invoice's original, counted when it is received, and its rendered visual when it is drawn.
 * They are never refused (a numbered document must get its files, a delivered invoice must be
 * kept); a storage used up refuses the next finalization with `storage_quota_exceeded`. A
 * sandbox reset gives the test files' bytes back.
 */

/** A buyer the French rules accept as a B2B recipient (BR-FR-21), so that the files are generated. */
const addressedBuyer = { ...frenchBuyer, electronicAddress: '732829320' };

async function stored(h: Harness, key: string): Promise<number> {
  const response = await h.call('GET', '/v1/subscription', { key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data.usage.storageBytes;
}

/** The storage counter of the scope, set directly: a company whose files already fill it. */
async function fillStorage(h: Harness, companyId: string, livemode: boolean, bytes: number) {
  await h.deps.pool.query(
    `insert into storage_usage (company_id, livemode, bytes) values ($1, $2, $3)
     on conflict (company_id, livemode) do update set bytes = excluded.bytes`,
    [companyId, livemode, bytes],
  );
}

test("generated and received files count against the plan's storage", async (t) => {
  const h = await documentHarness();
  const companyIds: string[] = [];
  const fileWorker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds });
  t.after(async () => {
    await fileWorker.stop();
    await h.close();
    await closeValidation();
  });
  const finalized = async (key: string) =>
    finalizedWith(h, key, { lines: [chair, advice], customerId: await customer(h, key, addressedBuyer) });

  await t.test(
    'a finalized invoice: its three files counted when generated, shown by GET /v1/subscription; a sandbox reset gives them back',
    async () => {
      const { companyId, key } = await seller(h);
      companyIds.push(companyId);
      const before = await stored(h, key);
      assert.equal(before, 0);
      const invoice = await finalized(key);
      assert.equal(await stored(h, key), 0, 'nothing stored before the worker generated the files');
      assert.equal(await fileWorker.drain(), 1);
      const files = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data.files;
      assert.ok(files.every((file: any) => file.state === 'ready'));
      const size = files.reduce((total: number, file: any) => total + file.size, 0);
      assert.ok(size > 10_000, `four real files: ${size} bytes`);
      assert.equal(await stored(h, key), size);
      const live = await h.key(companyId, { env: 'live' });
      assert.equal(await stored(h, live), 0, 'the live environment has its own storage');

      const reset = await h.call('POST', '/v1/sandbox/reset', { key });
      assert.equal(reset.statusCode, 200, reset.body);
      assert.equal(await stored(h, key), 0);
      // The reset's sample documents get their files, counted like any.
      const samples = await fileWorker.drain();
      assert.ok(samples > 0);
      const sampleFiles = await h.deps.pool.query(
        `select sum(octet_length(facturx) + octet_length(xml) + octet_length(pdf) + coalesce(octet_length(ubl), 0))::bigint as bytes
         from document_files where company_id = $1 and not livemode and state = 'ready'`,
        [companyId],
      );
      assert.equal(await stored(h, key), Number(sampleFiles.rows[0].bytes));
    },
  );

  await t.test(
    'a received invoice: its original counted at reception, its rendered visual when first drawn, once; a reset gives them back',
    async () => {
      const { key } = await seller(h);
      const pdf = await ownFacturX({ number: 'FA-STOCK-1' });
      const received = await receive(h, key, pdf, 'flow-storage-1');
      assert.equal(received.statusCode, 201, received.body);
      assert.equal(await stored(h, key), pdf.length);
      assert.equal((await receive(h, key, pdf, 'flow-storage-1')).statusCode, 200);
      assert.equal(await stored(h, key), pdf.length, 'the same flow again stores nothing');

      // A bare CII XML: its visual is drawn on first request and kept.
      const xml = Buffer.from((await extractFacturXml(pdf))!.xml, 'utf8');
      const bare = await receive(h, key, xml, 'flow-storage-2');
      assert.equal(bare.statusCode, 201, bare.body);
      assert.equal(await stored(h, key), pdf.length + xml.length);
      const visual = await h.call('GET', `/v1/received-invoices/${bare.data.id}/files/pdf`, { key });
      assert.equal(visual.statusCode, 200);
      const drawn = visual.rawPayload.length;
      assert.equal(await stored(h, key), pdf.length + xml.length + drawn);
      assert.equal((await h.call('GET', `/v1/received-invoices/${bare.data.id}/files/pdf`, { key })).statusCode, 200);
      assert.equal(await stored(h, key), pdf.length + xml.length + drawn, 'kept, counted once');

      assert.equal((await h.call('POST', '/v1/sandbox/reset', { key })).statusCode, 200);
      assert.equal(await stored(h, key), 0);
    },
  );

  await t.test(
    'a storage used up: the files of a document already finalized are stored and counted past it; the next finalization is storage_quota_exceeded; invoices are still received',
    async () => {
      const { companyId, key } = await seller(h, { plan: 'free' });
      companyIds.push(companyId);
      const limit = plans.free.storageBytes;
      const invoice = await finalized(key);
      const draft = await readyDraft(h, key, {
        lines: [chair],
        customerId: await customer(h, key, addressedBuyer),
      });
      await fillStorage(h, companyId, false, limit - 100);

      // Finalized before the storage filled: it gets its files, counted past the plan's storage.
      assert.equal(await fileWorker.drain(), 1);
      const files = (await h.call('GET', `/v1/invoices/${invoice.id}`, { key })).data.files;
      assert.ok(files.every((file: any) => file.state === 'ready'));
      const size = files.reduce((total: number, file: any) => total + file.size, 0);
      assert.equal(await stored(h, key), limit - 100 + size);

      const refused = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
      assert.equal(refused.statusCode, 402, refused.body);
      assert.equal(refused.data.error.code, 'storage_quota_exceeded');
      assert.equal(refused.data.error.type, 'plan_limit_error');
      const still = (await h.call('GET', `/v1/invoices/${draft.id}`, { key })).data;
      assert.equal(still.status, 'draft', 'nothing numbered');
      assert.equal(still.number, null);

      // The platform's deliveries are kept whatever the storage.
      const pdf = await ownFacturX({ number: 'FA-STOCK-2' });
      const received = await receive(h, key, pdf);
      assert.equal(received.statusCode, 201, received.body);
      assert.equal(await stored(h, key), limit - 100 + size + pdf.length);

      // Room again (a larger storage here): the draft is finalized.
      await fillStorage(h, companyId, false, limit - 1);
      const finalizedNow = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
      assert.equal(finalizedNow.statusCode, 200, finalizedNow.body);
      // The other environment is not affected by a full sandbox.
      const live = await h.key(companyId, { env: 'live' });
      assert.equal(await stored(h, live), 0);
    },
  );
});
