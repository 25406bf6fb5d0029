/**
 * The deposit pipeline bench's run (bench/deposits.ts), in a process of its own started with
 * NODE_EXTRA_CA_CERTS naming the simulator's certificate: the service's connector trusts it as it
 * would a platform's. Prints one JSON line: the result.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { migrateDatabase } from '../src/db/database.js';
import { systemClock } from '../src/kernel/clock.js';
import { createFileWorker } from '../src/invoices/generation.js';
import { depositFlow } from '../src/invoices/deposit-flow.js';
import { createOutboxWorker } from '../src/platform/service.js';
import { fileBytes } from '../src/invoices/files-store.js';
import { startHarness } from '../test/support/harness.js';
import { customer, finalizedInvoice, seller } from '../test/invoices/support.js';
import { testCacheDir } from '../test/einvoice/support.js';
import { addressedBuyer, buyerSiren, sellerSiret } from '../test/deposits/support.js';
import { bareDepositor, inPool, startSimulatorProcess } from './platform-simulator-process.js';
import { machineCpu, processTreeCpuSeconds } from './load.js';

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

/**
 * BENCH_DEPOSITS_DRAIN_PROFILE=<file>: a V8 CPU profile of this process while the worker drains
 * the backlog (the measured phase only).
 */
async function drainProfile(): Promise<{ stop(): Promise<void> }> {
  const file = process.env.BENCH_DEPOSITS_DRAIN_PROFILE;
  if (!file) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * The CPU a phase took, per process: this one (the service's worker and API, or the bare loop),
 * the simulator, the database; in cores and in CPU milliseconds per deposit.
 */
function cpuMeter(simulatorPid: number) {
  const databasePid = Number(process.env.BENCH_DATABASE_PID) || null;
  const read = () => ({
    at: performance.now(),
    self: process.cpuUsage(),
    simulator: processTreeCpuSeconds(simulatorPid),
    database: databasePid === null ? null : processTreeCpuSeconds(databasePid),
    machine: machineCpu(),
  });
  return () => {
    const start = read();
    return (deposits: number) => {
      const end = read();
      const seconds = (end.at - start.at) / 1000;
      const self = (end.self.user + end.self.system - start.self.user - start.self.system) / 1e6;
      const simulator = end.simulator !== null && start.simulator !== null ? end.simulator - start.simulator : null;
      const database = end.database !== null && start.database !== null ? end.database - start.database : null;
      const machine =
        end.machine && start.machine
          ? (2 * (end.machine.busy - start.machine.busy)) / (end.machine.total - start.machine.total)
          : null;
      const cores = (value: number | null) => (value === null ? null : round(value / seconds));
      const perDeposit = (value: number | null) => (value === null ? null : round((1000 * value) / deposits, 3));
      return {
        cores: {
          service: cores(self),
          simulator: cores(simulator),
          database: cores(database),
          machine: machine && round(machine),
        },
        cpuMsPerDeposit: {
          service: perDeposit(self),
          simulator: perDeposit(simulator),
          database: perDeposit(database),
        },
      };
    };
  };
}

async function run() {
  const count = Math.round(positive('BENCH_DEPOSITS_DOCUMENTS', 300));
  // Deposited before the measure, as the bare loop's warm-ups: the worker's code and connections
  // warm (with a sixth of a set, its drains kept speeding up round after round: 159, 182, 226/s).
  const warmCount = count;
  const rounds = Math.round(positive('BENCH_DEPOSITS_ROUNDS', 3));
  await migrateDatabase(databaseUrl);

  const simulator = await startSimulatorProcess(scratch, progress);
  const directory = [{ siren: sellerSiret.slice(0, 9), siret: sellerSiret }, { siren: buyerSiren }];
  const quiet = async () => {
    await simulator.resetQuiet();
    await simulator.admin('POST', '/simulator/directory', { lines: directory });
  };
  const h = await startHarness({ poolSize: 16, deps: { clock: systemClock } });
  const bareAgent = simulator.agent(concurrency);
  const meter = cpuMeter(simulator.pid);
  const cpu: Record<string, unknown> = {};
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

    // Sets of `count`: `rounds` sent as backlogs, each then drained (the deposit rate); one sent with
    // the worker running (the time from send to deposit). Each invoice is sent once.
    const total = (rounds + 1) * count + warmCount;
    progress(`deposits: finalizing ${total} invoices and generating their files`);
    const invoices: { id: string; number: string }[] = [];
    // Several keys: the run makes more requests (4 per invoice) than a key's minute allows (1,000 on Pro).
    const extraKeys = Array.from({ length: Math.ceil((4 * total) / 800) }, () => h.key(companyId));
    const keys = [key, ...(await Promise.all(extraKeys))];
    const keyOf = (index: number) => keys[index % keys.length]!;
    let made = 0;
    await inPool(
      Array.from({ length: total }, (_, index) => index),
      4,
      async (index) => {
        invoices.push(await finalizedInvoice(h, keyOf(index), { customerId }));
        if (++made % 250 === 0) progress(`deposits: ${made} invoices finalized`);
      },
    );
    const files = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 2, companyIds: [companyId] });
    let generated = 0;
    while (generated < invoices.length) {
      const done = await files.drain();
      if (done === 0) throw new Error(`deposits: only ${generated} of ${invoices.length} files generated`);
      generated += done;
    }
    await files.stop();
    // What the generation left to the database (dead rows, statistics) is done before measuring.
    await h.deps.pool.query('vacuum analyze invoices, document_files, platform_flows, events');
    const backlogs = Array.from({ length: rounds }, (_, round) => invoices.slice(round * count, (round + 1) * count));
    const steady = invoices.slice(rounds * count, (rounds + 1) * count);
    const warm = invoices.slice((rounds + 1) * count);
    const stored = await Promise.all(
      backlogs[0]!.map(async (invoice) => {
        const file = await fileBytes(h.deps.db, scope, invoice.id, 'facturx');
        if (file?.state !== 'ready' || !file.bytes) throw new Error(`deposits: ${invoice.number} has no Factur-X`);
        return { number: invoice.number, pdf: file.bytes };
      }),
    );

    const deposit = await bareDepositor(simulator, bareAgent);
    const bareLoop = async () => {
      await quiet();
      const started = performance.now();
      const measured = meter();
      await inPool(stored, concurrency, (file) => deposit(file, `bare-${file.number}`));
      cpu.bareLoop = measured(count);
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
          "select count(*)::int as done from platform_flows where company_id = $1 and owner_id = any($2) and kind = 'invoices.deposit' and state = 'deposited'",
          [companyId, ids],
        );
        if (counted[0]!.done >= ids.length) break;
        if (Date.now() > deadline)
          throw new Error(`deposits: ${counted[0]!.done} of ${ids.length} deposited in 5 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { rows } = await h.deps.pool.query<{ document_id: string; state: string; updated: Date }>(
        "select owner_id as document_id, state, updated from platform_flows where company_id = $1 and owner_id = any($2) and kind = 'invoices.deposit'",
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

    // A worker warmed as the bare loop was (a long-running service's is): a few deposits, not measured.
    await inPool(warm, concurrency, send);
    const warming = createOutboxWorker(h.deps, [depositFlow], { companyIds: [companyId] });
    await warming.start();
    await deposited(warm);
    await warming.stop();

    // The deposit rate, by rounds: a bare loop, then a backlog of sends that a worker drains; a
    // last bare loop. A round's ratio is its drain against the better of the bare loops around it
    // (the machine's pace moves by a quarter within a minute); the run reports their median.
    const bares = [await bareLoop()];
    const drains: number[] = [];
    const ratios: number[] = [];
    progress(`deposits: bare loop ${bares[0]} deposits/s`);
    for (const [index, backlog] of backlogs.entries()) {
      await quiet();
      await inPool(backlog, concurrency, send);
      const worker = createOutboxWorker(h.deps, [depositFlow], { companyIds: [companyId] });
      const profile = index === 0 ? await drainProfile() : null;
      const drainStarted = Date.now();
      const monotonicStart = process.hrtime.bigint() / 1000n;
      const measured = meter();
      await worker.start();
      const drained = await deposited(backlog);
      cpu[`drain${index + 1}`] = measured(count);
      // The window of the drain on the clock of V8's CPU profiles (µs), for BENCH_DEPOSITS_NODE_FLAGS=--cpu-prof.
      progress(`deposits: drain ${index + 1} from ${monotonicStart} to ${process.hrtime.bigint() / 1000n} (µs)`);
      await profile?.stop();
      await worker.stop();
      const counted = await simulator.admin('GET', '/simulator/stats');
      if (counted.deposits !== count) throw new Error(`round ${index + 1}: ${counted.deposits} deposits of ${count}`);
      const drainRate = round(
        count / ((Math.max(...drained.map((row) => row.updated.getTime())) - drainStarted) / 1000),
        1,
      );
      drains.push(drainRate);
      bares.push(await bareLoop());
      ratios.push(round(drainRate / Math.max(bares[index]!, bares[index + 1]!), 3));
      progress(`deposits: round ${index + 1}: drained at ${drainRate} deposits/s, bare loop after ${bares[index + 1]}`);
    }
    await quiet();
    const worker = createOutboxWorker(h.deps, [depositFlow], { companyIds: [companyId] });
    await worker.start();

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
    if (stats.deposits !== count) throw new Error(`pipeline: the simulator counted ${stats.deposits} of ${count}`);
    progress(`deposits: sent and deposited at ${round(count / ((last - started) / 1000), 1)} per second`);

    const ratio = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    return {
      documents: count,
      rounds,
      concurrency,
      bareDepositsPerSecond: bares,
      workerDepositsPerSecond: drains,
      ratios,
      ratio,
      goal,
      goalMet: ratio >= goal,
      whileSending: {
        sendsPerSecond: round(count / sendsSeconds, 1),
        depositedPerSecond: round(count / ((last - started) / 1000), 1),
        sendToDepositedMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) },
      },
      simulatorDeposits: stats.deposits,
      cpu,
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
