import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { systemClock, type Clock } from './kernel/clock.js';
import type { Connection, Db } from './db/database.js';
import { createMailer, type Mailer } from './notifications/mailer.js';
import { systemResolveHost, type ResolveHost } from './kernel/outbound-address.js';
import { KeyCache } from './api-keys/service.js';
import { SandboxPlatform } from './pa-simulator/sandbox-platform.js';

/** What every service needs from the outside world, passed explicitly. */
export interface Deps {
  db: Db;
  pool: pg.Pool;
  /** Commits without waiting for the disk: counters and bookkeeping only (see Connection). */
  fast: { db: Db; pool: pg.Pool };
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
  /** Null when no SMTP server is configured: e-mails are logged only. */
  mailer: Mailer | null;
  /** DNS resolution of user-given hosts, webhooks and platforms (a stub in tests: no real private traffic). */
  resolveHost: ResolveHost;
  /** Valid API keys of this node, kept in step with revocations by a PostgreSQL listener. */
  keyCache: KeyCache;
  /** The test mode's approved platform: a pa-simulator in this process, started on first use. */
  sandboxPlatform: SandboxPlatform;
}

/** The one place Deps are assembled; tests and benchmarks override what they need. */
export function makeDeps(
  database: Connection,
  config: Config,
  log: FastifyBaseLogger,
  overrides: Partial<Deps> = {},
): Deps {
  return {
    db: database.db,
    pool: database.pool,
    fast: database.fast,
    clock: systemClock,
    config,
    log,
    mailer: createMailer(config),
    resolveHost: systemResolveHost,
    keyCache: new KeyCache(),
    sandboxPlatform: new SandboxPlatform({ shared: config.sandboxPlatform }),
    ...overrides,
  };
}
