/**
 * The deposit pipeline bench's run (bench/deposits.ts), in a process of its own started with
 * NODE_EXTRA_CA_CERTS naming the simulator's certificate: the service's connector trusts it as it
 * would a platform's. Prints one JSON line: the result.
 */
import assert from 'node:assert/strict';
import { connect, disconnect } from '../src/db/database.js';
import { runMigrations } from '../src/db/migrate.js';
import { systemClock } from '../src/kernel/clock.js';
import { createFileWorker } from '../src/invoices/generation.js';
import { createDepositWorker } from '../src/invoices/deposits.js';
import { fileBytes } from '../src/invoices/files-store.js';
import { startHarness } from '../test/support/harness.js';
import { customer, finalizedInvoice, seller } from '../test/invoices/support.js';
import { testCacheDir } from '../test/documents/support.js';
import { addressedBuyer, buyerSiren, sellerSiret } from '../test/deposits/support.js';
import { bareDepositor, inPool, startSimulatorProcess } from './platform-simulator-process.js';

const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const goal = 0.7;
const concurrency = 8;

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw ? Number(raw) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number; got "${raw}"`);
  return value;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const databaseUrl = process.env.DATABASE_URL!;
const scratch = process.env.BENCH_SCRATCH!;
const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function run() {
  const count = Math.round(positive('BENCH_DEPOSITS_DOCUMENTS', 300));
  // Deposited before the measure, as the bare loop's warm-up: the worker's code and connections warm.
  const warmCount = Math.max(8, Math.round(count / 6));
  const migration = connect(databaseUrl, 2);
  await runMigrations(migration.pool, migration.db);
  await disconnect(migration);

  const simulator = await startSimulatorProcess(scratch, progress);
  const directory = [{ siren: sellerSiret.slice(0, 9), siret: sellerSiret }, { siren: buyerSiren }];
  const quiet = async () => {
    await simulator.resetQuiet();
    await simulator.admin('POST', '/simulator/directory', { lines: directory });
  };
  const h = await startHarness({ poolSize: 16, deps: { clock: systemClock } });
  const bareAgent = simulator.agent(concurrency);
  try {
    await quiet();
    const { companyId, key } = await seller(h);
    const scope = { companyId, livemode: false };
    const offices = await h.call('GET', '/v1/establishments', { key });
    const head = (offices.data.data as any[]).find((office) => office.siret === sellerSiret);
    const connected = await h.call('POST', `/v1/establishments/${head.id}`, {
      key,
      body: { platform: { baseUrl: simulator.url, ...simulator.client }, depositEnabled: true },
    });
    assert.equal(connected.statusCode, 200, connected.body);
    const customerId = await customer(h, key, addressedBuyer);

    // Two sets: one sent as a backlog, then drained (the deposit rate); one sent with the worker
    // running (the time from send to deposit). Each invoice is sent once.
    progress(`deposits: finalizing ${2 * count + warmCount} invoices and generating their files`);
    const invoices: { id: string; number: string }[] = [];
    // Several keys: the run makes more requests than a key's minute allows (1,000 on Pro).
    const keys = [key, ...(await Promise.all([1, 2, 3, 4, 5].map(() => h.key(companyId))))];
    const keyOf = (index: number) => keys[index % keys.length]!;
    for (let i = 0; i < 2 * count + warmCount; i += 1)
      invoices.push(await finalizedInvoice(h, keyOf(i), { customerId }));
    const files = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 2, companyIds: [companyId] });
    let generated = 0;
    while (generated < invoices.length) {
      const done = await files.drain();
      if (done === 0) throw new Error(`deposits: only ${generated} of ${invoices.length} files generated`);
      generated += done;
    }
    await files.stop();
    // What the generation left to the database (dead rows, statistics) is done before measuring.
    await h.deps.pool.query('vacuum analyze invoices, document_files, document_deposits, events');
    const backlog = invoices.slice(0, count);
    const steady = invoices.slice(count, 2 * count);
    const warm = invoices.slice(2 * count);
    const stored = await Promise.all(
      backlog.map(async (invoice) => {
        const file = await fileBytes(h.deps.db, scope, invoice.id, 'facturx');
        if (file?.state !== 'ready' || !file.bytes) throw new Error(`deposits: ${invoice.number} has no Factur-X`);
        return { number: invoice.number, pdf: file.bytes };
      }),
    );

    const deposit = await bareDepositor(simulator, bareAgent);
    const bareLoop = async () => {
      await quiet();
      const started = performance.now();
      await inPool(stored, concurrency, (file) => deposit(file, `bare-${file.number}`));
      const seconds = (performance.now() - started) / 1000;
      const stats = await simulator.admin('GET', '/simulator/stats');
      if (stats.deposits !== count) throw new Error(`bare loop: ${stats.deposits} deposits of ${count}`);
      return round(count / seconds, 1);
    };
    let sends = 0;
    const send = async (invoice: { id: string; number: string }) => {
      const sent = await h.call('POST', `/v1/invoices/${invoice.id}/send`, { key: keyOf(sends++) });
      if (sent.statusCode !== 200) throw new Error(`send ${invoice.number}: ${sent.statusCode} ${sent.body}`);
    };
    /** The deposit jobs of `set`, once every one is deposited. */
    /**
     * The deposit jobs of `set`, once every one is deposited. Watched by a count every 100 ms
     * (the times come from the rows, not from the watch): the watch takes little of the
     * database the pipeline measures.
     */
    const deposited = async (set: { id: string }[]) => {
      const ids = set.map((invoice) => invoice.id);
      const deadline = Date.now() + 300_000;
      for (;;) {
        const { rows: counted } = await h.deps.pool.query<{ done: number }>(
          "select count(*)::int as done from document_deposits where company_id = $1 and document_id = any($2) and state = 'deposited'",
          [companyId, ids],
        );
        if (counted[0]!.done >= ids.length) break;
        if (Date.now() > deadline)
          throw new Error(`deposits: ${counted[0]!.done} of ${ids.length} deposited in 5 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { rows } = await h.deps.pool.query<{ document_id: string; state: string; updated: Date }>(
        'select document_id, state, updated from document_deposits where company_id = $1 and document_id = any($2)',
        [companyId, ids],
      );
      if (rows.length !== ids.length || rows.some((row) => row.state !== 'deposited'))
        throw new Error(`deposits: ${rows.length} jobs, not all deposited`);
      return rows;
    };
    // Three whole bare loops first, not measured: the simulator's code and connections warm, as the
    // pipeline later finds them (its rate kept rising over its first thousand deposits: 110, 180, 192,
    // then 228/s measured, where one warm-up loop left the anchor 'before' a third below 'after').
    progress('deposits: warming up the bare loop');
    for (let i = 0; i < 3; i += 1) progress(`deposits: warm-up bare loop ${await bareLoop()} deposits/s`);
    const bareBefore = await bareLoop();
    progress(`deposits: bare loop ${bareBefore} deposits/s`);

    // A worker warmed as the bare loop was (a long-running service's is): a few deposits, not measured.
    await inPool(warm, concurrency, send);
    const warming = createDepositWorker(h.deps, { companyIds: [companyId] });
    await warming.start();
    await deposited(warm);
    await warming.stop();

    // The deposit rate: a backlog of sends, then the worker drains it.
    await quiet();
    await inPool(backlog, concurrency, send);
    const worker = createDepositWorker(h.deps, { companyIds: [companyId] });
    const drainStarted = Date.now();
    await worker.start();
    const drained = await deposited(backlog);
    const drainRate = round(
      count / ((Math.max(...drained.map((row) => row.updated.getTime())) - drainStarted) / 1000),
      1,
    );
    progress(`deposits: backlog drained at ${drainRate} deposits/s`);

    // The time from send to deposit: sends (8 at a time) while the worker runs.
    const sentAt = new Map<string, number>();
    const started = Date.now();
    await inPool(steady, concurrency, async (invoice) => {
      sentAt.set(invoice.id, Date.now());
      await send(invoice);
    });
    const sendsSeconds = round((Date.now() - started) / 1000, 2);
    const rows = await deposited(steady);
    await worker.stop();
    const last = Math.max(...rows.map((row) => row.updated.getTime()));
    const latencies = rows.map((row) => row.updated.getTime() - sentAt.get(row.document_id)!).sort((a, b) => a - b);
    const stats = await simulator.admin('GET', '/simulator/stats');
    if (stats.deposits !== 2 * count)
      throw new Error(`pipeline: the simulator counted ${stats.deposits} of ${2 * count}`);
    progress(`deposits: sent and deposited at ${round(count / ((last - started) / 1000), 1)} per second`);

    const bareAfter = await bareLoop();
    progress(`deposits: bare loop again ${bareAfter} deposits/s`);
    const bare = Math.max(bareBefore, bareAfter);
    const ratio = round(drainRate / bare, 3);
    return {
      documents: count,
      concurrency,
      bareDepositsPerSecond: { before: bareBefore, after: bareAfter },
      workerDepositsPerSecond: drainRate,
      ratio,
      goal,
      goalMet: ratio >= goal,
      whileSending: {
        sendsPerSecond: round(count / sendsSeconds, 1),
        depositedPerSecond: round(count / ((last - started) / 1000), 1),
        sendToDepositedMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) },
      },
      simulatorDeposits: stats.deposits,
      directoryLookups: 'the pipeline looks each buyer up once a minute (the pre-check); the bare loop never',
    };
  } finally {
    await h.close();
    await bareAgent.close();
    await simulator.stop();
  }
}

process.stdout.write(`${JSON.stringify(await run())}\n`);
process.exit(0);
