import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
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
    /** `logged` (test mode, or no recipient / no SMTP), `pending` (to send), `sent`, or `failed`. */
    status: text('status').notNull(),
    error: text('error'),
    /** Sending attempts made; a pending e-mail is due at `nextAttemptAt`, leased while a worker sends it. */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    lockedUntil: instant('locked_until'),
    lockToken: text('lock_token'),
    created: instant('created').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('emails_list').on(t.companyId, t.livemode, t.id),
    index('emails_due')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);
