/**
 * A database of a test's own, for tests that migrate from an old schema or change what the shared
 * one must not see: created on the suite's server, dropped with its connections at the end.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  readonly url: string;
  /** The database as its owner, past the service's role. */
  readonly pool: pg.Pool;
  /** Ends the pool and drops the database, closing any connection still open on it. */
  drop(): Promise<void>;
}

const adminUrl = () => {
  const url = process.env.FACTEUR_TEST_ADMIN_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('run the suite with `npm test`: it provides the database');
  return url;
};

async function asAdmin(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await asAdmin(`create database ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  // pool.end() resolves before its clients' sockets are closed, so the drop below may terminate one
  // of them ("terminating connection due to administrator command"): a client with no listener
  // would throw that as an uncaught exception in whichever test opened it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return {
    url: url.toString(),
    pool,
    async drop() {
      await pool.end();
      await asAdmin(`drop database if exists ${name} with (force)`);
    },
  };
}
