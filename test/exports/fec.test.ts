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
import { createJobWorker, defaultJobLockMs } from '../../src/jobs/worker.js';
import { fecExportJobOf } from '../../src/exports/fec-job.js';
import { purgeExpiredExports } from '../../src/exports/service.js';
import { registry } from '../../src/capabilities.js';
import type { JobKind } from '../../src/jobs/job-kind.js';
import { readFec, type FecEntryRead } from './fec-reader.js';
import { ownFacturX, receive } from '../received/support.js';
import { closeValidation } from '../../src/received/official-validation.js';

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

/** Received invoices: one from Atelier Dupont, its credit note, and one the company refused. */
async function purchases(h: Harness, key: string) {
  const day = today(h);
  const received = async (overrides: Record<string, unknown>) => {
    const response = await receive(h, key, await ownFacturX({ issueDate: day, ...overrides }));
    assert.equal(response.statusCode, 201, response.body);
    return response.data;
  };
  const invoice = await received({ number: 'FA-2026-0042' });
  const note = await received({ number: 'AV-2026-0007', typeCode: '381' });
  const refused = await received({ number: 'FA-2026-0043' });
  const answer = await h.call('POST', `/v1/received-invoices/${refused.id}/refuse`, {
    key,
    body: { reasonCode: 'DOUBLON', reason: 'Déjà reçue' },
  });
  assert.equal(answer.statusCode, 200, answer.body);
  return { invoice, note, refused };
}

