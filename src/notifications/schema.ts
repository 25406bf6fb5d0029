import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/** Every e-mail the service decides to send: test-mode ones are only logged here, never sent. */
export const emails = pgTable(
  'emails',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    to: text('to'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** `logged` (test mode, or no recipient / no SMTP), `sent`, or `failed`. */
    status: text('status').notNull(),
    error: text('error'),
    created: instant('created').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] }), index('emails_list').on(t.companyId, t.livemode, t.id)],
);
