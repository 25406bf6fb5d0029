import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { instant } from '../db/columns.js';

export const companies = pgTable('companies', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  siren: text('siren').notNull(),
  /** Where operational e-mails go (failing webhook endpoints); null: they are only logged. */
  email: text('email'),
  /** How far the sandbox clock of this company runs ahead of real time (test mode only). */
  sandboxClockOffsetMs: bigint('sandbox_clock_offset_ms', { mode: 'number' }).notNull().default(0),
  created: instant('created').notNull(),
});
