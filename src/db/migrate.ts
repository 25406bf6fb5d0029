import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import type { Db } from './database.js';

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
// Any constant shared by every facteur process: several nodes starting at once migrate one at a time.
const migrationLock = 7_361_004_221;

export async function runMigrations(pool: pg.Pool, db: Db): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [migrationLock]);
    await migrate(db, { migrationsFolder });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [migrationLock]).catch(() => undefined);
    lock.release();
  }
}
