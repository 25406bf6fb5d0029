/**
 * `npm run sdk:types`: writes packages/sdk/src/openapi.ts from the OpenAPI document of this
 * checkout's service (built in-process on DATABASE_URL, or the embedded PostgreSQL of
 * FACTEUR_DATA_DIR, as the facteur commands open it).
 */
import { writeFile } from 'node:fs/promises';
import { loadConfig } from '../../../src/config.js';
import { openDatabase } from '../../../src/db/database.js';
import { makeDeps } from '../../../src/deps.js';
import { buildApp } from '../../../src/app.js';
import { createLogger } from '../../../src/cli/logger.js';
import { typesFile, typesOfOpenApi } from './openapi-types.js';

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
  await writeFile(typesFile, await typesOfOpenApi(app.swagger()));
  await app.close();
  process.stdout.write(`written: ${typesFile.pathname}\n`);
} finally {
  await database.close();
}
