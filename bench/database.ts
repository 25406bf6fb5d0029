/**
 * The bench's database: a fresh database on the DATABASE_URL server (dropped afterwards), or an
 * embedded PostgreSQL cluster in a temporary directory (stopped afterwards), with the server's
 * default durability settings: fsync stays on, so writes cost what they cost in production.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { openEmbeddedPostgres } from '../src/db/embedded-postgres.js';

export interface BenchDatabase {
  url: string;
  kind: 'embedded' | 'DATABASE_URL';
  name: string;
  /** The postmaster's pid when it runs on this machine under our control (embedded), else null. */
  pid: number | null;
  close(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function openBenchDatabase(scratch: string, progress: (message: string) => void): Promise<BenchDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const name = `facteur_bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
    } catch (error) {
      await admin.end().catch(() => undefined);
      throw error;
    }
    progress(`database ${name} created on the DATABASE_URL server`);
    return {
      url: withDatabase(adminUrl, name),
      kind: 'DATABASE_URL',
      name,
      pid: null,
      async close() {
        // BENCH_KEEP_DATABASE=1 leaves it for a look (EXPLAIN) after the run.
        if (process.env.BENCH_KEEP_DATABASE === '1') {
          await admin.end().catch(() => undefined);
          return progress(`database ${name} kept`);
        }
        await admin
          .query(`drop database if exists ${name} with (force)`)
          .catch((error: unknown) => progress(`could not drop ${name}: ${String(error)}`));
        await admin.end().catch(() => undefined);
        progress(`database ${name} dropped`);
      },
    };
  }
  const dataDir = join(scratch, 'postgres-data');
  const embedded = await openEmbeddedPostgres({ dataDir, ownsServer: true, log: progress });
  const pid = Number(
    (await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0],
  );
  return {
    url: embedded.url,
    kind: 'embedded',
    name: new URL(embedded.url).pathname.slice(1),
    pid: Number.isInteger(pid) && pid > 0 ? pid : null,
    async close() {
      await embedded.stop();
      progress('embedded PostgreSQL stopped');
    },
  };
}
