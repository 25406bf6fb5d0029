import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema.js';
import { openEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle; stores accept either, so a use case can pass its transaction along. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  pool: pg.Pool;
  db: Db;
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

export function connect(url: string, poolSize = 20): { pool: pg.Pool; db: Db } {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return { pool, db: drizzle(pool, { schema }) };
}

/** Opens the external server named by DATABASE_URL, or the embedded one in the data directory. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const embedded = options.databaseUrl
    ? null
    : await openEmbeddedPostgres({ dataDir: options.dataDir, log: options.log, ownsServer: options.ownsServer });
  const url = options.databaseUrl ?? embedded!.url;
  const { pool, db } = connect(url, options.poolSize);
  return {
    pool,
    db,
    url,
    embedded,
    async close() {
      // Requests still finishing (their client gone) may hold a connection: let them end first.
      const deadline = Date.now() + 10_000;
      while (pool.totalCount > pool.idleCount && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await pool.end();
      await embedded?.stop();
    },
  };
}
