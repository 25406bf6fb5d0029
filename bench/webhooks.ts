/**
 * The webhook-delivery bench (issue 3), run by bench/run.ts after the API scenarios, or alone
 * with BENCH_ONLY=webhooks: events delivered per second to a local receiver, and the latency
 * from an event's commit to its first delivery attempt, beside a bare loop that only POSTs the
 * same bodies to the same receiver, in the same run.
 *
 * Three processes besides PostgreSQL:
 *   - this one: writes the events (recordEvent, one transaction each, as API requests do) and
 *     runs the bare loop (undici, the worker's concurrency);
 *   - the receiver (bench/webhook-receiver.ts): HTTPS on 127.0.0.1, answers 200 at once, records
 *     each request's arrival time and Service-Event-Id;
 *   - the worker (bench/webhook-worker.ts): the real createDeliveryWorker and delivery client, as
 *     a `facteur serve` node runs them, woken by the NOTIFY of each committed event.
 * Times are Unix milliseconds read through performance.timeOrigin + performance.now() in every
 * process (epochMs), so a commit here and an arrival there compare.
 *
 * Measurements, one JSON line each:
 *   webhook-bare      N POSTs of event bodies, `concurrency` at a time: the baseline
 *   webhook-pipeline  N events recorded by `writers` concurrent writers while the worker runs:
 *                     events/s from the first commit to the last arrival
 *   webhook-latency   `rate` events/s for BENCH_SECONDS, scheduled open-loop: commit to first
 *                     arrival, p50 and p99
 *   webhook-backlog   N events recorded with the worker paused, then delivered: the worker's own
 *                     rate, without writers competing (says whether writing or delivering limits);
 *                     by rounds, each against the better of the bare loops just before and after
 *                     it, the median reported
 * Environment: BENCH_WEBHOOK_ROUNDS (backlog rounds, default 3), BENCH_WEBHOOK_EVENTS (N, default
 * 3000: a bare loop of 1,000 lasted 0.1 to 0.5 s and its rate moved fourfold from one loop to the
 * next), BENCH_WEBHOOK_CONCURRENCY (default 32, the worker's default), BENCH_WEBHOOK_WRITERS (default 8), BENCH_WEBHOOK_RATE (default 200),
 * BENCH_SECONDS (latency run, default 5), BENCH_DB_TIMING=1 (the worker's SQL statements, by kind),
 * BENCH_CPU_PROF=<dir> (a V8 CPU profile of the worker process there, CPU.*.<pid>.*.cpuprofile).
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { Agent, request } from 'undici';
import type { LookupFunction } from 'node:net';
import { loadConfig } from '../src/config.js';
import { connect, disconnect, migrateDatabase } from '../src/db/database.js';
import { inTransaction, type CallContext } from '../src/db/transaction.js';
import { makeDeps } from '../src/deps.js';
import { createLogger } from '../src/cli/logger.js';
import { createCompany } from '../src/companies/service.js';
import { createEndpoint, recordEvent, toEvent, retentionMs } from '../src/webhooks/service.js';
import { currentVersion } from '../src/kernel/api-version.js';
import { loadCertificate } from '../src/http/tls.js';
import { newId } from '../src/kernel/ids.js';
import { unixSeconds } from '../src/limits/fixed-window.js';
import { deliveryTimeoutMs } from '../src/webhooks/retry-schedule.js';
import { signatureHeader } from '../src/webhooks/signature.js';
import { machineCpu, processTreeCpuSeconds } from './load.js';
import { epochMs, forkChild, type Child } from './webhook-child.js';
import type { Arrivals, ReceiverCount, ReceiverReady } from './webhook-receiver.js';
import type { StatementTiming, WorkerSample } from './webhook-worker.js';

export interface WebhookBenchOptions {
  databaseUrl: string;
  /** The postmaster's pid when PostgreSQL runs here (embedded), for its CPU time; else null. */
  databasePid: number | null;
  scratch: string;
  progress: (message: string) => void;
  emit: (line: Record<string, unknown>) => void;
  /** The caller's cleanup steps (run last-in first-out, also on a signal): this bench adds one. */
  cleanups: { name: string; run: () => Promise<void> }[];
}

