import { bigint, boolean, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * One counter per company, environment and series: a finalization takes the next value in its
 * own transaction, so a failed or interrupted one gives nothing away (no gap, no duplicate).
 */
export const numberCounters = pgTable(
  'number_counters',
  {
    companyId: text('company_id').notNull(),
    livemode: boolean('livemode').notNull(),
    series: text('series').notNull(),
    lastValue: bigint('last_value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.livemode, t.series] })],
);
