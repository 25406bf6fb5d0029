/**
 * The webhook bench's delivery worker, in a process of its own as in a `facteur serve` node:
 * the real createDeliveryWorker over its own pool (20 connections, as `serve` opens) with the
 * real delivery client (createDeliveryClient, guarded lookup, `allowPrivate` since the receiver
 * is on 127.0.0.1). The receiver's self-signed certificate is trusted the way an operator would
 * trust one: NODE_EXTRA_CA_CERTS, set by the parent when it forks this process.
 *
 * The parent starts and pauses the worker (pausing keeps the pool and the client's connections),
 * and samples this process's CPU time, the attempts' outcomes and the POSTs' durations; with
 * BENCH_DB_TIMING=1 also every SQL statement, by kind.
 */
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { connect, disconnect } from '../src/db/database.js';
import { makeDeps } from '../src/deps.js';
import { createLogger } from '../src/cli/logger.js';
import { createDeliveryClient, type DeliveryClient } from '../src/webhooks/delivery-client.js';
import { createDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { deliveryTimeoutMs } from '../src/webhooks/retry-schedule.js';
import { epochMs, required, runChild } from './webhook-child.js';

export interface StatementTiming {
  count: number;
  ms: number;
}

export interface WorkerSample {
  cpu: NodeJS.CpuUsage;
  /** Since the previous sample. */
  posts: number;
  delivered: number;
  failed: number;
  failures: Record<string, number>;
  /** Time inside the delivery client's post (request, answer, body dropped), summed. */
  postMs: number;
  /** BENCH_DB_TIMING=1: statements by kind since the previous sample. */
  statements: Record<string, StatementTiming> | null;
}

/** Which of the worker's statements a SQL text is (see src/webhooks/store.ts and delivery-worker.ts). */
function kindOf(text: string): string {
  const head = text.trimStart().slice(0, 120).toLowerCase();
  if (head.startsWith('with due as')) return 'claim';
  if (head.startsWith('select') && text.includes('from "webhook_endpoints"')) return 'loadEndpoint';
  if (head.startsWith('select') && text.includes('from "events"')) return 'loadEvent';
  if (head.startsWith('begin')) return 'begin';
  if (head.startsWith('commit')) return 'commit';
  if (head.startsWith('rollback')) return 'rollback';
  if (head.startsWith('update "webhook_deliveries"')) return 'settleDelivery';
  if (head.startsWith('insert into "webhook_attempts"')) return 'insertAttempt';
  if (head.startsWith('update "events"')) return 'retainEvent';
  if (head.startsWith('update "webhook_endpoints"')) return 'endpointHealth';
  if (head.startsWith('listen') || head.startsWith('unlisten')) return 'listen';
  return 'other';
}

/** Counts and times every statement of every pg client of this process, by kind. */
function instrumentPg(): () => Record<string, StatementTiming> {
  let byKind: Record<string, StatementTiming> = {};
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  const record = (kind: string, started: number) => {
    const entry = (byKind[kind] ??= { count: 0, ms: 0 });
    entry.count += 1;
    entry.ms += performance.now() - started;
  };
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function query(
    this: pg.Client,
    ...args: unknown[]
  ) {
    const first = args[0] as { submit?: unknown; text?: unknown } | string | undefined;
    if (first && typeof first === 'object' && typeof first.submit === 'function') return original.apply(this, args);
    const kind = kindOf(typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : '');
    const started = performance.now();
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        record(kind, started);
        return (last as (...r: unknown[]) => unknown)(...results);
      };
      return original.apply(this, args);
    }
    return (original.apply(this, args) as Promise<unknown>).finally(() => record(kind, started));
  };
  return () => {
    const taken = byKind;
    byKind = {};
    return taken;
  };
}

runChild('worker', async () => {
  const databaseUrl = required('BENCH_DATABASE_URL');
  const companyId = required('BENCH_COMPANY_ID');
  const concurrency = Number(required('BENCH_WEBHOOK_CONCURRENCY'));
  const takeStatements = process.env.BENCH_DB_TIMING === '1' ? instrumentPg() : null;

  const config = {
    ...loadConfig({
      FACTEUR_DATA_DIR: required('BENCH_DATA_DIR'),
      LOG_LEVEL: 'warn',
      FACTEUR_ALLOW_PRIVATE_WEBHOOKS: 'true',
    }),
    databaseUrl,
  };
  const connection = connect(databaseUrl);
  // The receiver listens on 127.0.0.1 only: localhost must not resolve to ::1 first.
  const resolveHost = async (hostname: string) => {
    if (hostname === 'localhost') return ['127.0.0.1'];
    throw Object.assign(new Error(`bench: ${hostname} not found`), { code: 'ENOTFOUND' });
  };
  const deps = makeDeps(connection, config, createLogger(config.logLevel, 'stderr'), { resolveHost });
  const delivery = createDeliveryClient(
    { resolve: resolveHost, allowPrivate: config.allowPrivateWebhooks },
    deliveryTimeoutMs,
  );

  let counts = { posts: 0, delivered: 0, failed: 0, postMs: 0, failures: {} as Record<string, number> };
  let failedTotal = 0;
  // The real client, with its outcomes counted and its time taken: a failed attempt is retried
  // a minute later at the earliest, so the parent must learn of it rather than wait for it.
  const client: DeliveryClient = {
    async post(request) {
      const started = performance.now();
      const outcome = await delivery.post(request);
      counts.postMs += performance.now() - started;
      counts.posts += 1;
      if (outcome.kind === 'delivered') counts.delivered += 1;
      else {
        counts.failed += 1;
        failedTotal += 1;
        counts.failures[outcome.error] = (counts.failures[outcome.error] ?? 0) + 1;
      }
      return outcome;
    },
    close: () => delivery.close(),
  };

  let worker: DeliveryWorker | null = null;
  const pause = async () => {
    const running = worker;
    worker = null;
    await running?.stop();
  };
  return {
    ready: { pid: process.pid },
    handlers: {
      start: async () => {
        if (worker) throw new Error('the worker is already running');
        worker = createDeliveryWorker(deps, { client, concurrency, companies: [companyId] });
        const startedAt = epochMs();
        await worker.start();
        return { startedAt };
      },
      pause: async () => {
        await pause();
        return {};
      },
      /** Failed attempts since the start, without resetting anything. */
      progress: () => ({ failed: failedTotal }),
      sample: (): WorkerSample => {
        const taken = counts;
        counts = { posts: 0, delivered: 0, failed: 0, postMs: 0, failures: {} };
        return { cpu: process.cpuUsage(), ...taken, statements: takeStatements ? takeStatements() : null };
      },
    },
    async stop() {
      await pause();
      await client.close().catch(() => undefined);
      await disconnect(connection, 5_000);
    },
  };
});
