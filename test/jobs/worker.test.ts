import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, startHarness, type Harness } from '../support/harness.js';
import { createJobWorker, defaultJobLockMs } from '../../src/jobs/worker.js';
import { enqueueJob } from '../../src/jobs/service.js';
import { inTransaction } from '../../src/db/transaction.js';
import { recordEvent } from '../../src/webhooks/service.js';
import { registry } from '../../src/capabilities.js';

const { jobKinds } = registry;
import type { JobKind } from '../../src/jobs/job-kind.js';

const header = 'name,email,siret,postalCode,country';
const csv = (count: number) =>
  `${header}\n${Array.from({ length: count }, (_, i) => `Client ${i},c${i}@example.com,73282932000017,75002,FR`).join('\n')}\n`;

async function scalar(h: Harness, query: string, params: unknown[]): Promise<number> {
  const { rows } = await h.deps.pool.query(query, params);
  return Number(rows[0].n);
}

async function jobRow(h: Harness, companyId: string, id: string) {
  const { rows } = await h.deps.pool.query(
    'select status, progress, attempts, locked_until, error from jobs where company_id = $1 and id = $2',
    [companyId, id],
  );
  return rows[0];
}

test('the job worker: batches commit with their progress; a crash resumes after the last batch, without duplicates', async (t) => {
  const h = await startHarness({ poolSize: 8 });
  t.after(() => h.close());

  await t.test(
    'a worker that dies between two batches: its claim expires and another worker resumes after the last committed batch',
    async () => {
      const { key, companyId } = await h.tenant();
      const job = (
        await h.call('POST', '/v1/customers/import', { key, body: csv(2_300), headers: { 'content-type': 'text/csv' } })
      ).data;
      const dying = createJobWorker(h.deps, {
        companies: [companyId],
        kinds: jobKinds,
        interruptAfterBatch: (_job, batches) => batches === 1,
      });
      await dying.drain();
      const customers = () => scalar(h, 'select count(*) as n from customers where company_id = $1', [companyId]);
      assert.equal(await customers(), 1_000, 'exactly the first batch');
      let row = await jobRow(h, companyId, job.id);
      assert.equal(row.status, 'running');
      assert.deepEqual(row.progress, { total: 2_300, processed: 1_000 });
      const polled = (await h.call('GET', `/v1/jobs/${job.id}`, { key })).data;
      assert.equal(polled.status, 'running');
      assert.equal(polled.result.imported, 1_000, 'the partial result is readable');

      const next = createJobWorker(h.deps, { companies: [companyId], kinds: jobKinds });
      assert.equal(await next.drain(), 0, 'the claim still holds');
      h.clock.advance(defaultJobLockMs + 1000);
      assert.equal(await next.drain(), 1);
      row = await jobRow(h, companyId, job.id);
      assert.equal(row.status, 'succeeded');
      assert.equal(row.attempts, 2);
      const {
        rows: [input],
      } = await h.deps.pool.query('select input from jobs where company_id = $1 and id = $2', [companyId, job.id]);
      assert.deepEqual(input.input, {}, 'the file (personal data) is dropped once the job ends');
      assert.equal(await customers(), 2_300);
      assert.equal(
        await scalar(h, 'select count(distinct email) as n from customers where company_id = $1', [companyId]),
        2_300,
        'no line imported twice',
      );
      assert.equal(
        await scalar(h, "select count(*) as n from events where company_id = $1 and type = 'customer.created'", [
          companyId,
        ]),
        2_300,
      );
      const result = (await h.call('GET', `/v1/jobs/${job.id}`, { key })).data.result;
      assert.deepEqual([result.lines, result.imported, result.refused], [2_300, 2_300, 0]);
    },
  );

  await t.test(
    'a batch that fails rolls back whole; the job is retried later from the last committed batch',
    async () => {
      const { companyId } = await h.tenant();
      let failures = 0;
      const kind: JobKind = {
        kind: 'test.flaky',
        readAccess: 'customers:read',
        async runBatch(tx, job, ctx) {
          const processed = job.progress.processed + 1;
          await recordEvent(tx, ctx, 'ping', { batch: processed }, ctx.now);
          if (processed === 2 && failures === 0) {
            failures += 1;
            throw new Error('the database went away mid-batch');
          }
          await recordEvent(tx, ctx, 'ping', { batch: processed }, ctx.now);
          return { progress: { total: 3, processed }, result: { batches: processed }, done: processed === 3 };
        },
      };
      const ctx = contextFor(companyId, false, h.clock.now());
      const job = await inTransaction(h.deps.db, ctx, (tx) =>
        enqueueJob(tx, ctx, h.clock.now(), { kind: 'test.flaky', input: {}, total: 3 }),
      );
      const worker = createJobWorker(h.deps, { companies: [companyId], kinds: { 'test.flaky': kind } });
      await worker.drain();
      const events = () =>
        scalar(h, "select count(*) as n from events where company_id = $1 and type = 'ping'", [companyId]);
      assert.equal(await events(), 2, 'batch 1 whole, nothing of batch 2');
      let row = await jobRow(h, companyId, job.id);
      assert.equal(row.status, 'running');
      assert.equal(row.locked_until, null, 'released for a retry');
      assert.deepEqual(row.progress, { total: 3, processed: 1 });
      assert.equal(await worker.drain(), 0, 'not before its retry delay');
      h.clock.advance(5_000);
      await worker.drain();
      row = await jobRow(h, companyId, job.id);
      assert.equal(row.status, 'succeeded');
      assert.equal(await events(), 6);
    },
  );

  await t.test('a job that keeps failing ends failed after 5 attempts, with an internal_error', async () => {
    const { key, companyId } = await h.tenant();
    const kind: JobKind = {
      kind: 'customers.import',
      readAccess: 'customers:read',
      runBatch: async () => {
        throw new Error('always');
      },
    };
    const job = (
      await h.call('POST', '/v1/customers/import', { key, body: csv(1_001), headers: { 'content-type': 'text/csv' } })
    ).data;
    const worker = createJobWorker(h.deps, { companies: [companyId], kinds: { 'customers.import': kind } });
    for (let attempt = 0; attempt < 6; attempt++) {
      await worker.drain();
      h.clock.advance(10 * 60_000);
    }
    const failed = (await h.call('GET', `/v1/jobs/${job.id}`, { key })).data;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, 'internal_error');
    assert.ok(failed.completedAt);
    assert.equal((await jobRow(h, companyId, job.id)).attempts, 5);
  });

  await t.test('a worker of other companies never touches this one; the kinds table has the import', async () => {
    const { key, companyId } = await h.tenant();
    const other = await h.tenant();
    const job = (
      await h.call('POST', '/v1/customers/import', { key, body: csv(1_001), headers: { 'content-type': 'text/csv' } })
    ).data;
    assert.equal(await createJobWorker(h.deps, { companies: [other.companyId], kinds: jobKinds }).drain(), 0);
    assert.equal((await jobRow(h, companyId, job.id)).status, 'queued');
    assert.ok(jobKinds['customers.import']);
  });

  await t.test('a started worker picks a queued job up by itself (NOTIFY), and stops cleanly', async () => {
    const { key, companyId } = await h.tenant();
    const worker = createJobWorker(h.deps, { companies: [companyId], pollMs: 50, kinds: jobKinds });
    await worker.start();
    const job = (
      await h.call('POST', '/v1/customers/import', { key, body: csv(1_001), headers: { 'content-type': 'text/csv' } })
    ).data;
    const deadline = Date.now() + 20_000;
    let status = 'queued';
    while (status !== 'succeeded' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await jobRow(h, companyId, job.id)).status;
    }
    await worker.stop();
    assert.equal(status, 'succeeded');
  });

  await t.test('a sandbox reset purges test jobs', async () => {
    const { key, companyId } = await h.tenant();
    await h.call('POST', '/v1/customers/import', { key, body: csv(1_001), headers: { 'content-type': 'text/csv' } });
    const reset = await h.call('POST', '/v1/sandbox/reset', { key });
    assert.equal(reset.data.purged.jobs, 1);
    assert.equal(await scalar(h, 'select count(*) as n from jobs where company_id = $1', [companyId]), 0);
  });
});
