import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { makeDeps, type Deps } from '../deps.js';
import { openDatabase, type Database } from '../db/database.js';
import { buildApp } from '../app.js';
import { loadCertificate, tlsServerOptions } from '../http/tls.js';
import { createRedirectServer, redirectOrigin } from '../http/https-redirect.js';
import { registry } from '../capabilities.js';
import { createBackgroundWork } from '../workers/background.js';
import { createDemoAccountIfEmpty, type DemoAccount } from './demo-account.js';
import { sealStoredSecrets } from './encryption-key.js';
import { encryptionKeyWarning } from '../kernel/sealed-secret.js';
import { createLogger } from './logger.js';
import { companyList } from '../companies/service.js';
import { validatorCacheDir } from '../einvoice/validation-pool.js';
import { compileValidatorsAtStart } from './validators-at-start.js';
import { createReadiness, type Readiness } from '../http/readiness.js';

/** `all` (the default): the API and the workers in one process; `api` and `worker` split them for scale. */
export type Role = 'all' | 'api' | 'worker';

export interface RunningService {
  app: FastifyInstance | null;
  redirect: Server | null;
  stop(): Promise<void>;
}

/**
 * True when `pid` is a live `facteur serve`: not a zombie, and (on Linux, where /proc says) a
 * process running facteur's `serve`, so that a pid reused by another program since a crash does
 * not block the start.
 */
function facteurServeAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.some((arg) => /facteur(\.js)?$/.test(arg)) && args.includes('serve');
  } catch {
    return false;
  }
}

/** With the embedded database, one serving process per data directory: it owns that server. */
function claimDataDir(config: Config): () => void {
  if (config.databaseUrl) return () => undefined;
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const pidFile = join(config.dataDir, 'serve.pid');
  if (existsSync(pidFile)) {
    // Empty or unreadable (a crash while it was written), or naming a process gone: stale.
    const pid = Number(readFileSync(pidFile, 'utf8').trim() || NaN);
    if (facteurServeAlive(pid))
      throw new Error(
        `another "facteur serve" (pid ${pid}) runs on ${config.dataDir}; stop it, or give this one its own FACTEUR_DATA_DIR or a DATABASE_URL`,
      );
  }
  writeFileSync(pidFile, String(process.pid));
  return () => rmSync(pidFile, { force: true });
}

async function startApi(
  deps: Deps,
  config: Config,
  say: (m: string) => void,
  lines: string[],
  readiness: Readiness,
): Promise<{ app: FastifyInstance; redirect: Server }> {
  const certificate = await loadCertificate(config, say);
  const app = await buildApp(deps, { https: tlsServerOptions(certificate), readiness });
  await app.listen({ port: config.port, host: config.host });
  const httpsPort = (app.server.address() as { port: number }).port;
  const redirect = createRedirectServer(redirectOrigin(config, httpsPort), `${config.publicUrl}/docs/errors`);
  await new Promise<void>((resolve, reject) =>
    redirect.once('error', reject).listen(config.httpPort, config.host, resolve),
  );
  const httpPort = (redirect.address() as { port: number }).port;
  lines.push(
    `facteur is serving https://localhost:${httpsPort} (HTTP ${httpPort} redirects to it)`,
    `TLS certificate: ${certificate.certPath}${certificate.generated ? ' (self-signed, generated now)' : ''}`,
  );
  return { app, redirect };
}

/**
 * The first part of a stop: `/readyz` answers 503 `draining` for `seconds` while every request is
 * still served, long enough for the load balancer's checks to take the node out; then the close
 * (in-flight requests finished, workers stopped) begins.
 */
