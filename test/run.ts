/**
 * `npm test`: runs the suite against a real PostgreSQL. Without DATABASE_URL it starts an
 * embedded server in a temporary directory (nothing to install); with it, it uses that server.
 * Either way the suite gets a fresh database of its own, migrated once, dropped at the end.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir, availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded-postgres.js';
import { migrateDatabase } from '../src/db/database.js';
import { loadCertificate } from '../src/http/tls.js';
import { loadConfig } from '../src/config.js';
import { compileAll } from '../src/einvoice/sef-cache.js';
import { registryStylesheets, validatorCacheDir } from '../src/einvoice/validation-pool.js';

async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return testFiles(path);
      return entry.name.endsWith('.test.ts') ? [path] : [];
    }),
  );
  return nested.flat().sort();
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Loads libxml2-wasm natively before tsx registers (see bin/facteur.js): 110 MB less per test process. */
const tsxImports = ['--import', 'libxml2-wasm', '--import', 'tsx'];

async function main(): Promise<number> {
  const root = new URL('..', import.meta.url).pathname;
  const args = process.argv.slice(2);
  // A folder among the arguments stands for the test files under it (`npm test -- test/deposits`).
  const chosen = args.length > 0 ? args : ['test'];
  const files = (
    await Promise.all(
      chosen.map(async (arg) =>
        (await stat(resolve(root, arg))).isDirectory()
          ? (await testFiles(resolve(root, arg))).map((file) => relative(root, file))
          : [arg],
      ),
    )
  ).flat();

  // The einvoice and platform tests run the official schematrons, from the installation's one
  // cache (`npm ci` compiled it; the service under test reads the same one): what it lacks is
  // compiled once before the test processes start, which would otherwise each compile it at the
  // same time. The test processes get its path as FACTEUR_TEST_SEF_CACHE (test/einvoice/support.ts).
  const sefCache = validatorCacheDir(join(tmpdir(), 'facteur-test-data'));
  const stylesheetsReady = files.some((file) =>
    ['einvoice', 'platform', 'files', 'archive'].some((part) => file.includes(part)),
  )
    ? compileAll(sefCache, registryStylesheets)
    : Promise.resolve();
  stylesheetsReady.catch(() => undefined);

  let embedded: EmbeddedDatabase | null = null;
  const scratch = await mkdtemp(join(tmpdir(), 'facteur-test-'));
  // A certificate for the tests' local HTTPS receivers, trusted by the service under test the way
  // an operator would trust one: NODE_EXTRA_CA_CERTS.
  const receiverTls = await loadCertificate({ ...loadConfig({}), dataDir: join(scratch, 'receiver') }, () => undefined);
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    embedded = await openEmbeddedPostgres({
      dataDir: scratch,
      ownsServer: true,
      log: () => undefined,
      // A throwaway cluster: durability settings off, room for every test process's pool.
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
    });
    adminUrl = embedded.url;
  }
  const database = `facteur_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const url = withDatabase(adminUrl, database);
  // As the service does: migrations as the owner; the tests' pools then work as the service's role
  // (connect's default), on this same superuser URL (DATABASE_URL below; admin tools in tests use it as is).
  await migrateDatabase(url);
  process.stdout.write(`# database: ${embedded ? 'embedded PostgreSQL' : 'DATABASE_URL server'}, ${database}\n`);

  await stylesheetsReady;
  const concurrency = Math.max(2, Math.min(4, availableParallelism()));
  const child = spawn(process.execPath, [...tsxImports, '--test', `--test-concurrency=${concurrency}`, ...files], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      DATABASE_URL: url,
      FACTEUR_TEST_ADMIN_URL: adminUrl,
      FACTEUR_TEST_EMBEDDED: embedded ? '1' : '0',
      FACTEUR_TEST_SEF_CACHE: sefCache,
      NODE_EXTRA_CA_CERTS: receiverTls.certPath,
      FACTEUR_TEST_RECEIVER_CERT: receiverTls.certPath,
      FACTEUR_TEST_RECEIVER_KEY: join(scratch, 'receiver', 'tls', 'key.pem'),
    },
  });
  const code = await new Promise<number>((resolve) =>
    child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))),
  );

  await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
  await admin.end();
  await embedded?.stop();
  await rm(scratch, { recursive: true, force: true });
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`test runner: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
