import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Harness } from '../support/harness.js';
import {
  advice,
  chair,
  consumerBuyer,
  decision,
  asDecisionCustomer,
  documentHarness,
  eventsOf,
  finalizedInvoice,
  seller,
  sellerSiren,
  today,
} from '../invoices/support.js';
import { createJobWorker } from '../../src/jobs/worker.js';
import { registry } from '../../src/capabilities.js';
import type { JobKind } from '../../src/jobs/job-kind.js';
import { readFec, type FecEntryRead } from './fec-reader.js';

const book = {
  description: 'Livre de recettes',
  quantity: '4',
  unitPrice: '24.90',
  nature: 'goods',
  rateCategory: 'reduced',
};

/** Runs the company's queued jobs to the end with these kinds (the service's by default). */
async function runJobs(h: Harness, companyId: string, kinds: Record<string, JobKind> = registry.jobKinds) {
  const worker = createJobWorker(h.deps, { companies: [companyId], kinds, registry });
  await worker.drain();
}

async function exportFec(h: Harness, key: string, body: Record<string, unknown>) {
  const response = await h.call('POST', '/v1/exports/fec', { key, body });
  assert.equal(response.statusCode, 202, response.body);
  return response.data;
}

async function download(h: Harness, key: string, id: string) {
  const response = await h.app.inject({
    method: 'GET',
    url: `/v1/exports/${id}/download`,
    headers: { authorization: `Bearer ${key}` },
  });
  return response;
}

/** A credit note of part of an invoice, finalized, with its own decision. */
async function creditNote(h: Harness, key: string, invoice: any, lines: Record<string, unknown>[]) {
  const taken = await decision(h, key, { customerId: invoice.customerId }, lines);
  const draft = await h.call('POST', '/v1/credit-notes', {
    key,
    body: { relatedInvoiceId: invoice.id, taxDecisionId: taken.id, lines },
  });
  assert.equal(draft.statusCode, 201, draft.body);
  const finalized = await h.call('POST', `/v1/credit-notes/${draft.data.id}/finalize`, { key });
  assert.equal(finalized.statusCode, 200, finalized.body);
  return finalized.data;
}

/** An invoice to a buyer written on the document (no customer). */
async function inlineInvoice(h: Harness, key: string) {
  const taken = await decision(h, key, { customer: asDecisionCustomer(consumerBuyer) }, [advice]);
  const draft = await h.call('POST', '/v1/invoices', {
    key,
    body: { buyer: consumerBuyer, lines: [advice], taxDecisionId: taken.id },
  });
  assert.equal(draft.statusCode, 201, draft.body);
  const finalized = await h.call('POST', `/v1/invoices/${draft.data.id}/finalize`, { key });
  assert.equal(finalized.statusCode, 200, finalized.body);
  return finalized.data;
}

/** The books of a company: three invoices, a credit note, payments and a refund. */
async function books(h: Harness) {
  const { companyId, key } = await seller(h);
  const first = await finalizedInvoice(h, key, { lines: [chair, advice] });
  const second = await finalizedInvoice(h, key, { customerId: first.customerId, lines: [book, advice] });
  const third = await inlineInvoice(h, key);
  const pay = async (invoiceId: string, amount: number, extra: Record<string, unknown> = {}) => {
    const response = await h.call('POST', '/v1/payments', { key, body: { invoiceId, amount, ...extra } });
    assert.equal(response.statusCode, 201, response.body);
    return response.data;
  };
  const payments = [
    await pay(first.id, first.total, { reference: 'VIR|2026-1' }),
    await pay(second.id, 5000, { method: 'check' }),
  ];
  const note = await creditNote(h, key, first, [advice]);
  const refund = await h.call('POST', `/v1/credit-notes/${note.id}/refunds`, {
    key,
    body: { amount: note.total, method: 'transfer', reference: 'REMB-1' },
  });
  assert.equal(refund.statusCode, 201, refund.body);
  return { companyId, key, documents: [first, second, third, note], payments, refund: refund.data };
}

const sum = (entry: FecEntryRead, field: 'debit' | 'credit', account?: string) =>
  entry.lines.filter((line) => !account || line.account === account).reduce((total, line) => total + line[field], 0);

