/**
 * The OpenAPI document of this checkout's service, built in process (no server listening) on
 * DATABASE_URL, or the embedded PostgreSQL of FACTEUR_DATA_DIR, as the facteur commands open it.
 * The generators of the SDK's types (`npm run sdk:types`) and of the reference pages
 * (`npm run docs:reference`) both read it from here.
 */
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { makeDeps } from '../deps.js';
import { buildApp } from '../app.js';
import { createLogger } from './logger.js';

export async function openApiDocumentOfCheckout(): Promise<unknown> {
  const config = loadConfig();
  const log = createLogger('warn', 'stderr');
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    migrationDatabaseUrl: config.migrationDatabaseUrl,
    dataDir: config.dataDir,
    log: (message) => log.info(message),
    ownsServer: false,
    poolSize: 2,
  });
  try {
    const app = await buildApp(makeDeps(database, config, log));
    await app.ready();
    const document = app.swagger();
    await app.close();
    return document;
  } finally {
    await database.close();
  }
}
