import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startHarness, type Harness } from '../support/harness.js';
import { customer, seller } from '../invoices/support.js';
import { runLeaseMs, runRecurringInvoices } from '../../src/recurring/runs.js';
import { eventsOf, generated, recurring } from './support.js';

/** A live seller (tax profile, customer): live recurring invoices run on the harness's clock, nobody else's. */
async function liveSeller(h: Harness): Promise<{ companyId: string; key: string; customerId: string }> {
  const { companyId, key } = await seller(h, { env: 'live' });
  return { companyId, key, customerId: await customer(h, key) };
}

async function runRows(h: Harness, companyId: string): Promise<{ status: string; invoice_id: string | null }[]> {
  const { rows } = await h.deps.pool.query(
    'select status, invoice_id from recurring_invoice_runs where company_id = $1 order by period',
    [companyId],
  );
  return rows;
}

test('two workers racing over the same due periods generate each invoice once', async (t) => {
  const nodeA = await startHarness();
  const nodeB = await startHarness();
  t.after(async () => {
    await nodeA.close();
    await nodeB.close();
  });
  const { companyId, key, customerId } = await liveSeller(nodeA);
  const templates = [];
  for (let i = 0; i < 4; i++)
    templates.push(await recurring(nodeA, key, { customerId, mode: 'auto_finalize', count: 3 }));
  // 75 days later every template has its three periods due.
  const later = new Date(Date.parse(templates[0].nextRunAt) + 75 * 86_400_000);
  nodeA.clock.set(later);
  nodeB.clock.set(later);
  const moved = await Promise.all([
    runRecurringInvoices(nodeA.deps, [companyId]),
    runRecurringInvoices(nodeB.deps, [companyId]),
    runRecurringInvoices(nodeA.deps, [companyId]),
    runRecurringInvoices(nodeB.deps, [companyId]),
  ]);
  assert.equal(
    moved.reduce((sum, n) => sum + n, 0),
    12,
    `each run made by one worker: ${moved.join(' + ')}`,
  );
  const numbers: string[] = [];
  for (const template of templates) {
    const invoices = await generated(nodeA, key, template.id);
    assert.equal(invoices.length, 3, `three invoices for ${template.id}`);
    for (const invoice of invoices) {
      assert.equal(invoice.documentStatus, 'finalized');
      numbers.push(invoice.number);
    }
    const after = (await nodeA.call('GET', `/v1/recurring-invoices/${template.id}`, { key })).data;
    assert.deepEqual([after.status, after.invoicesGenerated, after.runsFailed], ['completed', 3, 0]);
  }
  const sequence = numbers.map((number) => Number(number.slice(-6))).sort((a, b) => a - b);
  assert.deepEqual(
    sequence,
    Array.from({ length: 12 }, (_, i) => i + 1),
    'consecutive numbers, no gap, no duplicate',
  );
  assert.equal((await eventsOf(nodeA, key, 'recurring_invoice.generated')).length, 12);
  assert.equal((await eventsOf(nodeA, key, 'recurring_invoice.failed')).length, 0);
  const rows = await runRows(nodeA, companyId);
  assert.equal(rows.length, 12);
  assert.ok(rows.every((row) => row.status === 'generated'));
  assert.equal(await runRecurringInvoices(nodeB.deps, [companyId]), 0, 'nothing left');
});

/** Starts a worker process at `at` that stops at `where`; resolves with what it printed there. */
async function stoppedWorker(
  t: { after: (fn: () => void) => void },
  companyId: string,
  at: Date,
  where: 'after-start' | 'while-finalizing',
) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./support/run-child.ts', import.meta.url)),
      companyId,
      at.toISOString(),
      where,
    ],
    { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const stopped = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /STOPPED (.+)\n/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the worker ended (${code}) before stopping: ${output} ${errors}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return stopped;
}