async function drain(readiness: Readiness, seconds: number, say: (m: string) => void): Promise<void> {
  readiness.drain();
  if (seconds === 0) return;
  say(`draining: /readyz answers 503 for ${seconds} s, requests are still served; then the service stops`);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/**
 * A later start shows no key (the first start's was shown once): the banner says how to make one,
 * for the one company there is, or after listing them when there are several. `companies`: the
 * first two.
 */
export function howToMakeAKey(companies: { id: string }[]): string {
  const intro = 'no key is shown after the first start:';
  if (companies.length === 1)
    return `${intro} make one with  npx facteur key create --company ${companies[0]!.id} --env test`;
  return `${intro} find the company's id with  npx facteur company list  then make one with  npx facteur key create --company co_… --env test`;
}

/**
 * Starts the service. `progress` hears each stage of the start as it begins, so that a start that
 * fails (or stops without an error) can say where; an error thrown here names its stage.
 */
export async function serve(
  config: Config,
  role: Role = 'all',
  progress: (stage: string) => void = () => undefined,
): Promise<RunningService> {
  let stage = '';
  const step = (name: string) => {
    stage = name;
    progress(name);
  };
  try {
    return await start(config, role, step);
  } catch (error) {
    throw new Error(`the start failed while ${stage}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** The banner's account part: the demo account of a first start, else how to make a key. */
async function accountLines(
  deps: Deps,
  config: Config,
  demo: DemoAccount | null,
  api: { app: FastifyInstance } | null,
): Promise<string[]> {
  if (!demo) return [howToMakeAKey(await companyList(deps, 2))];
  const port = api ? (api.app.server.address() as { port: number }).port : config.port;
  return [
    'First start: a demo company and a test API key were created, with a dashboard user.',
    `  company: ${demo.companyId}`,
    `  test key (shown once): ${demo.testKey}`,
    `  try: curl --cacert ${join(config.dataDir, 'tls', 'cert.pem')} -H "Authorization: Bearer ${demo.testKey}" https://localhost:${port}/v1/account`,
    `  dashboard: https://localhost:${port}/dashboard  user: ${demo.user.email}  password (shown once): ${demo.user.password}`,
  ];
}

async function start(config: Config, role: Role, step: (stage: string) => void): Promise<RunningService> {
  const log = createLogger(config.logLevel, 'stdout');
  const say = (message: string) => log.info(message);
  // The data directory first: a second serve refuses before it touches the server the first one owns.
  step(`claiming ${config.dataDir}`);
  const releaseDataDir = claimDataDir(config);
  let database: Database | null = null;
  let api: { app: FastifyInstance; redirect: Server } | null = null;
  try {
    step(
      config.databaseUrl
        ? 'connecting to DATABASE_URL'
        : `opening the embedded PostgreSQL of ${config.dataDir} (joining the server left running, or starting it)`,
    );
    // Migrations run as the owner inside; the service's pools then work as its own role.
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      migrationDatabaseUrl: config.migrationDatabaseUrl,
      dataDir: config.dataDir,
      log: say,
      warn: (message) => log.warn(message),
      ownsServer: true,
      stage: step,
    });
    const deps = makeDeps(database, config, log);
    step('sealing the stored secrets');
    const keyWarning = encryptionKeyWarning(config);
    if (keyWarning) log.warn(keyWarning);
    await sealStoredSecrets(deps);
    step('creating the demo account of a first start');
    const demo = await createDemoAccountIfEmpty(deps);

    const lines: string[] = [];
    step(`listening on ${config.host}:${config.port} (HTTPS) and :${config.httpPort} (HTTP)`);
    // A worker-only node has no HTTP server: nothing balances traffic to it, so no readiness either.
    const readiness = createReadiness();
    api = role === 'worker' ? null : await startApi(deps, config, say, lines, readiness);
    step('starting the workers');
    // Deliveries, jobs, e-mails and the periodic passes (overdue invoices, expired quotes, purges).
    const background = role === 'api' ? null : createBackgroundWork(deps, registry);
    await background?.start();
    lines.push(
      `role: ${role}; database: ${database.embedded ? `embedded PostgreSQL in ${config.dataDir}` : 'DATABASE_URL'}`,
    );
    lines.push(...(await accountLines(deps, config, demo, api)));
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
    // After the banner, beside the start (not awaited: the service is up and a SIGTERM stops it
    // meanwhile): a missing validator is said, and compiled while the API answers.
    void compileValidatorsAtStart(validatorCacheDir(config.dataDir), (line) => process.stdout.write(`${line}\n`)).catch(
      (error: unknown) => log.warn({ err: error }, 'the compiled validators could not be checked'),
    );

    const opened = { database, api };
    let stopping: Promise<void> | null = null;
    const stop = () => {
      stopping ??= (async () => {
        if (opened.api) await drain(readiness, config.drainSeconds, say);
        opened.api?.redirect.close();
        await opened.api?.app.close();
        await background?.stop();
        await opened.database.close();
        releaseDataDir();
      })();
      return stopping;
    };
    return { app: api?.app ?? null, redirect: api?.redirect ?? null, stop };
  } catch (error) {
    // A start that fails gives back what it opened: the ports, the database (the server it owns too).
    const opened = api as { app: FastifyInstance; redirect: Server } | null;
    opened?.redirect.close();
    await opened?.app.close().catch(() => undefined);
    await (database as Database | null)?.close().catch(() => undefined);
    releaseDataDir();
    throw error;
  }
}