export interface WebhookSummary {
  goal: string;
  bareEventsPerSecond: number;
  pipelineEventsPerSecond: number;
  pipelineRatioToBare: number;
  backlogEventsPerSecond: number;
  backlogRatioToBare: number;
  /** CPU of every process of the bench (PostgreSQL included) per event: bare loop, pipeline. */
  bareCpuMsPerEvent: number;
  pipelineCpuMsPerEvent: number;
  latencyTargetRate: number;
  latencyAchievedRate: number;
  firstAttemptP50Ms: number;
  firstAttemptP99Ms: number;
  goalMetThroughput: boolean;
  goalMetLatency: boolean;
  errors: number;
  events: number;
  concurrency: number;
  writers: number;
  workerProcess: string;
  deliveriesByState: Record<string, number>;
  elapsedSeconds: number;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number; got "${raw}"`);
  return value;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function distribution(values: number[]): { p50Ms: number; p90Ms: number; p99Ms: number; maxMs: number } {
  const sorted = Float64Array.from(values).sort();
  return {
    p50Ms: round(percentile(sorted, 50), 1),
    p90Ms: round(percentile(sorted, 90), 1),
    p99Ms: round(percentile(sorted, 99), 1),
    maxMs: round(percentile(sorted, 100), 1),
  };
}

/** An invoice.paid event's data, of a plausible size (about 1.3 KB of JSON); `i` varies it. */
function eventData(i: number, livemode: boolean): Record<string, unknown> {
  const quantity = 1 + (i % 7);
  const lines = [
    {
      description: 'Développement logiciel — forfait mensuel',
      quantity,
      unitPrice: '850.00',
      vatRate: '20.0',
      amountExcludingTax: (850 * quantity).toFixed(2),
    },
    {
      description: 'Hébergement et maintenance',
      quantity: 1,
      unitPrice: '120.00',
      vatRate: '20.0',
      amountExcludingTax: '120.00',
    },
    {
      description: 'Formation des utilisateurs (demi-journée)',
      quantity: 2,
      unitPrice: '450.00',
      vatRate: '20.0',
      amountExcludingTax: '900.00',
    },
  ];
  const net = 850 * quantity + 120 + 900;
  return {
    id: `inv_bench${String(i).padStart(17, '0')}`,
    object: 'invoice',
    livemode,
    number: `F-2026-${String(i).padStart(6, '0')}`,
    status: 'paid',
    currency: 'EUR',
    issueDate: '2026-11-02',
    dueDate: '2026-12-02',
    customer: {
      id: 'cus_01m80kd1cn1220tzdk3rc8ms8q',
      name: 'Client Exemple SARL',
      siren: '552100554',
      vatNumber: 'FR40552100554',
      address: { line1: '12 rue de la République', postalCode: '69002', city: 'Lyon', country: 'FR' },
    },
    lines,
    totals: { excludingTax: net.toFixed(2), tax: (net * 0.2).toFixed(2), includingTax: (net * 1.2).toFixed(2) },
    payment: {
      id: `pay_bench${String(i).padStart(17, '0')}`,
      method: 'transfer',
      amount: (net * 1.2).toFixed(2),
      paidAt: '2026-11-20T09:30:00.000Z',
    },
    metadata: { orderId: `CMD-${100000 + i}` },
  };
}

interface CpuSnapshot {
  at: number;
  bench: NodeJS.CpuUsage;
  worker: WorkerSample;
  receiver: NodeJS.CpuUsage;
  database: number | null;
  machine: { busy: number; total: number } | null;
}

export async function runWebhookBench(options: WebhookBenchOptions): Promise<WebhookSummary> {
  const { progress, emit } = options;
  const events = Math.round(positive('BENCH_WEBHOOK_EVENTS', 3000));
  const concurrency = Math.round(positive('BENCH_WEBHOOK_CONCURRENCY', 32));
  const writers = Math.round(positive('BENCH_WEBHOOK_WRITERS', 8));
  const rate = positive('BENCH_WEBHOOK_RATE', 200);
  const seconds = positive('BENCH_SECONDS', 5);
  const rounds = Math.round(positive('BENCH_WEBHOOK_ROUNDS', 3));
  const started = Date.now();
  const livemode = true;
  const type = 'invoice.paid';

  // Everything this bench starts, stopped last-in first-out, once: at its end, on an error, or
  // from the caller's cleanup on a signal.
  const steps: { name: string; run: () => Promise<unknown> }[] = [];
  let closing: Promise<void> | null = null;
  let closed = false;
  const close = () => {
    closed = true;
    closing ??= (async () => {
      for (const step of steps.reverse()) {
        try {
          await step.run();
        } catch (error) {
          progress(
            `webhooks: cleanup "${step.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    })();
    return closing;
  };
  options.cleanups.push({ name: 'webhook bench', run: close });

  try {
    // The writers' pool: open-loop writes at 200/s need a few connections at once, and more when
    // a commit is slow (the pool's wait is part of the commit lag reported, not of the latency).
    const connection = connect(options.databaseUrl, Math.max(16, writers));
    steps.push({ name: 'writers pool', run: () => disconnect(connection, 5_000) });
    await migrateDatabase(options.databaseUrl);
    const config = {
      ...loadConfig({
        FACTEUR_DATA_DIR: join(options.scratch, 'webhook-bench'),
        LOG_LEVEL: 'warn',
        FACTEUR_ALLOW_PRIVATE_WEBHOOKS: 'true',
      }),
      databaseUrl: options.databaseUrl,
    };
    const resolveHost = async (hostname: string) => {
      if (hostname === 'localhost') return ['127.0.0.1'];
      throw Object.assign(new Error(`bench: ${hostname} not found`), { code: 'ENOTFOUND' });
    };
    const deps = makeDeps(connection, config, createLogger('warn', 'stderr'), { resolveHost });

    const receiverDir = join(options.scratch, 'webhook-receiver');
    const tls = await loadCertificate({ ...loadConfig({}), dataDir: receiverDir }, () => undefined);
    progress('webhooks: starting the receiver process');
    const receiver: Child<ReceiverReady> = await forkChild(
      'receiver',
      './webhook-receiver.ts',
      {
        BENCH_RECEIVER_CERT: tls.certPath,
        BENCH_RECEIVER_KEY: join(receiverDir, 'tls', 'key.pem'),
      },
      progress,
    );
    steps.push({ name: 'receiver process', run: () => receiver.stop() });
    const url = `https://localhost:${receiver.ready.port}/hooks`;

    const company = await createCompany(deps, { name: 'Bench Webhooks SAS', siren: '732829320', plan: 'pro' });
    const contextAt = (now: Date): CallContext => ({
      scope: { companyId: company.id, livemode },
      requestId: newId('request', now),
      idempotencyKey: null,
      apiVersion: currentVersion,
      now,
    });
    const endpoint = await createEndpoint(deps, contextAt(new Date()), 'pro', { url, events: ['*'] });

    progress('webhooks: starting the worker process');
    const cpuProfDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;
    if (cpuProfDir) await mkdir(cpuProfDir, { recursive: true });
    const worker: Child<{ pid: number }> = await forkChild(
      'worker',
      './webhook-worker.ts',
      {
        BENCH_DATABASE_URL: options.databaseUrl,
        BENCH_COMPANY_ID: company.id,
        BENCH_WEBHOOK_CONCURRENCY: String(concurrency),
        BENCH_DATA_DIR: join(options.scratch, 'webhook-worker'),
        NODE_EXTRA_CA_CERTS: tls.certPath,
      },
      progress,
      cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
    );
    steps.push({ name: 'worker process', run: () => worker.stop() });
    const dead = Promise.race([worker.died, receiver.died]);
    dead.catch(() => undefined);
    const guard = <T>(work: Promise<T>) => Promise.race([work, dead]);

    // ---- Where the CPU went, per measurement ----
    const snapshot = async (): Promise<CpuSnapshot> => ({
      at: epochMs(),
      bench: process.cpuUsage(),
      worker: await guard(worker.ask<WorkerSample>('sample')),
      receiver: (await guard(receiver.ask<{ cpu: NodeJS.CpuUsage }>('sample'))).cpu,
      database: options.databasePid === null ? null : processTreeCpuSeconds(options.databasePid),
      machine: machineCpu(),
    });
    /**
     * Where the CPU went: in cores over the measurement (1 = one core busy throughout), and in
     * milliseconds per event, which the machine's other load disturbs far less than rates do.
     */
    const cpuUse = (before: CpuSnapshot, after: CpuSnapshot, events: number) => {
      const wall = (after.at - before.at) / 1000;
      const used = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user + b.system - a.user - a.system) / 1e6;
      const bench = used(before.bench, after.bench);
      const workerCpu = used(before.worker.cpu, after.worker.cpu);
      const receiverCpu = used(before.receiver, after.receiver);
      const database = before.database !== null && after.database !== null ? after.database - before.database : null;
      const machine =
        before.machine && after.machine && after.machine.total > before.machine.total
          ? ((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) *
            availableParallelism()
          : null;
      const perEvent = (seconds: number) => round((seconds * 1000) / events, 3);
      return {
        cpuCores: {
          available: availableParallelism(),
          bench: round(bench / wall),
          worker: round(workerCpu / wall),
          receiver: round(receiverCpu / wall),
          database: database === null ? null : round(database / wall),
          machine: machine === null ? null : round(machine),
          otherProcesses:
            machine === null || database === null
              ? null
              : round(Math.max(0, machine - (bench + workerCpu + receiverCpu + database) / wall)),
        },
        cpuMsPerEvent: {
          total: perEvent(bench + workerCpu + receiverCpu + (database ?? 0)),
          bench: perEvent(bench),
          worker: perEvent(workerCpu),
          receiver: perEvent(receiverCpu),
          database: database === null ? null : perEvent(database),
        },
      };
    };
    /** The worker's attempts during a measurement (`after` holds the counts since `before`). */
    const workerStats = (after: WorkerSample) => {
      const per = (value: number) => (after.posts > 0 ? round(value / after.posts, 3) : null);
      const statements = after.statements;
      const totals = statements
        ? Object.values(statements).reduce((sum, s) => ({ count: sum.count + s.count, ms: sum.ms + s.ms }), {
            count: 0,
            ms: 0,
          })
        : null;
      return {
        attempts: after.posts,
        delivered: after.delivered,
        failed: after.failed,
        ...(after.failed > 0 ? { failures: after.failures } : {}),
        postMsPerAttempt: per(after.postMs),
        ...(statements && totals
          ? {
              statementsPerAttempt: per(totals.count),
              statementMsPerAttempt: per(totals.ms),
              statements: Object.fromEntries(
                Object.entries(statements)
                  .sort(([, a], [, b]) => b.ms - a.ms)
                  .map(([kind, s]: [string, StatementTiming]) => [
                    kind,
                    {
                      perAttempt: per(s.count),
                      msPerAttempt: per(s.ms),
                      msEach: round(s.ms / s.count, 3),
                    },
                  ]),
              ),
            }
          : {}),
      };
    };

    // ---- Event writes, as API requests make them ----
    // An event's commit time is when the COMMIT's answer reached its writer (the NOTIFY leaves
    // PostgreSQL just before): what an API request would see before answering its client.
    const recordOne = async (i: number): Promise<{ id: string; committedAt: number }> => {
      const now = new Date();
      const ctx = contextAt(now);
      const event = await inTransaction(deps.db, ctx, (tx) => recordEvent(tx, ctx, type, eventData(i, livemode), now));
      return { id: event.id, committedAt: epochMs() };
    };
    /** `count` events, `writers` at a time, each as soon as the writer's previous one committed. */
    const recordClosedLoop = async (count: number, offset: number) => {
      const ids: string[] = new Array(count);
      const committedAt: number[] = new Array(count);
      let next = 0;
      const startedAt = epochMs();
      await guard(
        Promise.all(
          Array.from({ length: writers }, async () => {
            for (let i = next++; i < count && !closed; i = next++) {
              const done = await recordOne(offset + i);
              ids[i] = done.id;
              committedAt[i] = done.committedAt;
            }
          }),
        ),
      );
      return { ids, committedAt, startedAt };
    };

    // ---- Arrivals ----
    let failedSoFar = 0;
    /** Waits until the receiver saw `expected` distinct events, or the missing ones failed, or nothing moved for 10 s. */
    const awaitArrivals = async (expected: number, failedBefore: number) => {
      let seen = -1;
      let movedAt = Date.now();
      for (;;) {
        const count = await guard(receiver.ask<ReceiverCount>('count'));
        if (count.distinctEvents >= expected) return;
        if (count.distinctEvents !== seen) {
          seen = count.distinctEvents;
          movedAt = Date.now();
        }
        failedSoFar = (await guard(worker.ask<{ failed: number }>('progress'))).failed;
        if (failedSoFar - failedBefore >= expected - count.distinctEvents) return;
        if (Date.now() - movedAt > 10_000) {
          progress(
            `webhooks: ${expected - count.distinctEvents} of ${expected} events never arrived (nothing for 10 s)`,
          );
          return;
        }
        await sleep(20);
      }
    };
    /** First arrival of each of `ids` (NaN when missing), and how many requests were repeats. */
    const matchArrivals = (ids: string[], arrivals: Arrivals) => {
      const first = new Map<string, number>();
      let duplicates = 0;
      const wanted = new Set(ids);
      arrivals.eventIds.forEach((id, index) => {
        if (!wanted.has(id)) return;
        const at = arrivals.at[index]!;
        const known = first.get(id);
        if (known !== undefined) duplicates += 1;
        if (known === undefined || at < known) first.set(id, at);
      });
      const firstAt = ids.map((id) => first.get(id) ?? Number.NaN);
      const missing = firstAt.filter(Number.isNaN).length;
      return { firstAt, missing, duplicates };
    };
    const takeArrivals = () => guard(receiver.ask<Arrivals>('take'));
    await takeArrivals();

    // ---- 1. The bare loop ----
    const lookup = ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (lookupOptions.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    }) as unknown as LookupFunction;
    // As the delivery client's agent (src/webhooks/delivery-client.ts), with the CA given here.
    const agent = new Agent({
      connect: { lookup, timeout: deliveryTimeoutMs, ca: tls.cert },
      headersTimeout: deliveryTimeoutMs,
      bodyTimeout: deliveryTimeoutMs,
      connections: 64,
    });
    steps.push({ name: 'bare loop agent', run: () => agent.close() });
    const signedAt = new Date();
    const prepare = (i: number) => {
      const row = {
        id: newId('event', signedAt),
        companyId: company.id,
        livemode,
        type,
        apiVersion: currentVersion,
        created: signedAt,
        data: eventData(i, livemode),
        retainedUntil: new Date(signedAt.getTime() + retentionMs),
        request: { id: newId('request', signedAt), idempotency_key: null },
      };
      const body = JSON.stringify(toEvent(row));
      return {
        id: row.id,
        body,
        headers: {
          'Content-Type': 'application/json',
          'Service-Signature': signatureHeader([endpoint.secret], unixSeconds(signedAt), body),
          'Service-Event-Id': row.id,
          'Service-Event-Type': type,
          'User-Agent': 'Service-Webhooks/1.0',
        },
      };
    };
    const bareLoop = async (bodies: ReturnType<typeof prepare>[]) => {
      let next = 0;
      let errors = 0;
      const latencies: number[] = [];
      const startedAt = epochMs();
      await guard(
        Promise.all(
          Array.from({ length: concurrency }, async () => {
            for (let i = next++; i < bodies.length; i = next++) {
              const { body, headers } = bodies[i]!;
              const sent = performance.now();
              try {
                const response = await request(url, { method: 'POST', headers, body, dispatcher: agent });
                await response.body.dump();
                if (response.statusCode < 200 || response.statusCode > 299) errors += 1;
              } catch {
                errors += 1;
              }
              latencies.push(performance.now() - sent);
            }
          }),
        ),
      );
      return { startedAt, endedAt: epochMs(), errors, latencies };
    };

    progress(
      `webhooks: bare loop, ${events} POSTs of ${type} bodies, ${concurrency} at a time (after ${Math.min(events, 500)} warmup POSTs)`,
    );
    await bareLoop(Array.from({ length: Math.min(events, 500) }, (_, i) => prepare(i)));
    await guard(receiver.ask('take'));
    const bareBodies = Array.from({ length: events }, (_, i) => prepare(i));
    let before = await snapshot();
    const bare = await bareLoop(bareBodies);
    let after = await snapshot();
    const bareMatched = matchArrivals(
      bareBodies.map((b) => b.id),
      await takeArrivals(),
    );
    const bareRate = round(events / ((bare.endedAt - bare.startedAt) / 1000), 1);
    const bareErrors = bare.errors + bareMatched.missing;
    const bareLine = {
      name: 'webhook-bare',
      eventsPerSecond: bareRate,
      ratioToBare: 1,
      ...distribution(bare.latencies),
      count: events,
      errors: bareErrors,
      description: `POST of the same event bodies to the receiver, ${concurrency} at a time, undici Agent as the delivery client's; p50/p99: POST round trip`,
      concurrency,
      bodyBytes: Math.round(bareBodies.reduce((sum, b) => sum + Buffer.byteLength(b.body), 0) / events),
      durationSeconds: round((bare.endedAt - bare.startedAt) / 1000, 3),
      ...cpuUse(before, after, events),
    };
    emit(bareLine);
    progress(
      `webhooks: bare ${bareRate} events/s, p50 ${bareLine.p50Ms} ms, p99 ${bareLine.p99Ms} ms, errors ${bareErrors}`,
    );

    // ---- Warm the pipeline (JIT, pools, connections), unreported ----
    await guard(worker.ask('start'));
    const warmup = Math.min(events, 300);
    progress(`webhooks: pipeline warmup, ${warmup} events`);
    {
      const failedBefore = failedSoFar;
      const written = await recordClosedLoop(warmup, 0);
      await awaitArrivals(warmup, failedBefore);
      const matched = matchArrivals(written.ids, await takeArrivals());
      if (matched.missing > 0)
        throw new Error(
          `pipeline warmup: ${matched.missing} of ${warmup} events were not delivered; is the receiver trusted?`,
        );
    }

    // ---- 2. Pipeline throughput ----
    progress(
      `webhooks: pipeline, ${events} events recorded by ${writers} concurrent writers, worker running (concurrency ${concurrency})`,
    );
    before = await snapshot();
    let failedBefore = failedSoFar;
    const pipeWritten = await recordClosedLoop(events, warmup);
    await awaitArrivals(events, failedBefore);
    after = await snapshot();
    const pipeMatched = matchArrivals(pipeWritten.ids, await takeArrivals());
    const pipeFirstCommit = Math.min(...pipeWritten.committedAt);
    const pipeLastCommit = Math.max(...pipeWritten.committedAt);
    const pipeLastArrival = Math.max(...pipeMatched.firstAt.filter((at) => !Number.isNaN(at)));
    const pipeDelivered = events - pipeMatched.missing;
    const pipeRate = round(pipeDelivered / ((pipeLastArrival - pipeFirstCommit) / 1000), 1);
    const pipeLags = pipeMatched.firstAt
      .map((at, i) => at - pipeWritten.committedAt[i]!)
      .filter((lag) => !Number.isNaN(lag));
    const pipeErrors = pipeMatched.missing + after.worker.failed;
    const pipeLine = {
      name: 'webhook-pipeline',
      eventsPerSecond: pipeRate,
      ratioToBare: round(pipeRate / bareRate, 3),
      ...distribution(pipeLags),
      count: events,
      errors: pipeErrors,
      description:
        'events recorded (recordEvent, one transaction each) while the worker delivers: first commit to last arrival; p50/p99: commit to first arrival, backlog included',
      delivered: pipeDelivered,
      duplicates: pipeMatched.duplicates,
      writers,
      commitEventsPerSecond: round(events / ((pipeLastCommit - pipeWritten.startedAt) / 1000), 1),
      durationSeconds: round((pipeLastArrival - pipeFirstCommit) / 1000, 3),
      lastArrivalAfterLastCommitMs: round(pipeLastArrival - pipeLastCommit, 1),
      worker: workerStats(after.worker),
      ...cpuUse(before, after, pipeDelivered),
    };
    emit(pipeLine);
    progress(
      `webhooks: pipeline ${pipeRate} events/s (${pipeLine.ratioToBare} of bare; commits ${pipeLine.commitEventsPerSecond}/s), errors ${pipeErrors}`,
    );

    // ---- 3. Latency at a fixed rate ----
    const total = Math.max(1, Math.round(rate * seconds));
    const interval = 1000 / rate;
    progress(`webhooks: latency, ${rate} events/s for ${seconds} s (${total} events, open loop), worker running`);
    before = await snapshot();
    failedBefore = failedSoFar;
    const scheduledAt: number[] = new Array(total);
    const latIds: string[] = new Array(total);
    const latCommitted: number[] = new Array(total);
    let writeErrors = 0;
    const inFlight: Promise<void>[] = [];
    await guard(
      new Promise<void>((resolve) => {
        const t0 = performance.now() + 10;
        let launched = 0;
        const tick = () => {
          const due = Math.min(total, Math.floor((performance.now() - t0) / interval) + 1);
          for (; launched < due; launched++) {
            const i = launched;
            scheduledAt[i] = performance.timeOrigin + t0 + i * interval;
            inFlight.push(
              recordOne(warmup + events + i).then(
                (done) => {
                  latIds[i] = done.id;
                  latCommitted[i] = done.committedAt;
                },
                (error: unknown) => {
                  writeErrors += 1;
                  if (!closed)
                    progress(
                      `webhooks: an event write failed: ${error instanceof Error ? error.message : String(error)}`,
                    );
                },
              ),
            );
          }
          // Interrupted (a signal, a process gone): the bench is being torn down, write no more.
          if (closed) resolve();
          else if (launched < total) setTimeout(tick, Math.max(0, t0 + launched * interval - performance.now()));
          else resolve();
        };
        setTimeout(tick, 10);
      }),
    );
    await guard(Promise.all(inFlight));
    const written = latIds.filter((id) => id !== undefined);
    await awaitArrivals(written.length, failedBefore);
    after = await snapshot();
    const latMatched = matchArrivals(
      latIds.map((id) => id ?? ''),
      await takeArrivals(),
    );
    const latencies: number[] = [];
    const commitLags: number[] = [];
    latMatched.firstAt.forEach((at, i) => {
      if (latCommitted[i] === undefined) return;
      commitLags.push(latCommitted[i]! - scheduledAt[i]!);
      if (!Number.isNaN(at)) latencies.push(at - latCommitted[i]!);
    });
    const committed = latCommitted.filter((at) => at !== undefined);
    const latFirstCommit = Math.min(...committed);
    const latLastCommit = Math.max(...committed);
    const latLastArrival = Math.max(...latMatched.firstAt.filter((at) => !Number.isNaN(at)));
    const latDelivered = latencies.length;
    const latDistribution = distribution(latencies);
    // A failed write has no id: it counts among the missing.
    const latErrors = latMatched.missing + after.worker.failed;
    const achievedRate = round((committed.length - 1) / ((latLastCommit - latFirstCommit) / 1000), 1);
    const latencyLine = {
      name: 'webhook-latency',
      eventsPerSecond: round(latDelivered / ((latLastArrival - latFirstCommit) / 1000), 1),
      ratioToBare: null,
      ...latDistribution,
      count: total,
      errors: latErrors,
      description: `${rate} events/s scheduled open-loop for ${seconds} s; p50/p99: commit of the event to the first attempt's arrival at the receiver`,
      targetRate: rate,
      achievedCommitRate: achievedRate,
      delivered: latDelivered,
      writeErrors,
      duplicates: latMatched.duplicates,
      commitLag: distribution(commitLags),
      worker: workerStats(after.worker),
      ...cpuUse(before, after, latDelivered),
    };
    emit(latencyLine);
    progress(
      `webhooks: latency at ${achievedRate} events/s: first attempt p50 ${latDistribution.p50Ms} ms, p99 ${latDistribution.p99Ms} ms, errors ${latErrors}`,
    );

    // ---- 4. Backlog, by rounds: the worker alone against the bare loop beside it ----
    // Each round records `events` with the worker paused (writes alone), then starts it: its start
    // to the last arrival. A round's ratio is its rate against the better of the bare loops just
    // before and after it (the machine's pace moves by a quarter within a minute, and a round lasts
    // under a second); the line reports the median round. A first round of `warmup` events is not
    // measured: its connections to the receiver stay open, as the bare loop's warm-up leaves its own
    // (the latency run used few of the worker's, and the receiver closes those idle for 5 s).
    let offset = warmup + events + total;
    const backlogRound = async (count: number) => {
      await guard(worker.ask('pause'));
      await snapshot();
      const written = await recordClosedLoop(count, offset);
      offset += count;
      const failedBefore = failedSoFar;
      const before = await snapshot();
      const { startedAt } = await guard(worker.ask<{ startedAt: number }>('start'));
      await awaitArrivals(count, failedBefore);
      const after = await snapshot();
      const matched = matchArrivals(written.ids, await takeArrivals());
      const delivered = count - matched.missing;
      const lastArrival = Math.max(...matched.firstAt.filter((at) => !Number.isNaN(at)));
      return {
        rate: round(delivered / ((lastArrival - startedAt) / 1000), 1),
        delivered,
        errors: matched.missing + after.worker.failed,
        duplicates: matched.duplicates,
        writeOnlyEventsPerSecond: round(count / ((Math.max(...written.committedAt) - written.startedAt) / 1000), 1),
        durationSeconds: round((lastArrival - startedAt) / 1000, 3),
        worker: workerStats(after.worker),
        ...cpuUse(before, after, delivered),
      };
    };
    let bareOffset = events + Math.min(events, 500);
    const bareRound = async () => {
      const bodies = Array.from({ length: events }, (_, i) => prepare(bareOffset + i));
      bareOffset += events;
      const run = await bareLoop(bodies);
      const matched = matchArrivals(
        bodies.map((b) => b.id),
        await takeArrivals(),
      );
      return { rate: round(events / ((run.endedAt - run.startedAt) / 1000), 1), errors: run.errors + matched.missing };
    };
    progress(`webhooks: backlog, ${rounds} rounds of ${events} events recorded with the worker paused, then delivered`);
    const warmRound = await backlogRound(warmup);
    const bares = [await bareRound()];
    const backlogRounds: Awaited<ReturnType<typeof backlogRound>>[] = [];
    for (let index = 0; index < rounds; index++) {
      backlogRounds.push(await backlogRound(events));
      bares.push(await bareRound());
      progress(
        `webhooks: backlog round ${index + 1}: ${backlogRounds[index]!.rate} events/s, bare loops ${bares[index]!.rate} and ${bares[index + 1]!.rate}`,
      );
    }
    const ratios = backlogRounds.map((backlog, index) =>
      round(backlog.rate / Math.max(bares[index]!.rate, bares[index + 1]!.rate), 3),
    );
    const medianIndex = ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!);
    const median = backlogRounds[medianIndex]!;
    const backlogRate = median.rate;
    const backlogErrors =
      warmRound.errors +
      backlogRounds.reduce((sum, r) => sum + r.errors, 0) +
      bares.reduce((sum, b) => sum + b.errors, 0);
    const backlogLine = {
      name: 'webhook-backlog',
      eventsPerSecond: backlogRate,
      ratioToBare: ratios[medianIndex]!,
      p50Ms: null,
      p99Ms: null,
      count: events,
      errors: backlogErrors,
      description: `${events} pending deliveries, worker started: its start to the last arrival (the worker alone), by rounds: each against the better of the bare loops around it, the median round reported (its CPU and statements); writeOnlyEventsPerSecond: the same events recorded with no worker running`,
      rounds: backlogRounds.map((r, index) => ({
        eventsPerSecond: r.rate,
        bareBefore: bares[index]!.rate,
        bareAfter: bares[index + 1]!.rate,
        ratio: ratios[index],
        cpuMsPerEvent: { worker: r.cpuMsPerEvent.worker, database: r.cpuMsPerEvent.database },
        ...(r.worker.statementMsPerAttempt !== undefined
          ? { statementMsPerAttempt: r.worker.statementMsPerAttempt }
          : {}),
      })),
      delivered: median.delivered,
      duplicates: median.duplicates,
      writeOnlyEventsPerSecond: median.writeOnlyEventsPerSecond,
      durationSeconds: median.durationSeconds,
      worker: median.worker,
      cpuCores: median.cpuCores,
      cpuMsPerEvent: median.cpuMsPerEvent,
    };
    emit(backlogLine);
    progress(
      `webhooks: backlog drained at ${backlogRate} events/s (median round, ${backlogLine.ratioToBare} of the bare loops beside it); writes alone ${backlogLine.writeOnlyEventsPerSecond}/s`,
    );

    // Every delivery of the run must have ended delivered. An attempt is recorded after its
    // answer arrives: pausing the worker waits for the last records.
    await guard(worker.ask('pause'));
    const states = await connection.pool.query<{ state: string; n: string }>(
      'select state, count(*) as n from webhook_deliveries where company_id = $1 group by state',
      [company.id],
    );
    const deliveriesByState = Object.fromEntries(states.rows.map((row) => [row.state, Number(row.n)]));
    const undelivered = Object.entries(deliveriesByState)
      .filter(([state]) => state !== 'delivered')
      .reduce((sum, [, n]) => sum + n, 0);

    const throughputGoal = 0.8;
    const p99Goal = 100;
    return {
      goal: `pipeline >= ${throughputGoal * 100}% of the bare loop's events/s; first attempt p99 < ${p99Goal} ms at ${rate} events/s`,
      bareEventsPerSecond: bareRate,
      pipelineEventsPerSecond: pipeRate,
      pipelineRatioToBare: pipeLine.ratioToBare,
      backlogEventsPerSecond: backlogRate,
      backlogRatioToBare: backlogLine.ratioToBare,
      bareCpuMsPerEvent: bareLine.cpuMsPerEvent.total,
      pipelineCpuMsPerEvent: pipeLine.cpuMsPerEvent.total,
      latencyTargetRate: rate,
      latencyAchievedRate: achievedRate,
      firstAttemptP50Ms: latDistribution.p50Ms,
      firstAttemptP99Ms: latDistribution.p99Ms,
      goalMetThroughput: pipeLine.ratioToBare >= throughputGoal,
      goalMetLatency: latDistribution.p99Ms < p99Goal && achievedRate >= rate * 0.95,
      errors: bareErrors + pipeErrors + latErrors + backlogErrors + undelivered,
      events,
      concurrency,
      writers,
      workerProcess:
        'a child process (bench/webhook-worker.ts): createDeliveryWorker + createDeliveryClient, its own pool of 20',
      deliveriesByState,
      elapsedSeconds: round((Date.now() - started) / 1000, 1),
    };
  } finally {
    await close();
  }
}