test('FEC export', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());

  await t.test(
    'POST /v1/exports/fec: 202 with the job; the job writes the file; export.ready; the file re-read: 18 fields, balanced, numbered, the amounts of the books',
    async () => {
      const { companyId, key, documents, payments, refund } = await books(h);
      const day = today(h);
      const job = await exportFec(h, key, { from: '2026-01-01', to: day });
      assert.equal(job.object, 'job');
      assert.equal(job.kind, 'exports.fec');
      assert.equal(job.status, 'queued');
      const exportId = job.result.id;
      assert.match(exportId, /^exp_[0-9a-z]{26}$/);
      assert.equal(job.result.status, 'pending');

      await runJobs(h, companyId);
      const done = (await h.call('GET', `/v1/jobs/${job.id}`, { key })).data;
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      assert.deepEqual(done.progress, { total: 7, processed: 7 });
      const resource = (await h.call('GET', `/v1/exports/${exportId}`, { key })).data;
      assert.equal(resource.status, 'ready');
      assert.equal(resource.kind, 'fec');
      assert.deepEqual(resource.period, { from: '2026-01-01', to: day });
      assert.equal(resource.fileName, `${sellerSiren}FEC${day.replaceAll('-', '')}.txt`);
      assert.equal(resource.count, 7, 'four documents, two payments, a refund');
      assert.equal(done.result.id, exportId);
      assert.equal(done.result.count, 7);

      const file = await download(h, key, exportId);
      assert.equal(file.statusCode, 200);
      assert.equal(file.headers['content-type'], 'text/plain; charset=iso-8859-15');
      assert.equal(file.headers['content-disposition'], `attachment; filename="${resource.fileName}"`);
      assert.equal(Number(file.headers['content-length']), file.rawPayload.length);
      assert.equal(file.rawPayload.length, resource.size);
      const sha = createHash('sha256').update(file.rawPayload).digest('hex');
      assert.equal(resource.sha256, sha);
      assert.equal(file.headers['repr-digest'], `sha-256=:${Buffer.from(sha, 'hex').toString('base64')}:`);

      const { entries } = readFec(file.rawPayload);
      assert.equal(entries.length, 7);
      const byPiece = (piece: string) => entries.find((entry) => entry.piece === piece)!;
      for (const document of documents) {
        const entry = byPiece(document.number);
        assert.ok(entry, `the entry of ${document.number}`);
        assert.equal(entry.journal, 'VE');
        assert.equal(entry.date, document.issueDate.replaceAll('-', ''));
        const invoice = document.object === 'invoice';
        // The customer carries the total; sales the net by nature; VAT the tax by rate.
        assert.equal(sum(entry, invoice ? 'debit' : 'credit', '411000'), document.total);
        const net = (nature: string) =>
          document.lines.filter((l: any) => l.nature === nature).reduce((s: number, l: any) => s + l.netAmount, 0);
        assert.equal(sum(entry, invoice ? 'credit' : 'debit', '707000'), net('goods'));
        assert.equal(sum(entry, invoice ? 'credit' : 'debit', '706000'), net('services'));
        assert.equal(sum(entry, invoice ? 'credit' : 'debit', '445710'), document.totalTax);
        for (const group of document.vatBreakdown) {
          const rate = String(Number(group.vatRate)).replace('.', ',');
          const line = entry.lines.find((l) => l.account === '445710' && l.accountLabel === `TVA collectée ${rate} %`);
          assert.equal((line?.credit ?? 0) + (line?.debit ?? 0), group.taxAmount, `VAT at ${rate} %`);
        }
      }
      const [first, second, third] = documents;
      // The customer's auxiliary account: its id; a buyer written on the document: the miscellaneous one.
      assert.deepEqual(
        byPiece(first.number)
          .lines.filter((l) => l.account === '411000')
          .map((l) => [l.auxiliary, l.auxiliaryLabel]),
        [[first.customerId, 'Atelier Lumière SAS']],
      );
      assert.deepEqual(
        byPiece(third.number)
          .lines.filter((l) => l.account === '411000')
          .map((l) => [l.auxiliary, l.auxiliaryLabel]),
        [['DIVERS', 'Clients divers']],
      );
      // Two VAT rates on the second invoice: two VAT lines.
      assert.equal(byPiece(second.number).lines.filter((l) => l.account === '445710').length, 2);

      const [firstPayment, secondPayment] = payments;
      const paymentEntry = byPiece('VIR 2026-1');
      assert.ok(paymentEntry, 'the `|` of a reference becomes a space');
      assert.equal(paymentEntry.journal, 'BQ');
      assert.deepEqual(
        paymentEntry.lines.map((l) => [l.account, l.debit, l.credit]),
        [
          ['512000', firstPayment.amount, 0],
          ['411000', 0, firstPayment.amount],
        ],
      );
      assert.equal(paymentEntry.date, firstPayment.paidAt.slice(0, 10).replaceAll('-', ''));
      assert.equal(sum(byPiece(secondPayment.id), 'debit', '512000'), 5000);
      const refundEntry = byPiece('REMB-1');
      assert.deepEqual(
        refundEntry.lines.map((l) => [l.account, l.debit, l.credit]),
        [
          ['512000', 0, refund.amount],
          ['411000', refund.amount, 0],
        ],
      );
      // The bytes are ISO 8859-15: è is one byte, 0xE8.
      assert.ok(
        file.rawPayload.includes(Buffer.from([0x4c, 0x75, 0x6d, 0x69, 0xe8, 0x72, 0x65])),
        'Lumière in ISO 8859-15',
      );

      const ready = (await eventsOf(h, key, 'export.ready'))[0];
      assert.deepEqual(ready.data, { id: exportId, object: 'export', count: 7 });
    },
  );
});
