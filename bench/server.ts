/**
 * The bench's server process: the real facteur app (real Deps, system clock, PostgreSQL) and a
 * bare Fastify HTTPS server with the same TLS settings, side by side in one process so that both
 * run under the same conditions. The parent drives the load, one server at a time, and talks to
 * this process over IPC (see protocol.ts). Nothing is written to stdout by design: the parent
 * maps this process's stdout onto its own stderr anyway.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connect, disconnect, migrateDatabase } from '../src/db/database.js';
import { makeDeps } from '../src/deps.js';
import { loadCertificate } from '../src/http/tls.js';
import { createLogger } from '../src/cli/logger.js';
import { createCompany } from '../src/companies/service.js';
import { equipSeller } from '../test/support/harness.js';
import { createApiKey } from '../src/api-keys/service.js';
import type { DbTiming, FromServer, ToServer } from './protocol.js';

const say = (message: string) => process.stderr.write(`[bench server] ${message}\n`);

function send(message: FromServer, then?: () => void): void {
  if (process.send) process.send(message, undefined, {}, () => then?.());
  else then?.();
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the bench with \`npm run bench\``);
  return value;
}

/**
 * Opt-in (BENCH_DB_TIMING=1): counts and times every statement of every pg client, so the
 * parent can report the queries per request and the time spent waiting on PostgreSQL. Off by
 * default, since it adds work to the path being measured.
 */
function instrumentPg(): () => DbTiming {
  const timing: DbTiming = { queries: 0, totalMs: 0 };
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  const record = (started: bigint) => {
    timing.queries += 1;
    timing.totalMs += Number(process.hrtime.bigint() - started) / 1e6;
  };
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function query(
    this: pg.Client,
    ...args: unknown[]
  ) {
    const first = args[0] as { submit?: unknown } | undefined;
    if (first && typeof first === 'object' && typeof first.submit === 'function') return original.apply(this, args);
    const started = process.hrtime.bigint();
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        record(started);
        return (last as (...r: unknown[]) => unknown)(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as Promise<unknown>;
    return result.then(
      (value) => {
        record(started);
        return value;
      },
      (error: unknown) => {
        record(started);
        throw error;
      },
    );
  };
  return () => {
    const snapshot = { ...timing };
    timing.queries = 0;
    timing.totalMs = 0;
    return snapshot;
  };
}

async function main(): Promise<void> {
  const databaseUrl = required('BENCH_DATABASE_URL');
  const dataDir = required('BENCH_DATA_DIR');
  const takeTiming = process.env.BENCH_DB_TIMING === '1' ? instrumentPg() : null;

  const config = {
    ...loadConfig({ FACTEUR_DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', HTTP_PORT: '0' }),
    databaseUrl,
  };
  const log = createLogger(config.logLevel, 'stderr');
  const connection = connect(databaseUrl);
  await migrateDatabase(databaseUrl);
  // Assembled like `facteur serve` does: system clock, no SMTP server (none is configured).
  const deps = makeDeps(connection, config, log);

  const certificate = await loadCertificate(config, say);
  const tls = { cert: certificate.cert, key: certificate.key, minVersion: 'TLSv1.2' as const };

  const app = await buildApp(deps, { https: tls });
  await app.listen({ port: 0, host: config.host });

  const bare: FastifyInstance = Fastify({ https: tls }) as unknown as FastifyInstance;
  // The baseline answers a body of the account's size and shape (fixed, no work behind it), so
  // the ratio measures what facteur adds per request (TLS costs grow with the bytes written).
  const bareBody = {
    id: 'co_01m80kd1cn1220tzdk3rc8ms8q',
    object: 'account',
    livemode: false,
    name: 'Bench SAS',
    siren: '732829320',
    plan: 'pro',
    limits: { requestsPerMinute: 1000, monthlyQuota: 50000, webhookEndpoints: 20, storageBytes: 10737418240 },
    apiKey: { id: 'key_01m80kd1cttmc434hmzwm7khd7', scopes: null, expiresAt: null },
    created: '2026-11-22T03:04:40.085Z',
  };
  bare.get('/bare', async () => bareBody);
  await bare.listen({ port: 0, host: config.host });

  const company = await createCompany(deps, { name: 'Bench SAS', siren: '732829320', plan: 'pro' });
  // A seller in full, as a company sets itself up: its legal identity, and its head office
  // (SIRET 73282932000017), which its tax profile must name.
  await equipSeller(deps, company.id, company.siren);

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await Promise.allSettled([app.close(), bare.close()]);
      // When autocannon ends a run it drops its connections with requests in flight: the server
      // closes as soon as the sockets are gone, but those handlers still run (and still need
      // the pool for their last statements). Let them finish before ending the pool.
      await disconnect(connection, 5_000).catch(() => undefined);
    })().finally(() => process.exit(0));
    return stopping;
  };
  // The parent gone (crashed or killed), this process has no reason to live.
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());

  process.on('message', (raw) => {
    const message = raw as ToServer;
    void (async () => {
      try {
        if (message.type === 'stop') return void (await stop());
        if (message.type === 'sample') {
          return send({
            type: 'sample',
            id: message.id,
            cpu: process.cpuUsage(),
            timing: takeTiming ? takeTiming() : null,
          });
        }
        if (message.type === 'createKeys') {
          const secrets: string[] = [];
          for (let i = 0; i < message.count; i++) {
            secrets.push((await createApiKey(deps, { companyId: company.id, env: message.env })).secret);
          }
          return send({ type: 'keys', id: message.id, secrets });
        }
      } catch (error) {
        send({
          type: 'failed',
          id: 'id' in message ? message.id : null,
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
    })();
  });

  const portOf = (server: FastifyInstance) => (server.server.address() as { port: number }).port;
  send({ type: 'ready', appPort: portOf(app), barePort: portOf(bare), cert: certificate.cert, companyId: company.id });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  say(`failed to start: ${message}`);
  send({ type: 'failed', id: null, message }, () => process.exit(1));
  setTimeout(() => process.exit(1), 1000).unref();
});