test('FEC export', async (t) => {
  const h = await documentHarness();
  t.after(async () => {
    await h.close();
    await closeValidation();
  });

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

  await t.test(
    'options: a tab separator, other journal codes, a journal left out, the collective account, accounts per nature and per rate',
    async () => {
      const { companyId, key, documents } = await books(h);
      const job = await exportFec(h, key, {
        from: '2026-01-01',
        to: today(h),
        separator: 'tab',
        journals: { sales: 'VT', bank: null },
        accounts: {
          customers: '411100',
          customerDetail: 'collective',
          sales: { services: '706100', goods: '707100' },
          vat: { default: '445711', byRate: [{ rate: '5.5', account: '445715' }] },
        },
      });
      await runJobs(h, companyId);
      const file = await download(h, key, job.result.id);
      assert.equal(file.statusCode, 200);
      assert.ok(!file.rawPayload.includes(Buffer.from('|')), 'no pipe: the separator is the tab');
      const { entries, records } = readFec(file.rawPayload, '\t');
      assert.equal(entries.length, 4, 'the sales journal alone');
      assert.ok(entries.every((entry) => entry.journal === 'VT'));
      assert.deepEqual([...new Set(records.map((r) => r.account))].sort(), [
        '411100',
        '445711',
        '445715',
        '706100',
        '707100',
      ]);
      assert.ok(
        records.every((r) => r.auxiliary === '' && r.auxiliaryLabel === ''),
        'no auxiliary account',
      );
      const second = entries.find((entry) => entry.piece === documents[1].number)!;
      const reduced = documents[1].vatBreakdown.find((g: any) => Number(g.vatRate) === 5.5);
      assert.equal(sum(second, 'credit', '445715'), reduced.taxAmount);
    },
  );

  await t.test(
    'the purchase journal (AC): received invoices by issue date, the supplier credited, purchases and deductible VAT debited, a credit note reversed, a refused invoice left out; numbered with the other journals',
    async () => {
      const { companyId, key, documents } = await books(h);
      const { invoice, note } = await purchases(h, key);
      const job = await exportFec(h, key, { from: '2026-01-01', to: today(h) });
      await runJobs(h, companyId);
      const done = (await h.call('GET', `/v1/jobs/${job.id}`, { key })).data;
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      assert.deepEqual(done.progress, { total: 9, processed: 9 }, 'seven of the books, two received');
      const file = await download(h, key, job.result.id);
      const { entries } = readFec(file.rawPayload);
      assert.equal(entries.length, 9);
      const bought = entries.filter((entry) => entry.journal === 'AC');
      assert.deepEqual(
        bought.map((entry) => entry.piece),
        [invoice.number, note.number],
        'the refused invoice is not booked; in the order they were received',
      );
      assert.ok(
        bought.every((entry) =>
          entry.lines.every((l) => l.accountLabel !== '' && l.date === today(h).replaceAll('-', '')),
        ),
      );
      assert.ok(
        bought.every((entry) => entry.lines.every((line) => line.validDate >= line.date)),
        'validated the day they were received',
      );
      const [bill, credit] = bought as [FecEntryRead, FecEntryRead];
      assert.deepEqual(
        bill.lines.map((l) => [l.account, l.accountLabel, l.auxiliary, l.auxiliaryLabel, l.debit, l.credit]),
        [
          ['401000', 'Fournisseurs', 'F732829320', 'Atelier Dupont & Fils', 0, invoice.totalTtc],
          ['607000', 'Achats', '', '', invoice.totalHt, 0],
          ...invoice.vatBreakdown.map((group: any) => [
            '445660',
            `TVA déductible ${String(Number(group.vatRate)).replace('.', ',')} %`,
            '',
            '',
            group.taxAmount,
            0,
          ]),
        ],
      );
      assert.equal(bill.lines[0]!.label, `Facture ${invoice.number} Atelier Dupont & Fils`);
      assert.equal(sum(bill, 'debit'), invoice.totalTtc);
      // The credit note: the same accounts, reversed.
      assert.deepEqual(
        credit.lines.map((l) => [l.account, l.debit, l.credit]),
        [
          ['401000', note.totalTtc, 0],
          ['607000', 0, note.totalHt],
          ...note.vatBreakdown.map((group: any) => ['445660', 0, group.taxAmount]),
        ],
      );
      // Continuous numbering across the journals, by date then the instant of record: the
      // books were finalized before the invoices were received, on the same day.
      assert.deepEqual(
        entries.map((entry) => entry.number),
        entries.map((_, index) => index + 1),
      );
      assert.equal(
        entries.findIndex((entry) => entry.journal === 'AC'),
        7,
        'received after the books of the day',
      );
      assert.ok(documents.every((document) => entries.some((entry) => entry.piece === document.number)));

      // Options: another code, the collective account, a purchases account, deductible VAT per rate.
      const mapped = await exportFec(h, key, {
        from: '2026-01-01',
        to: today(h),
        journals: { sales: null, bank: null, purchases: 'HA' },
        accounts: {
          suppliers: '401100',
          supplierDetail: 'collective',
          purchases: '604000',
          deductibleVat: { default: '445661', byRate: [{ rate: '5.5', account: '445662' }] },
        },
      });
      await runJobs(h, companyId);
      const read = readFec((await download(h, key, mapped.result.id)).rawPayload);
      assert.deepEqual(
        read.entries.map((entry) => [entry.journal, entry.piece]),
        [
          ['HA', invoice.number],
          ['HA', note.number],
        ],
      );
      assert.deepEqual([...new Set(read.records.map((r) => r.account))].sort(), [
        '401100',
        '445661',
        '445662',
        '604000',
      ]);
      assert.ok(read.records.every((r) => r.auxiliary === ''));
      const reduced = invoice.vatBreakdown.find((group: any) => Number(group.vatRate) === 5.5);
      assert.equal(sum(read.entries[0]!, 'debit', '445662'), reduced.taxAmount);

      // Left out: no purchase entry.
      const without = await exportFec(h, key, { from: '2026-01-01', to: today(h), journals: { purchases: null } });
      await runJobs(h, companyId);
      const sales = readFec((await download(h, key, without.result.id)).rawPayload);
      assert.equal(sales.entries.length, 7);
      assert.ok(sales.entries.every((entry) => entry.journal !== 'AC'));
    },
  );

  await t.test('refusals: the period, the accounts, the journals, unknown fields, the scopes', async () => {
    const { key, companyId } = await seller(h);
    const refused = async (body: unknown, status: number, code: string, param?: string) => {
      const response = await h.call('POST', '/v1/exports/fec', { key, body });
      assert.equal(response.statusCode, status, response.body);
      assert.equal(response.data.error.code, code);
      if (param) assert.equal(response.data.error.param, param);
    };
    await refused({ from: '2026-02-01', to: '2026-01-31' }, 400, 'invalid_field_value', 'to');
    await refused({ to: '2026-01-31' }, 400, 'missing_required_field', 'from');
    await refused({ from: '2026-02-30', to: '2026-03-31' }, 400, 'invalid_field_value', 'from');
    await refused({ from: '01/01/2026', to: '2026-03-31' }, 422, 'validation_error', 'from');
    await refused({ from: '2026-01-01', to: '2026-03-31', separator: ';' }, 422, 'validation_error', 'separator');
    await refused(
      { from: '2026-01-01', to: '2026-03-31', accounts: { bank: '51 2' } },
      422,
      'validation_error',
      'accounts.bank',
    );
    await refused(
      { from: '2026-01-01', to: '2026-03-31', accounts: { customers: '401000' } },
      422,
      'validation_error',
      'accounts.customers',
    );
    await refused(
      { from: '2026-01-01', to: '2026-03-31', accounts: { vat: { byRate: [{ rate: '20', account: '445620' }] } } },
      422,
      'validation_error',
      'accounts.vat.byRate[0].account',
    );
    await refused(
      { from: '2026-01-01', to: '2026-03-31', journals: { sales: null, bank: null, purchases: null } },
      400,
      'invalid_field_value',
      'journals',
    );
    await refused(
      { from: '2026-01-01', to: '2026-03-31', journals: { sales: 'JX', bank: 'JX' } },
      400,
      'invalid_field_value',
      'journals.bank',
    );
    await refused(
      { from: '2026-01-01', to: '2026-03-31', journals: { sales: 'VE', bank: null, purchases: 'VE' } },
      400,
      'invalid_field_value',
      'journals.purchases',
    );
    await refused(
      { from: '2026-01-01', to: '2026-03-31', accounts: { purchases: '706000' } },
      422,
      'validation_error',
      'accounts.purchases',
    );
    await refused(
      { from: '2026-01-01', to: '2026-03-31', accounts: { suppliers: '411000' } },
      422,
      'validation_error',
      'accounts.suppliers',
    );
    await refused(
      { from: '2026-01-01', to: '2026-03-31', accounts: { deductibleVat: { default: '445710' } } },
      422,
      'validation_error',
      'accounts.deductibleVat.default',
    );
    await refused(
      {
        from: '2026-01-01',
        to: '2026-03-31',
        accounts: {
          deductibleVat: {
            byRate: [
              { rate: '20', account: '445662' },
              { rate: '20.0', account: '445663' },
            ],
          },
        },
      },
      400,
      'invalid_field_value',
      'accounts.deductibleVat.byRate[1].rate',
    );
    await refused({ from: '2026-01-01', to: '2026-03-31', format: 'xml' }, 400, 'invalid_field_value');
    assert.equal(
      Number(
        (await h.deps.pool.query('select count(*) from exports where company_id = $1', [companyId])).rows[0].count,
      ),
      0,
      'a refused request leaves nothing',
    );

    const reader = await h.key(companyId, { scopes: ['invoices:read'] });
    const denied = await h.call('POST', '/v1/exports/fec', {
      key: reader,
      body: { from: '2026-01-01', to: '2026-01-31' },
    });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.data.error.code, 'scope_insufficient');
    const other = await h.key(companyId, { scopes: ['customers:write'] });
    assert.equal((await h.call('GET', '/v1/exports', { key: other })).data.error.code, 'scope_insufficient');
    const writer = await h.key(companyId, { scopes: ['invoices:write'] });
    const job = await exportFec(h, writer, { from: '2026-01-01', to: '2026-01-31' });
    assert.equal((await h.call('GET', `/v1/exports/${job.result.id}`, { key: reader })).statusCode, 200);
    // Not ready yet: no worker ran.
    const early = await download(h, reader, job.result.id);
    assert.equal(early.statusCode, 400);
    assert.equal(JSON.parse(early.body).error.code, 'invalid_status_transition');
    assert.equal((await h.call('POST', '/v1/exports/data', { key: writer })).data.error.code, 'scope_insufficient');
  });

  await t.test('live: 5 FEC exports per day per key, then 429 with Retry-After; the sandbox is exempt', async () => {
    const { companyId, key } = await seller(h);
    const live = await h.key(companyId, { env: 'live' });
    const body = { from: '2026-01-01', to: '2026-01-31' };
    for (let i = 0; i < 5; i++)
      assert.equal((await h.call('POST', '/v1/exports/fec', { key: live, body })).statusCode, 202);
    const sixth = await h.call('POST', '/v1/exports/fec', { key: live, body });
    assert.equal(sixth.statusCode, 429);
    assert.equal(sixth.data.error.code, 'rate_limit_exceeded');
    const retryAfter = Number(sixth.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 86_400, `Retry-After ${retryAfter} is within the UTC day`);
    const anotherLive = await h.key(companyId, { env: 'live' });
    assert.equal((await h.call('POST', '/v1/exports/fec', { key: anotherLive, body })).statusCode, 202, 'per key');
    for (let i = 0; i < 6; i++) assert.equal((await h.call('POST', '/v1/exports/fec', { key, body })).statusCode, 202);
  });

  await t.test("isolation: another company's export, or the other environment's, is not found", async () => {
    const { companyId, key } = await seller(h);
    const job = await exportFec(h, key, { from: '2026-01-01', to: today(h) });
    await runJobs(h, companyId);
    const id = job.result.id;
    const stranger = await h.tenant();
    for (const other of [stranger.key, await h.key(companyId, { env: 'live' })]) {
      assert.equal((await h.call('GET', `/v1/exports/${id}`, { key: other })).statusCode, 404);
      assert.equal((await download(h, other, id)).statusCode, 404);
      assert.deepEqual((await h.call('GET', '/v1/exports', { key: other })).data.data, []);
    }
    const list = (await h.call('GET', '/v1/exports', { key })).data;
    assert.deepEqual(
      list.data.map((e: any) => [e.id, e.status]),
      [[id, 'ready']],
    );
  });

  await t.test(
    'a worker that dies between batches: another resumes after the last committed batch; a batch that fails is retried; the file is the same bytes as one written at once',
    async () => {
      const { companyId, key } = await books(h);
      const body = { from: '2026-01-01', to: today(h) };
      // Pages of two rows, batches of three: a batch reads past a page, and the file takes several batches.
      const small = fecExportJobOf({ pageSize: 2, batchRows: 3 });
      const kinds = { 'exports.fec': small };

      const clean = await exportFec(h, key, body);
      await runJobs(h, companyId, kinds);
      const expected = (await download(h, key, clean.result.id)).rawPayload;

      const crashed = await exportFec(h, key, body);
      const dying = createJobWorker(h.deps, {
        companies: [companyId],
        kinds,
        registry,
        interruptAfterBatch: (_job, batches) => batches === 1,
      });
      await dying.drain();
      const halfway = (await h.call('GET', `/v1/jobs/${crashed.id}`, { key })).data;
      assert.equal(halfway.status, 'running');
      assert.ok(halfway.progress.processed > 0 && halfway.progress.processed < 7, JSON.stringify(halfway.progress));
      assert.equal(halfway.result.status, 'pending');
      assert.ok(halfway.result.count > 0 && halfway.result.count < 7, 'some entries committed');
      // Another node: no running hash in memory, it hashes the committed chunks again.
      let failures = 0;
      const flaky = {
        ...small,
        async runBatch(...args: Parameters<JobKind['runBatch']>) {
          const outcome = await small.runBatch(...args);
          if (failures === 0) {
            failures += 1;
            throw new Error('the connection dropped before the commit');
          }
          return outcome;
        },
      };
      h.clock.advance(defaultJobLockMs + 1000);
      await runJobs(h, companyId, { 'exports.fec': flaky });
      assert.equal(failures, 1);
      h.clock.advance(60_000);
      await runJobs(h, companyId, kinds);
      const done = (await h.call('GET', `/v1/jobs/${crashed.id}`, { key })).data;
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      const resumed = await download(h, key, crashed.result.id);
      assert.ok(resumed.rawPayload.equals(expected), 'no entry twice, none missing, same order');
      const resource = (await h.call('GET', `/v1/exports/${crashed.result.id}`, { key })).data;
      assert.equal(resource.sha256, createHash('sha256').update(expected).digest('hex'));
      assert.equal(readFec(resumed.rawPayload).entries.length, 7);
      assert.equal((await eventsOf(h, key, 'export.ready')).filter((e) => e.data.id === crashed.result.id).length, 1);
    },
  );

  await t.test('a file expires 7 days after its request; a sandbox reset removes the test exports', async () => {
    const { companyId, key } = await seller(h);
    const job = await exportFec(h, key, { from: '2026-01-01', to: today(h) });
    await runJobs(h, companyId);
    const id = job.result.id;
    const resource = (await h.call('GET', `/v1/exports/${id}`, { key })).data;
    assert.equal(Date.parse(resource.expiresAt) - Date.parse(resource.created), 7 * 86_400_000);
    assert.equal(await purgeExpiredExports(h.deps, [companyId]), 0);
    h.clock.advance(7 * 86_400_000);
    assert.equal(await purgeExpiredExports(h.deps, [companyId]), 1);
    assert.equal((await h.call('GET', `/v1/exports/${id}`, { key })).statusCode, 404);
    const chunks = await h.deps.pool.query('select count(*) from export_chunks where company_id = $1', [companyId]);
    assert.equal(Number(chunks.rows[0].count), 0);

    const again = await exportFec(h, key, { from: '2026-01-01', to: today(h) });
    await runJobs(h, companyId);
    assert.equal((await h.call('POST', '/v1/sandbox/reset', { key })).statusCode, 200);
    assert.equal((await h.call('GET', `/v1/exports/${again.result.id}`, { key })).statusCode, 404);
  });
});
