import { boolean, text, timestamp } from 'drizzle-orm/pg-core';

/** Timestamps are stored with milliseconds, the precision events expose. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

/** The two columns every tenant row carries: whose it is and in which environment. */
export const tenantColumns = () => ({
  companyId: text('company_id').notNull(),
  livemode: boolean('livemode').notNull(),
});
