/**
 * The customers bench (issue 4), run by bench/run.ts after the API scenarios:
 *   customers-create       POST /v1/customers through the API (the bench's server process, over
 *                          HTTPS), autocannon, rotating over test keys: customers created per second
 *   customers-import-sync  POST /v1/customers/import of 1,000 lines, answered at once: wall time
 *   customers-import       POST /v1/customers/import of 10,000 lines (a job), until the job has
 *                          succeeded: wall time (goal: under 3 seconds), and the peak memory of the
 *                          process that runs the job worker (this one: a `facteur serve` node runs
 *                          the same createJobWorker)
 * One JSON line each on stdout. Environment: BENCH_SECONDS, BENCH_WARMUP_SECONDS and
 * BENCH_CONNECTIONS as for the other scenarios; BENCH_IMPORT_LINES (default 10000).
 */
import { request as httpsRequest } from 'node:https';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config.js';
import { connect, disconnect } from '../src/db/database.js';
import { makeDeps } from '../src/deps.js';
import { createLogger } from '../src/cli/logger.js';
import { createJobWorker } from '../src/jobs/worker.js';
import { registry } from '../src/capabilities.js';

export interface CustomerBenchOptions {
  port: number;
  cert: string;
  databaseUrl: string;
  /** New test keys of the bench company (the server process makes them). */
  createKeys: (count: number) => Promise<string[]>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  progress: (message: string) => void;
  emit: (line: Record<string, unknown>) => void;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

function call(
  options: CustomerBenchOptions,
  method: string,
  path: string,
  key: string,
  body?: string,
  contentType = 'application/json',
): Promise<{ status: number; body: string }> {
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
          ...(body !== undefined ? { 'content-type': contentType, 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.end(body);
  });
}

/** A customer of every field, different on each line (a French company with SIRET and VAT number). */
function csvFile(lines: number): string {
  const rows = ['type,name,email,siren,siret,vatNumber,line1,line2,postalCode,city,country'];
  for (let i = 0; i < lines; i++)
    rows.push(
      `company,Société ${i},compta${i}@example.com,732829320,73282932000017,FR44732829320,${i} rue de la Paix,Bâtiment B,75002,Paris,FR`,
    );
  return `${rows.join('\n')}\n`;
}

const customerBody = JSON.stringify({
  type: 'company',
  name: 'Atelier Lumière SAS',
  email: 'compta@atelier.example',
  siret: '73282932000017',
  vatNumber: 'FR44732829320',
  address: { line1: '12 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' },
  metadata: { crm: 'A-17' },
});

async function createThroughput(
  options: CustomerBenchOptions,
  keys: string[],
): Promise<{ errors: number; requestsPerSecond: number }> {
  let next = 0;
  // Every create carries its own Idempotency-Key, as a careful client sends: the idempotent POST measured.
  const tag = Math.random().toString(36).slice(2);
  const run = async (seconds: number) => {
    const instance = autocannon({
      url: `https://127.0.0.1:${options.port}/v1/customers`,
      method: 'POST',
      connections: options.connections,
      pipelining: 1,
      duration: seconds,
      timeout: 10,
      tlsOptions: { ca: options.cert, servername: 'localhost' },
      requests: [
        {
          method: 'POST',
          body: customerBody,
          setupRequest: (request) => ({
            ...request,
            headers: {
              ...request.headers,
              'content-type': 'application/json',
              authorization: `Bearer ${keys[next % keys.length]}`,
              'idempotency-key': `bench-${tag}-${next++}`,
            },
          }),
        },
      ],
    });
    return instance;
  };
  await run(options.warmupSeconds);
  const result = await run(options.seconds);
  const non2xx = result.non2xx;
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count]),
  );
  options.emit({
    name: 'customers-create',
    requestsPerSecond: round(result.requests.total / result.duration, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx,
    requests: result.requests.total,
    durationSeconds: result.duration,
    statusCodes,
    method: 'POST',
    path: '/v1/customers',
    apiKeys: keys.length,
  });
  return { errors: result.errors + non2xx, requestsPerSecond: round(result.requests.total / result.duration, 1) };
}

