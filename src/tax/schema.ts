import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/** Tax decisions (`txd_`): immutable once written. `body` is the resource as answered; `input` the operation as described. */
export const taxDecisions = pgTable(
  'tax_decisions',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    /** `final`, `suspended`, `not_taken`. */
    status: text('status').notNull(),
    /** The operation date, `YYYY-MM-DD`. */
    date: text('date').notNull(),
    customerId: text('customer_id'),
    retryOf: text('retry_of'),
    expiresAt: instant('expires_at'),
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    created: instant('created').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('tax_decisions_list').on(t.companyId, t.livemode, t.id),
    // A decision is retried once: the retry chain has no branches.
    uniqueIndex('tax_decisions_retry_of')
      .on(t.companyId, t.retryOf)
      .where(sql`retry_of is not null`),
  ],
);
