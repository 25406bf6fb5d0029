/**
 * The documents bench (issue 6), run by bench/run.ts after the tax bench, on the bench company's
 * test environment (the sandbox is exempt from the live 10-per-minute finalization limit):
 *   invoices-create-draft  POST /v1/invoices (a customer, two free lines) through the API over
 *                          HTTPS, autocannon, rotating over test keys, each with its Idempotency-Key
 *   invoices-finalize      POST /v1/invoices/:id/finalize of BENCH_FINALIZE drafts prepared with
 *                          their tax decisions, all on ONE series (one counter row): finalizations
 *                          per second, p99; then every number of the series is checked (no gap, no
 *                          duplicate, the counter equal to the last). Goal: 300 per second.
 *   invoices-finalize-idempotent  the same, each request with its own Idempotency-Key
 *   invoices-finalize-service  the same finalizations through the use case in this process (no
 *                          HTTP, no authentication, no idempotency): what the numbering path costs
 *   number-counter-loop    beside it, the same concurrency running a bare
 *                          `UPDATE number_counters ... RETURNING` per transaction on another
 *                          series: the ceiling the counter row itself sets
 *   payments-create        POST /v1/payments of one cent, rotating over the finalized invoices
 *   invoices-finalize-with-generation  the same finalizations on the same series while the file
 *                          worker (bench/file-worker-child.ts, its own process) generates the
 *                          files of the documents finalized so far: finalizations per second, and
 *                          their ratio to the bare counter loop and to the finalizations alone
 * One JSON line each on stdout. Environment: BENCH_SECONDS, BENCH_WARMUP_SECONDS and
 * BENCH_CONNECTIONS as for the other scenarios; BENCH_FINALIZE (default 3000).
 */
import { request as httpsRequest } from 'node:https';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { connect, disconnect } from '../src/db/database.js';
import { makeDeps } from '../src/deps.js';
import { createLogger } from '../src/cli/logger.js';
import { finalizeDocument } from '../src/invoices/finalize.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processTreeCpuSeconds } from './load.js';

export interface InvoiceBenchOptions {
  port: number;
  cert: string;
  databaseUrl: string;
  /** The postmaster's pid when PostgreSQL runs here (embedded), for its CPU time; else null. */
  databasePid: number | null;
  /** The API server process's CPU so far (it runs apart from this one). */
  serverCpu: () => Promise<NodeJS.CpuUsage>;
  companyId: string;
  /** New test keys of the bench company (the server process makes them). */
  createKeys: (count: number) => Promise<string[]>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  progress: (message: string) => void;
  emit: (line: Record<string, unknown>) => void;
}

export interface InvoiceBenchResult {
  errors: number;
  finalizationsPerSecond: number;
  /** The same finalizations while the file worker generates beside them (its own process). */
  finalizationsPerSecondWithGeneration: number;
  finalizationsPerSecondIdempotent: number;
  counterLoopPerSecond: number;
  noGap: boolean;
  goalMet: boolean;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const goal = 300;

interface CpuSnapshot {
  process: NodeJS.CpuUsage;
  database: number | null;
}

/** This process's CPU and PostgreSQL's (when it runs here), to say which side a scenario spends. */
function cpuSnapshot(databasePid: number | null): CpuSnapshot {
  return {
    process: process.cpuUsage(),
    database: databasePid === null ? null : processTreeCpuSeconds(databasePid),
  };
}

function cpuMsPer(
  before: CpuSnapshot,
  after: CpuSnapshot,
  count: number,
): { process: number; database: number | null } {
  const used = process.cpuUsage(before.process);
  return {
    process: round((used.user + used.system) / 1000 / count, 3),
    database:
      before.database === null || after.database === null
        ? null
        : round(((after.database - before.database) * 1000) / count, 3),
  };
}

function call(
  options: InvoiceBenchOptions,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port: options.port,
        path,
        method,
        ca: options.cert,
        headers: {
          authorization: `Bearer ${key}`,
          ...(text !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: raw ? JSON.parse(raw) : null });
        });
      },
    );
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.end(text);
  });
}

const lines = [
  { description: 'Chaise en chêne', quantity: '2', unitPrice: '149.00', nature: 'goods' },
  { description: 'Conseil', quantity: '1.5', unitPrice: '90', nature: 'services' },
];
// The bench company's SIREN is 732829320: the buyer is another company.
// Its electronic address starts with its SIREN (BR-FR-21): the generated files pass the validators.
const buyer = {
  type: 'company',
  name: 'Client SAS',
  siret: '10000000900017',
  vatNumber: 'FR88100000009',
  electronicAddress: '100000009',
  address: { line1: '1 rue du Client', postalCode: '75008', city: 'Paris', country: 'FR' },
};

