import { pgTable, text } from 'drizzle-orm/pg-core';
import { instant } from '../db/columns.js';

export const companies = pgTable('companies', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  siren: text('siren').notNull(),
  plan: text('plan').notNull(),
  created: instant('created').notNull(),
});
