import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import yauzl from 'yauzl';
import type { Harness } from '../support/harness.js';
import { customer, documentHarness, finalizedInvoice, seller } from '../invoices/support.js';
import { createJobWorker, defaultJobLockMs } from '../../src/jobs/worker.js';
import { registry } from '../../src/capabilities.js';
import { dataExportJobOf } from '../../src/exports/data-job.js';
import type { JobKind } from '../../src/jobs/job-kind.js';
import { recurring } from '../recurring/support.js';

/** The archive's files, read with an independent zip reader: name → text. */
async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file!))),
  );
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream!.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream!.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
          zip.readEntry();
        });
        stream!.on('error', reject);
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

const jsonLines = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

async function runJobs(h: Harness, companyId: string, kinds: Record<string, JobKind> = registry.jobKinds) {
  await createJobWorker(h.deps, { companies: [companyId], kinds, registry }).drain();
}

async function requestData(h: Harness, key: string) {
  const response = await h.call('POST', '/v1/exports/data', { key });
  assert.equal(response.statusCode, 202, response.body);
  return response.data;
}

const download = (h: Harness, key: string, id: string) =>
  h.app.inject({ method: 'GET', url: `/v1/exports/${id}/download`, headers: { authorization: `Bearer ${key}` } });

test('data-protection export', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());

  await t.test(
    "POST /v1/exports/data: a zip of JSON lines, one file per kind, the key's environment only, no secret",
    async () => {
      const { companyId, key } = await seller(h);
      const invoice = await finalizedInvoice(h, key);
      await h.call('POST', '/v1/payments', { key, body: { invoiceId: invoice.id, amount: 1000 } });
      const template = await recurring(h, key, { customerId: invoice.customerId });
      const live = await h.key(companyId, { env: 'live' });
      await h.call('POST', '/v1/customers', { key: live, body: { name: 'Client du live' } });

      const job = await requestData(h, key);
      assert.equal(job.kind, 'exports.data');
      await runJobs(h, companyId);
      const done = (await h.call('GET', `/v1/jobs/${job.id}`, { key })).data;
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      const resource = (await h.call('GET', `/v1/exports/${job.result.id}`, { key })).data;
      assert.deepEqual([resource.kind, resource.status, resource.period], ['data', 'ready', null]);
      assert.match(resource.fileName, /^100000009-donnees-test-\d{8}\.zip$/);

      const file = await download(h, key, resource.id);
      assert.equal(file.statusCode, 200);
      assert.equal(file.headers['content-type'], 'application/zip');
      assert.equal(file.headers['content-disposition'], `attachment; filename="${resource.fileName}"`);
      assert.equal(createHash('sha256').update(file.rawPayload).digest('hex'), resource.sha256);
      const files = await unzip(file.rawPayload);
      const manifest = JSON.parse(files.get('manifest.json')!);
      const names = registry.dataExport.map((source) => `${source.name}.jsonl`);
      assert.deepEqual(
        manifest.files.map((f: any) => f.name),
        names,
      );
      assert.deepEqual([...files.keys()].sort(), ['manifest.json', ...names].sort(), 'one file per kind, empty or not');
      for (const { name, records } of manifest.files) assert.equal(jsonLines(files.get(name)).length, records, name);
      assert.equal(
        resource.count,
        manifest.files.reduce((total: number, f: any) => total + f.records, 0),
      );

      const customers = jsonLines(files.get('customers.jsonl'));
      assert.deepEqual(
        customers.map((c) => [c.id, c.object, c.livemode]),
        [[invoice.customerId, 'customer', false]],
        'the test environment only',
      );
      assert.deepEqual(
        jsonLines(files.get('invoices.jsonl')).map((i) => [i.id, i.number, i.total]),
        [[invoice.id, invoice.number, invoice.total]],
      );
      assert.equal(jsonLines(files.get('payments.jsonl'))[0].invoiceId, invoice.id);
      assert.deepEqual(
        jsonLines(files.get('recurring_invoices.jsonl')).map((r) => [r.id, r.object, r.interval]),
        [[template.id, 'recurring_invoice', 'monthly']],
      );
      assert.deepEqual(jsonLines(files.get('company.jsonl'))[0].siren, '100000009');
      assert.equal(jsonLines(files.get('tax_profiles.jsonl')).length, 1);
      assert.ok(jsonLines(files.get('events.jsonl')).some((e) => e.type === 'invoice.finalized'));
      const keys = jsonLines(files.get('api_keys.jsonl'));
      assert.ok(keys.length >= 1 && keys.every((k) => k.livemode === false));
      const everything = [...files.values()].join('\n');
      for (const secret of ['secretHash', 'secret_hash', 'passwordHash', key])
        assert.ok(!everything.includes(secret), `no ${secret} in the archive`);
    },
  );

  await t.test(
    'a scoped key can neither request nor download a data export; a FEC-only key reads its record',
    async () => {
      const { companyId, key } = await seller(h);
      const job = await requestData(h, key);
      await runJobs(h, companyId);
      const scoped = await h.key(companyId, { scopes: ['invoices:write'] });
      assert.equal((await h.call('POST', '/v1/exports/data', { key: scoped })).data.error.code, 'scope_insufficient');
      const refused = await download(h, scoped, job.result.id);
      assert.equal(refused.statusCode, 403);
      assert.equal(JSON.parse(refused.body).error.code, 'scope_insufficient');
      assert.equal((await h.call('GET', `/v1/exports/${job.result.id}`, { key: scoped })).data.status, 'ready');
      assert.equal((await h.call('GET', `/v1/jobs/${job.id}`, { key: scoped })).data.error.code, 'scope_insufficient');
    },
  );

  await t.test('a worker that dies mid-export: another resumes; every record once', async () => {
    const { companyId, key } = await seller(h);
    for (let i = 0; i < 7; i++) await customer(h, key, { name: `Client ${i}` });
    const small = dataExportJobOf({ batchRecords: 3 });
    const job = await requestData(h, key);
    const dying = createJobWorker(h.deps, {
      companies: [companyId],
      kinds: { 'exports.data': small },
      registry,
      interruptAfterBatch: (_job, batches) => batches === 3,
    });
    await dying.drain();
    const halfway = (await h.call('GET', `/v1/jobs/${job.id}`, { key })).data;
    assert.equal(halfway.status, 'running');
    assert.ok(halfway.result.count > 0);
    h.clock.advance(defaultJobLockMs + 1000);
    await runJobs(h, companyId, { 'exports.data': small });
    assert.equal((await h.call('GET', `/v1/jobs/${job.id}`, { key })).data.status, 'succeeded');
    const files = await unzip((await download(h, key, job.result.id)).rawPayload);
    const ids = jsonLines(files.get('customers.jsonl')).map((c) => c.id);
    assert.equal(ids.length, 7);
    assert.equal(new Set(ids).size, 7, 'no customer twice');
    const staged = await h.deps.pool.query("select count(*) from export_chunks where company_id = $1 and part <> ''", [
      companyId,
    ]);
    assert.equal(Number(staged.rows[0].count), 0, 'the staged parts are dropped once zipped');
  });
});