/** Runs `work` on `count` items, `concurrency` at a time. */
async function pool<T>(count: number, concurrency: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < count; index = next++) results[index] = await work(index);
    }),
  );
  return results;
}

interface Run {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  durationSeconds: number;
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

/**
 * autocannon reports its duration at its next one-second tick, which understates a run of a
 * fixed `amount` by up to a second: the rate is taken from the last response's own time instead.
 */
function runOf(result: autocannon.Result, seconds: number): Run {
  return {
    requestsPerSecond: round(result.requests.total / seconds, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requests: result.requests.total,
    durationSeconds: round(seconds, 2),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
  };
}

/**
 * `amount` requests as `load` sends them, with the CPU they cost per request: the API server's,
 * PostgreSQL's (embedded only) and this process's (autocannon's TLS client).
 */
async function loadWithCpu(
  options: InvoiceBenchOptions,
  amount: number,
  next: Parameters<typeof load>[2],
): Promise<Run & { cpuMsPerRequest: { server: number; database: number | null; loadGenerator: number } }> {
  const before = { server: await options.serverCpu(), local: cpuSnapshot(options.databasePid) };
  const run = await load(options, { amount }, next);
  const server = await options.serverCpu();
  const local = cpuMsPer(before.local, cpuSnapshot(options.databasePid), run.requests);
  const serverMs = (server.user + server.system - before.server.user - before.server.system) / 1000;
  return {
    ...run,
    cpuMsPerRequest: {
      server: round(serverMs / run.requests, 3),
      database: local.database,
      loadGenerator: local.process,
    },
  };
}

/** autocannon over HTTPS: each request built by `next` (path, key, body), `amount` requests or `seconds`. */
async function load(
  options: InvoiceBenchOptions,
  limit: { seconds: number } | { amount: number },
  next: () => { path: string; key: string; body?: string; idempotencyKey?: string },
): Promise<Run> {
  const instance = autocannon({
    url: `https://127.0.0.1:${options.port}`,
    connections: options.connections,
    pipelining: 1,
    ...('seconds' in limit ? { duration: limit.seconds } : { amount: limit.amount }),
    timeout: 20,
    tlsOptions: { ca: options.cert, servername: 'localhost' },
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const { path, key, body, idempotencyKey } = next();
          return {
            ...request,
            method: 'POST',
            path,
            headers: {
              ...request.headers,
              authorization: `Bearer ${key}`,
              ...(body ? { 'content-type': 'application/json' } : {}),
              ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
            },
            ...(body ? { body } : {}),
          };
        },
      },
    ],
  });
  const started = performance.now();
  let lastResponse = started;
  instance.on('response', () => {
    lastResponse = performance.now();
  });
  return runOf(await instance, (lastResponse - started) / 1000);
}

