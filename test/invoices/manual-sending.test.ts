import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { createFileWorker } from '../../src/invoices/generation.js';
import { testCacheDir } from '../einvoice/support.js';
import { asDecisionCustomer, chair, consumerBuyer, decision, eventsOf, finalizedInvoice, seller } from './support.js';

/**
 * The contract's trigger of `invoice.sent`: "sent through the platform or manual download". A
 * document no platform carries (B2C) is sent by the seller from its file: its first download
 * records `invoice.sent`, once; a document of e-invoicing is sent by the platform, never by a download.
 */
test('invoice.sent on the first manual download of a document outside e-invoicing, once', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());
  const fileWorker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1 });
  t.after(() => fileWorker.stop());
  const { key } = await seller(h);
  const sentOf = async (id: string) => (await eventsOf(h, key, 'invoice.sent')).filter((e: any) => e.data.id === id);

  const taken = await decision(h, key, { customer: asDecisionCustomer(consumerBuyer) }, [chair]);
  const draft = await h.call('POST', '/v1/invoices', {
    key,
    body: { buyer: consumerBuyer, lines: [chair], taxDecisionId: taken.id },
  });
  assert.equal(draft.statusCode, 201, draft.body);
  const b2c = (await h.call('POST', `/v1/invoices/${draft.data.id}/finalize`, { key })).data;
  assert.equal(b2c.transmissionStatus, 'not_applicable');
  const early = await h.call('GET', `/v1/invoices/${b2c.id}/files/pdf`, { key });
  assert.equal(early.statusCode, 409, 'being generated: nothing downloaded, nothing sent');
  await fileWorker.drain();
  assert.equal((await sentOf(b2c.id)).length, 0);

  const downloads = await Promise.all(
    ['pdf', 'facturx', 'xml', 'pdf'].map((kind) => h.call('GET', `/v1/invoices/${b2c.id}/files/${kind}`, { key })),
  );
  for (const download of downloads) assert.equal(download.statusCode, 200, download.body);
  const sent = await sentOf(b2c.id);
  assert.equal(sent.length, 1, 'one sending, whatever the number of downloads');
  assert.equal(sent[0].data.number, b2c.number);

  const b2b = await finalizedInvoice(h, key);
  await fileWorker.drain();
  assert.equal((await h.call('GET', `/v1/invoices/${b2b.id}/files/pdf`, { key })).statusCode, 200);
  assert.equal((await sentOf(b2b.id)).length, 0, 'in e-invoicing the platform sends it, not a download');
});