test('a worker killed after the draft: the run is completed by another once its lease lapses, once', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { companyId, key, customerId } = await liveSeller(h);
  const template = await recurring(h, key, { customerId, mode: 'auto_finalize' });
  const at = new Date(Date.parse(template.nextRunAt) + 1000);
  const stopped = await stoppedWorker(t, companyId, at, 'after-start');
  assert.equal(stopped, `${template.id} ${template.nextPeriod}`);

  const [draft] = await generated(h, key, template.id);
  assert.equal(draft.documentStatus, 'draft', 'the first step committed: the draft, the run leased');
  assert.deepEqual(await runRows(h, companyId), [{ status: 'pending', invoice_id: draft.id }]);
  const moved = (await h.call('GET', `/v1/recurring-invoices/${template.id}`, { key })).data;
  assert.notEqual(moved.nextPeriod, template.nextPeriod, 'the schedule moved on with the first step');

  // While the dead worker's lease holds, nobody completes its run (nor makes the period again).
  h.clock.set(at);
  assert.equal(await runRecurringInvoices(h.deps, [companyId]), 0);
  assert.equal((await h.call('GET', `/v1/invoices/${draft.id}`, { key })).data.documentStatus, 'draft');

  h.clock.set(new Date(at.getTime() + runLeaseMs + 1000));
  assert.equal(await runRecurringInvoices(h.deps, [companyId]), 1);
  const invoices = await generated(h, key, template.id);
  assert.deepEqual(
    invoices.map((invoice: any) => [invoice.id, invoice.documentStatus]),
    [[draft.id, 'finalized']],
    'the same draft, finalized: one invoice for the period',
  );
  assert.deepEqual(await runRows(h, companyId), [{ status: 'generated', invoice_id: draft.id }]);
  const events = await eventsOf(h, key, 'recurring_invoice.generated');
  assert.deepEqual(
    events.map((event) => event.data.id),
    [draft.id],
  );
  assert.equal(await runRecurringInvoices(h.deps, [companyId]), 0, 'nothing left');
});

test('a worker killed while its finalization holds the number: rolled back, then finalized once, no gap', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { companyId, key, customerId } = await liveSeller(h);
  const template = await recurring(h, key, { customerId, mode: 'auto_finalize' });
  const at = new Date(Date.parse(template.nextRunAt) + 1000);
  const held = await stoppedWorker(t, companyId, at, 'while-finalizing');
  assert.match(held, /^F\d{4}-000001$/);

  const [draft] = await generated(h, key, template.id);
  assert.equal(draft.documentStatus, 'draft', 'nothing of the dead finalization committed');
  assert.deepEqual(await runRows(h, companyId), [{ status: 'pending', invoice_id: draft.id }]);
  assert.equal((await eventsOf(h, key, 'recurring_invoice.generated')).length, 0);

  h.clock.set(new Date(at.getTime() + runLeaseMs + 1000));
  assert.equal(await runRecurringInvoices(h.deps, [companyId]), 1);
  const [invoice, ...others] = await generated(h, key, template.id);
  assert.equal(others.length, 0);
  assert.deepEqual([invoice.id, invoice.documentStatus, invoice.number], [draft.id, 'finalized', held]);
  assert.equal((await eventsOf(h, key, 'recurring_invoice.generated')).length, 1);
  assert.equal((await eventsOf(h, key, 'invoice.finalized')).length, 1);
});

test('the unique key (recurring invoice, period) is the last fence: a period run again makes nothing', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { companyId, key, customerId } = await liveSeller(h);
  const template = await recurring(h, key, { customerId });
  h.clock.set(new Date(Date.parse(template.nextRunAt) + 1000));
  assert.equal(await runRecurringInvoices(h.deps, [companyId]), 1);
  assert.equal((await generated(h, key, template.id)).length, 1);
  // As if a stale worker had the schedule still on the period it ran.
  await h.deps.pool.query('update recurring_invoices set next_period = $2, next_run_at = $3 where id = $1', [
    template.id,
    template.nextPeriod,
    template.nextRunAt,
  ]);
  assert.equal(await runRecurringInvoices(h.deps, [companyId]), 0, 'nothing made');
  assert.equal((await generated(h, key, template.id)).length, 1, 'no second invoice for the period');
  assert.equal((await eventsOf(h, key, 'recurring_invoice.generated')).length, 1);
  const after = (await h.call('GET', `/v1/recurring-invoices/${template.id}`, { key })).data;
  assert.ok(after.nextPeriod > template.nextPeriod, 'the schedule moved on past it');
});