export async function runCustomerBench(
  options: CustomerBenchOptions,
): Promise<{ errors: number; createRequestsPerSecond: number }> {
  const { progress, emit } = options;
  let errors = 0;
  // Test-mode writes count toward the per-minute limit (1,000 per key on the pro plan): enough keys
  // that none reaches it even at several thousand requests per second.
  const keys = await options.createKeys(40);

  progress(
    `customers-create: POST /v1/customers; ${options.warmupSeconds} s warmup + ${options.seconds} s measured, ${options.connections} connections`,
  );
  const create = await createThroughput(options, keys);
  errors += create.errors;

  progress('customers-import-sync: 1,000 lines, answered at once');
  const syncStarted = performance.now();
  const sync = await call(options, 'POST', '/v1/customers/import', keys[0]!, csvFile(1_000), 'text/csv');
  const syncSeconds = (performance.now() - syncStarted) / 1000;
  const syncResult = sync.status === 200 ? (JSON.parse(sync.body) as { imported: number; refused: number }) : null;
  if (!syncResult || syncResult.imported !== 1_000) errors += 1;
  emit({
    name: 'customers-import-sync',
    lines: 1_000,
    status: sync.status,
    wallSeconds: round(syncSeconds, 3),
    linesPerSecond: round(1_000 / syncSeconds, 0),
    imported: syncResult?.imported ?? null,
    refused: syncResult?.refused ?? null,
  });

  const lines = Number(process.env.BENCH_IMPORT_LINES ?? 10_000);
  progress(`customers-import: ${lines} lines as a job, the job worker in this process`);
  const config = { ...loadConfig({ LOG_LEVEL: 'warn' }), databaseUrl: options.databaseUrl };
  const connection = connect(options.databaseUrl, 4);
  const deps = makeDeps(connection, config, createLogger('warn', 'stderr'));
  const worker = createJobWorker(deps, { pollMs: 50, kinds: registry.jobKinds });
  await worker.start();
  const body = csvFile(lines);
  const baseline = process.memoryUsage();
  const peak = { rss: baseline.rss, heapUsed: baseline.heapUsed };
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
  }, 10);
  try {
    const started = performance.now();
    const accepted = await call(options, 'POST', '/v1/customers/import', keys[1]!, body, 'text/csv');
    const acceptedSeconds = (performance.now() - started) / 1000;
    if (accepted.status !== 202)
      throw new Error(`the import answered ${accepted.status}: ${accepted.body.slice(0, 500)}`);
    const jobId = (JSON.parse(accepted.body) as { id: string }).id;
    let job: { status: string; progress: { processed: number }; result: { imported: number; refused: number } | null } =
      { status: 'queued', progress: { processed: 0 }, result: null };
    const deadline = Date.now() + 300_000;
    while ((job.status === 'queued' || job.status === 'running') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = JSON.parse((await call(options, 'GET', `/v1/jobs/${jobId}`, keys[1]!)).body);
    }
    const wallSeconds = (performance.now() - started) / 1000;
    if (job.status !== 'succeeded' || job.result?.imported !== lines) errors += 1;
    emit({
      name: 'customers-import',
      lines,
      bytes: Buffer.byteLength(body),
      status: job.status,
      wallSeconds: round(wallSeconds, 3),
      acceptedSeconds: round(acceptedSeconds, 3),
      linesPerSecond: round(lines / wallSeconds, 0),
      imported: job.result?.imported ?? null,
      refused: job.result?.refused ?? null,
      goal: 'a 10,000-line import in under 3 seconds',
      goalMet: lines === 10_000 && job.status === 'succeeded' && wallSeconds < 3,
      workerProcess: {
        peakRssMb: mb(peak.rss),
        rssIncreaseMb: mb(peak.rss - baseline.rss),
        peakHeapUsedMb: mb(peak.heapUsed),
        heapIncreaseMb: mb(peak.heapUsed - baseline.heapUsed),
      },
      pollIntervalMs: 20,
    });
  } finally {
    clearInterval(sampler);
    await worker.stop();
    await disconnect(connection);
  }
  return { errors, createRequestsPerSecond: create.requestsPerSecond };
}
