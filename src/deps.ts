import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Clock } from './kernel/clock.js';
import type { Db } from './db/database.js';

/** What every service needs from the outside world, passed explicitly. */
export interface Deps {
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
}
