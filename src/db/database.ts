import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { openEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';

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
  dataDir: string;
  log: (message: string) => void;
  ownsServer: boolean;
  poolSize?: number;
}

export function connect(url: string, poolSize = 20): Connection {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const fastPool = new pg.Pool({
    connectionString: url,
    max: Math.max(2, Math.ceil(poolSize / 2)),
    options: '-c synchronous_commit=off',
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

/** Opens the external server named by DATABASE_URL, or the embedded one in the data directory. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const embedded = options.databaseUrl
    ? null
    : await openEmbeddedPostgres({ dataDir: options.dataDir, log: options.log, ownsServer: options.ownsServer });
  const url = options.databaseUrl ?? embedded!.url;
  const connection = connect(url, options.poolSize);
  return {
    ...connection,
    url,
    embedded,
    async close() {
      await disconnect(connection);
      await embedded?.stop();
    },
  };
}
