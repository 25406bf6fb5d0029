import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { makeDeps, type Deps } from '../deps.js';
import { openDatabase } from '../db/database.js';
import { runMigrations } from '../db/migrate.js';
import { buildApp } from '../app.js';
import { loadCertificate } from '../http/tls.js';
import { createRedirectServer } from '../http/https-redirect.js';
import { registry } from '../capabilities.js';
import { createBackgroundWork } from '../workers/background.js';
import { createDemoAccountIfEmpty } from './demo-account.js';
import { createLogger } from './logger.js';

/** `all` (the default): the API and the workers in one process; `api` and `worker` split them for scale. */
export type Role = 'all' | 'api' | 'worker';

export interface RunningService {
  app: FastifyInstance | null;
  redirect: Server | null;
  stop(): Promise<void>;
}

/** With the embedded database, one serving process per data directory: it owns that server. */
function claimDataDir(config: Config): () => void {
  if (config.databaseUrl) return () => undefined;
  const pidFile = join(config.dataDir, 'serve.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = pid !== process.pid;
    } catch {
      alive = false;
    }
    if (alive)
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
): Promise<{ app: FastifyInstance; redirect: Server }> {
  const certificate = await loadCertificate(config, say);
  const app = await buildApp(deps, { https: { cert: certificate.cert, key: certificate.key, minVersion: 'TLSv1.2' } });
  await app.listen({ port: config.port, host: config.host });
  const httpsPort = (app.server.address() as { port: number }).port;
  const redirect = createRedirectServer(
    httpsPort,
    config.publicUrlSet ? new URL(config.publicUrl).origin : null,
    `${config.publicUrl}/docs/errors`,
  );
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

export async function serve(config: Config, role: Role = 'all'): Promise<RunningService> {
  const log = createLogger(config.logLevel, 'stdout');
  const say = (message: string) => log.info(message);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    log: say,
    ownsServer: true,
  });
  const releaseDataDir = claimDataDir(config);
  await runMigrations(database.pool, database.db);
  const deps = makeDeps(database, config, log);
  const demo = await createDemoAccountIfEmpty(deps);

  const lines: string[] = [];
  const api = role === 'worker' ? null : await startApi(deps, config, say, lines);
  // Deliveries, jobs, e-mails and the periodic passes (overdue invoices, expired quotes, purges).
  const background = role === 'api' ? null : createBackgroundWork(deps, registry);
  await background?.start();
  lines.push(
    `role: ${role}; database: ${database.embedded ? `embedded PostgreSQL in ${config.dataDir}` : 'DATABASE_URL'}`,
  );
  if (demo) {
    const port = api ? (api.app.server.address() as { port: number }).port : config.port;
    lines.push(
      'First start: a demo company and a test API key were created, with a dashboard user.',
      `  company: ${demo.companyId}`,
      `  test key (shown once): ${demo.testKey}`,
      `  try: curl --cacert ${join(config.dataDir, 'tls', 'cert.pem')} -H "Authorization: Bearer ${demo.testKey}" https://localhost:${port}/v1/account`,
      `  dashboard: https://localhost:${port}/dashboard  user: ${demo.user.email}  password (shown once): ${demo.user.password}`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      api?.redirect.close();
      await api?.app.close();
      await background?.stop();
      await database.close();
      releaseDataDir();
    })();
    return stopping;
  };
  return { app: api?.app ?? null, redirect: api?.redirect ?? null, stop };
}
