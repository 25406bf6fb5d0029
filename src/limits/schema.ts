import { boolean, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant } from '../db/columns.js';

/** One counter per bucket (a key, or a key and a route) per fixed UTC window. */
export const rateWindows = pgTable(
  'rate_windows',
  {
    bucket: text('bucket').notNull(),
    windowStart: instant('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

/**
 * Failed authentications per subject, for the brute-force block: a client address for API keys
 * (the address itself), or a prefixed subject for the dashboard's sign-in (`sign-in:ip:…`,
 * `sign-in:account:…`, see users/sessions.ts).
 */
export const authFailures = pgTable('auth_failures', {
  /** The subject; named `ip` since API-key addresses were its only kind. */
  ip: text('ip').primaryKey(),
  windowStartedAt: instant('window_started_at').notNull(),
  failures: integer('failures').notNull(),
  blockedUntil: instant('blocked_until'),
});

/** Live usage per company and calendar month (UTC), against the plan's monthly quota. */
export const usageCounters = pgTable(
  'usage_counters',
  {
    companyId: text('company_id').notNull(),
    /** Always true: only live documents count against the quota (test ones never do). */
    livemode: boolean('livemode').notNull().default(true),
    period: text('period').notNull(),
    metric: text('metric').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.period, t.metric] })],
);