export async function runInvoiceBench(options: InvoiceBenchOptions): Promise<InvoiceBenchResult> {
  const { progress, emit } = options;
  let errors = 0;
  // Test-mode writes count toward the per-minute limit (1,000 per key on the pro plan).
  const keys = await options.createKeys(80);
  let turn = 0;
  const key = () => keys[turn++ % keys.length]!;
  const tag = Math.random().toString(36).slice(2);

  const profile = await call(options, 'POST', '/v1/tax-profiles', keys[0]!, {
    validFrom: `${new Date().getUTCFullYear() - 1}-01-01`,
    establishment: { siret: '73282932000017', postalCode: '75002', country: 'FR' },
    vatNumber: 'FR44732829320',
    regime: 'normal',
    vatOnDebits: false,
    ossRegistered: true,
    ereportingPeriodicity: 'monthly',
  });
  // Another bench may have declared the company's profile already: that one serves.
  if (profile.status !== 201 && profile.body?.error?.code !== 'tax_profile_ambiguous')
    throw new Error(`tax profile: ${JSON.stringify(profile.body)}`);
  const customer = await call(options, 'POST', '/v1/customers', keys[0]!, buyer);
  if (customer.status !== 201) throw new Error(`customer: ${JSON.stringify(customer.body)}`);
  const customerId = customer.body.id as string;

  // 1. Drafts.
  progress(
    `invoices-create-draft: POST /v1/invoices; ${options.warmupSeconds} s warmup + ${options.seconds} s measured, ${options.connections} connections`,
  );
  let draftCount = 0;
  const draftBody = JSON.stringify({ customerId, lines });
  const nextDraft = () => ({
    path: '/v1/invoices',
    key: key(),
    body: draftBody,
    idempotencyKey: `bench-draft-${tag}-${draftCount++}`,
  });
  await load(options, { seconds: options.warmupSeconds }, nextDraft);
  const drafts = await load(options, { seconds: options.seconds }, nextDraft);
  errors += drafts.errors + drafts.non2xx;
  emit({ name: 'invoices-create-draft', ...drafts, method: 'POST', path: '/v1/invoices', apiKeys: keys.length });

  // 2. Drafts with their decisions, ready to finalize.
  const measured = Number(process.env.BENCH_FINALIZE ?? 3000);
  const warmup = Math.max(100, Math.round(measured / 10));
  progress(`invoices-finalize: preparing ${warmup + measured} drafts with their tax decisions`);
  const today = new Date().toISOString().slice(0, 10);
  const prepare = (count: number) =>
    pool(count, options.connections * 2, async () => {
      const decision = await call(options, 'POST', '/v1/tax-decisions', key(), {
        taxSource: 'service',
        date: today,
        currency: 'EUR',
        customerId,
        lines,
      });
      if (decision.status !== 201) throw new Error(`decision: ${JSON.stringify(decision.body)}`);
      const draft = await call(options, 'POST', '/v1/invoices', key(), {
        customerId,
        lines,
        taxDecisionId: decision.body.id,
      });
      if (draft.status !== 201) throw new Error(`draft: ${JSON.stringify(draft.body)}`);
      return draft.body.id as string;
    });
  const prepared = await prepare(2 * (warmup + measured));
  let nextId = 0;
  let withKeys = false;
  const nextFinalize = () => ({
    path: `/v1/invoices/${prepared[nextId++]}/finalize`,
    key: key(),
    ...(withKeys ? { idempotencyKey: `bench-finalize-${tag}-${nextId}` } : {}),
  });

  // 3. Finalizations, as a client sends them without and then with an Idempotency-Key each (the
  // key adds three statements: its lock, its mark in the effect's transaction, the stored response).
  progress(
    `invoices-finalize: ${warmup} warmup + ${measured} measured finalizations on one series, ${options.connections} connections, without Idempotency-Key`,
  );
  await load(options, { amount: warmup }, nextFinalize);
  const finalize = await loadWithCpu(options, measured, nextFinalize);
  errors += finalize.errors + finalize.non2xx;
  withKeys = true;
  progress(`invoices-finalize-idempotent: the same with an Idempotency-Key each`);
  await load(options, { amount: warmup }, nextFinalize);
  const idempotent = await loadWithCpu(options, measured, nextFinalize);
  errors += idempotent.errors + idempotent.non2xx;
  emit({
    name: 'invoices-finalize-idempotent',
    finalizationsPerSecond: idempotent.requestsPerSecond,
    ...idempotent,
    method: 'POST',
    path: '/v1/invoices/:id/finalize',
    idempotencyKeys: true,
  });

  const database = new pg.Pool({ connectionString: options.databaseUrl, max: options.connections + 2 });
  try {
    // 3b. The same finalizations with the file generation running beside them: the file worker
    // (its own process, as a worker node) starts on the backlog the runs above queued, then
    // generates while these are measured. Goal: still 300 per second on the one series.
    progress(`invoices-finalize-with-generation: preparing ${warmup + measured} drafts`);
    const beside = await prepare(warmup + measured);
    const besideWarmup = beside.slice(0, warmup);
    const besideMeasured = beside.slice(warmup);
    const generatedCount = async () =>
      Number(
        (
          await database.query<{ n: string }>(
            `select count(*) as n from document_files where company_id = $1 and state in ('ready', 'failed')`,
            [options.companyId],
          )
        ).rows[0]!.n,
      );
    const fileWorker = await startFileWorker(options);
    let withGeneration: Run;
    let generated: { during: number; failed: number; ready: number };
    try {
      // Until its validators are up and it has stored a first document.
      const deadline = Date.now() + 180_000;
      while ((await generatedCount()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      progress(`invoices-finalize-with-generation: ${warmup} warmup + ${measured} measured finalizations`);
      let besideId = 0;
      await load(options, { amount: warmup }, () => ({
        path: `/v1/invoices/${besideWarmup[besideId++]}/finalize`,
        key: key(),
      }));
      besideId = 0;
      const before = await generatedCount();
      withGeneration = await load(options, { amount: measured }, () => ({
        path: `/v1/invoices/${besideMeasured[besideId++]}/finalize`,
        key: key(),
      }));
      const states = await database.query<{ state: string; n: string }>(
        'select state, count(*) as n from document_files where company_id = $1 group by state',
        [options.companyId],
      );
      const byState = Object.fromEntries(states.rows.map((row) => [row.state, Number(row.n)]));
      generated = { during: (await generatedCount()) - before, failed: byState.failed ?? 0, ready: byState.ready ?? 0 };
    } finally {
      await fileWorker.stop();
    }
    errors += withGeneration.errors + withGeneration.non2xx;

    const series = `TEST-F${today.slice(0, 4)}`;
    const numbers = await database.query<{
      count: string;
      distinct_count: string;
      first: string | null;
      last: string | null;
    }>(
      `select count(*) as count, count(distinct number) as distinct_count, min(split_part(number, '-', 3)::bigint) as first, max(split_part(number, '-', 3)::bigint) as last
        from invoices where company_id = $1 and livemode = false and series = $2 and number is not null`,
      [options.companyId, series],
    );
    const counter = await database.query<{ last_value: string }>(
      'select last_value from number_counters where company_id = $1 and livemode = false and series = $2',
      [options.companyId, series],
    );
    const row = numbers.rows[0]!;
    const count = Number(row.count);
    const noGap =
      count > 0 &&
      Number(row.distinct_count) === count &&
      Number(row.first) === 1 &&
      Number(row.last) === count &&
      Number(counter.rows[0]?.last_value) === count;
    if (!noGap) errors += 1;
    emit({
      name: 'invoices-finalize',
      finalizationsPerSecond: finalize.requestsPerSecond,
      ...finalize,
      method: 'POST',
      path: '/v1/invoices/:id/finalize',
      series,
      prepared: prepared.length,
      numbers: {
        count,
        distinct: Number(row.distinct_count),
        first: Number(row.first),
        last: Number(row.last),
        counter: Number(counter.rows[0]?.last_value),
      },
      idempotencyKeys: false,
      noGap,
      goal: `${goal} finalizations per second on one series with no gap`,
      goalMet: noGap && finalize.requestsPerSecond >= goal,
    });

    // The same finalizations without HTTP: the use case called in this process, on the same series.
    progress(
      `invoices-finalize-service: ${measured} finalizations through the service in this process, ${options.connections} at a time`,
    );
    const direct = await prepare(measured);
    const connection = connect(options.databaseUrl, options.connections + 2);
    const deps = makeDeps(
      connection,
      { ...loadConfig({ LOG_LEVEL: 'warn' }), databaseUrl: options.databaseUrl },
      createLogger('warn', 'stderr'),
    );
    const serviceLatencies: number[] = [];
    let serviceFailures = 0;
    const serviceCpu = cpuSnapshot(options.databasePid);
    const serviceStarted = performance.now();
    try {
      await pool(direct.length, options.connections, async (index) => {
        const at = performance.now();
        const ctx = {
          scope: { companyId: options.companyId, livemode: false },
          requestId: null,
          idempotencyKey: null,
          apiVersion: '2026-09-01',
          now: new Date(),
        };
        await finalizeDocument(deps, ctx, 'invoice', direct[index]!, { siren: '732829320', plan: 'pro' }).catch(
          () => void serviceFailures++,
        );
        serviceLatencies.push(performance.now() - at);
      });
    } finally {
      await disconnect(connection);
    }
    const serviceSeconds = (performance.now() - serviceStarted) / 1000;
    const serviceCpuMs = cpuMsPer(serviceCpu, cpuSnapshot(options.databasePid), direct.length);
    serviceLatencies.sort((a, b) => a - b);
    const pick = (p: number) =>
      round(
        serviceLatencies[Math.min(serviceLatencies.length - 1, Math.ceil((p / 100) * serviceLatencies.length) - 1)] ??
          0,
        2,
      );
    errors += serviceFailures;
    const afterService = await database.query<{ count: string; last: string | null }>(
      `select count(*) as count, max(split_part(number, '-', 3)::bigint) as last from invoices where company_id = $1 and livemode = false and series = $2 and number is not null`,
      [options.companyId, series],
    );
    const serviceNoGap = Number(afterService.rows[0]!.count) === Number(afterService.rows[0]!.last);
    if (!serviceNoGap) errors += 1;
    emit({
      name: 'invoices-finalize-service',
      finalizationsPerSecond: round(direct.length / serviceSeconds, 1),
      p50Ms: pick(50),
      p99Ms: pick(99),
      maxMs: pick(100),
      finalizations: direct.length,
      failures: serviceFailures,
      durationSeconds: round(serviceSeconds, 2),
      connections: options.connections,
      noGap: serviceNoGap,
      cpuMsPerFinalization: serviceCpuMs,
    });

    progress(
      `number-counter-loop: a bare UPDATE ... RETURNING per transaction, ${options.connections} connections, ${options.seconds} s`,
    );
    const loopSeries = `BENCH-LOOP-${tag}`;
    await database.query(
      'insert into number_counters (company_id, livemode, series, last_value) values ($1, false, $2, 0)',
      [options.companyId, loopSeries],
    );
    const latencies: number[] = [];
    const loopCpu = cpuSnapshot(options.databasePid);
    const deadline = performance.now() + options.seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        const client = await database.connect();
        try {
          while (performance.now() < deadline) {
            const at = performance.now();
            await client.query(
              'update number_counters set last_value = last_value + 1 where company_id = $1 and livemode = false and series = $2 returning last_value',
              [options.companyId, loopSeries],
            );
            latencies.push(performance.now() - at);
          }
        } finally {
          client.release();
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const loopCpuMs = cpuMsPer(loopCpu, cpuSnapshot(options.databasePid), latencies.length);
    latencies.sort((a, b) => a - b);
    const at = (p: number) =>
      round(latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0, 2);
    const loop = {
      name: 'number-counter-loop',
      transactionsPerSecond: round(latencies.length / elapsed, 1),
      p50Ms: at(50),
      p99Ms: at(99),
      maxMs: at(100),
      transactions: latencies.length,
      durationSeconds: round(elapsed, 2),
      connections: options.connections,
      cpuMsPerTransaction: loopCpuMs,
    };
    emit(loop);
    emit({
      name: 'invoices-finalize-with-generation',
      finalizationsPerSecond: withGeneration.requestsPerSecond,
      ...withGeneration,
      method: 'POST',
      path: '/v1/invoices/:id/finalize',
      series,
      filesGeneratedDuringRun: generated.during,
      filesGeneratedPerSecond: round(generated.during / withGeneration.durationSeconds, 1),
      filesReady: generated.ready,
      filesFailed: generated.failed,
      ratioToCounterLoop: round(withGeneration.requestsPerSecond / loop.transactionsPerSecond, 3),
      ratioToFinalizeAlone: round(withGeneration.requestsPerSecond / finalize.requestsPerSecond, 3),
      goal: `${goal} finalizations per second on one series with the file generation running beside them`,
      goalMet: noGap && withGeneration.requestsPerSecond >= goal,
    });

    // 4. Payments on the finalized invoices, one cent each, rotating over them.
    progress(`payments-create: POST /v1/payments; ${options.warmupSeconds} s warmup + ${options.seconds} s measured`);
    const finalized = (
      await database.query<{ id: string }>(
        'select id from invoices where company_id = $1 and livemode = false and series = $2',
        [options.companyId, series],
      )
    ).rows.map((r) => r.id);
    let paymentCount = 0;
    const nextPayment = () => {
      const invoiceId = finalized[paymentCount % finalized.length]!;
      return {
        path: '/v1/payments',
        key: key(),
        body: JSON.stringify({ invoiceId, amount: 1, method: 'transfer' }),
        idempotencyKey: `bench-pay-${tag}-${paymentCount++}`,
      };
    };
    await load(options, { seconds: options.warmupSeconds }, nextPayment);
    const payments = await load(options, { seconds: options.seconds }, nextPayment);
    errors += payments.errors + payments.non2xx;
    emit({ name: 'payments-create', ...payments, method: 'POST', path: '/v1/payments' });
    return {
      errors,
      finalizationsPerSecond: finalize.requestsPerSecond,
      finalizationsPerSecondIdempotent: idempotent.requestsPerSecond,
      finalizationsPerSecondWithGeneration: withGeneration.requestsPerSecond,
      counterLoopPerSecond: loop.transactionsPerSecond,
      noGap,
      goalMet: noGap && finalize.requestsPerSecond >= goal && withGeneration.requestsPerSecond >= goal,
    };
  } finally {
    await database.end();
  }
}

/** The file worker in its own process (bench/file-worker-child.ts); `stop` ends it and waits. */
async function startFileWorker(options: InvoiceBenchOptions): Promise<{ stop(): Promise<void> }> {
  const script = fileURLToPath(new URL('./file-worker-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'libxml2-wasm', '--import', 'tsx', script], {
    env: { ...process.env, DATABASE_URL: options.databaseUrl, BENCH_COMPANY_ID: options.companyId },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the file worker exited with ${code} before it was ready`)));
  });
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
