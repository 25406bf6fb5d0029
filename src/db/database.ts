import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { openEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';
import { runMigrations } from './migrate.js';
import { checkServiceRole, grantServiceRole, serviceRole } from './service-role.js';
import { needsHostChoice, oneHostUrl, parseHostList } from './host-list.js';
import { hostChoosingClient } from './session-target.js';

export type Db = NodePgDatabase;
/** A transaction handle; stores accept either, so a use case can pass its transaction along. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

/**
 * Two pools on one database. `fast` commits without waiting for the disk (synchronous_commit
 * off): rate counters, failed-login counts and idempotency bookkeeping, whose last milliseconds
 * may be lost in a crash without harm (a later durable commit flushes them anyway). Documents,
 * events and everything else go through `pool`, durably.
 */
export interface Connection {
  pool: pg.Pool;
  db: Db;
  fast: { pool: pg.Pool; db: Db };
}

export interface Database extends Connection {
  url: string;
  embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
}

// timestamptz, numeric and bigint keep their exact text; Drizzle maps the timestamp columns itself.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export interface OpenOptions {
  databaseUrl: string | null;
  /** The owner's URL the migrations run on, when DATABASE_URL is the service's own login. */
  migrationDatabaseUrl?: string | null;
  dataDir: string;
  log: (message: string) => void;
  ownsServer: boolean;
  poolSize?: number;
  /** Hears each stage of the opening as it begins (`migrating the database`). */
  stage?: (name: string) => void;
  warn?: (message: string) => void;
}

const postgresUrl = /^postgres(?:ql)?:\/\//;

/**
 * Where a pool connects: node-postgres alone for one host, the service's host choice for a list
 * of hosts or a `target_session_attrs` (session-target.ts). Each pool keeps its own choice.
 */
function poolTarget(url: string): pg.PoolConfig {
  if (!postgresUrl.test(url)) return { connectionString: url };
  const list = parseHostList(url);
  if (!needsHostChoice(list)) return { connectionString: url };
  return { connectionString: oneHostUrl(url, list.hosts[0]!), Client: hostChoosingClient(url, list) };
}

/**
 * The service's pools. Every connection works as `role` from its start (the service's role, see
 * service-role.ts), so no query of the service bypasses row-level security; null keeps the
 * login's own role, for the migrations only.
 */
export function connect(url: string, poolSize = 20, role: string | null = serviceRole): Connection {
  const asRole = role ? ` -c role=${role}` : '';
  const pool = new pg.Pool({ ...poolTarget(url), max: poolSize, ...(role ? { options: asRole.trim() } : {}) });
  const fastPool = new pg.Pool({
    ...poolTarget(url),
    max: Math.max(2, Math.ceil(poolSize / 2)),
    options: `-c synchronous_commit=off${asRole}`,
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  fastPool.on('error', () => undefined);
  // Nor one checked out between two queries (pg-pool listens only to idle ones): its next query
  // fails with the error, and the caller's release drops it. Seen when the server stops while a
  // transaction waits on something else (the embedded server stopped at the end of `serve`).
  const keepCheckedOutErrors = (client: pg.PoolClient) => client.on('error', () => undefined);
  pool.on('connect', keepCheckedOutErrors);
  fastPool.on('connect', keepCheckedOutErrors);
  return { pool, db: drizzle(pool), fast: { pool: fastPool, db: drizzle(fastPool) } };
}

/** Ends both pools, once the requests still finishing (their client gone) have given back their connections. */
export async function disconnect(connection: Connection, waitMs = 10_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  const busy = () => [connection.pool, connection.fast.pool].some((p) => p.totalCount > p.idleCount);
  while (busy() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await Promise.all([connection.pool.end(), connection.fast.pool.end()]);
}

/**
 * Migrates the database at `url` as its owner (its login's own role), then lets `serviceLogin`
 * (the service's login, when it is another user) take the service's role.
 */
export async function migrateDatabase(url: string, serviceLogin: string | null = null): Promise<void> {
  const owner = connect(url, 2, null);
  try {
    await runMigrations(owner.pool, owner.db);
    if (serviceLogin) await grantServiceRole(owner.pool, serviceLogin);
  } finally {
    await disconnect(owner);
  }
}

/** The user a URL logs in as (empty when it names none: the driver's default then); a host list too. */
const loginOf = (url: string) =>
  postgresUrl.test(url) ? parseHostList(url).user : decodeURIComponent(new URL(url).username);

/**
 * Opens the external server named by DATABASE_URL, or the embedded one in the data directory;
 * migrates it as its owner (FACTEUR_MIGRATION_DATABASE_URL, DATABASE_URL alone, or the embedded
 * cluster's superuser), then connects as the service's role and checks that role.
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const embedded = options.databaseUrl
    ? null
    : await openEmbeddedPostgres({ dataDir: options.dataDir, log: options.log, ownsServer: options.ownsServer });
  let connection: Connection | null = null;
  try {
    const owner = options.databaseUrl ? (options.migrationDatabaseUrl ?? null) : null;
    // DATABASE_URL's own login, when the migrations run as another user: it is granted the service's role.
    const serviceLogin = owner && loginOf(options.databaseUrl!) !== loginOf(owner) ? loginOf(options.databaseUrl!) : '';
    options.stage?.('migrating the database');
    await migrateDatabase(owner ?? options.databaseUrl ?? embedded!.url, serviceLogin || null);
    // The embedded server's cluster is the service's: it logs in as its role, not as the superuser.
    const url = embedded ? await embedded.serviceLogin() : options.databaseUrl!;
    const opened = connect(url, options.poolSize);
    connection = opened;
    await checkServiceRole(opened.pool, options.warn ?? options.log);
    return {
      ...opened,
      url,
      embedded,
      async close() {
        await disconnect(opened);
        await embedded?.stop();
      },
    };
  } catch (error) {
    if (connection) await disconnect(connection).catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
}
