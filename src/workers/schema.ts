import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { instant } from '../db/columns.js';

/**
 * One row per periodic pass (overdue invoices, expiring quotes, purges...): the pass is due at
 * `nextRunAt` and leased to the worker that runs it, so a pass runs on one node at a time and
 * one that died mid-run is taken over when its lease lapses.
 */
export const periodicPasses = pgTable('periodic_passes', {
  name: text('name').primaryKey(),
  everyMs: integer('every_ms').notNull(),
  nextRunAt: instant('next_run_at').notNull(),
  lockedUntil: instant('locked_until'),
  lockToken: text('lock_token'),
  lastRunAt: instant('last_run_at'),
  lastError: text('last_error'),
});
