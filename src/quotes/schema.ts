import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/** Quotes (`qt_`): drafts, then numbered in their own series, sent, accepted, refused, expired or converted. */
export const quotes = pgTable(
  'quotes',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    number: text('number'),
    status: text('status').notNull(),
    customerId: text('customer_id'),
    buyer: jsonb('buyer').$type<Record<string, unknown> | null>(),
    currency: text('currency').notNull(),
    lines: jsonb('lines').$type<Record<string, unknown>[]>().notNull(),
    subtotal: bigint('subtotal', { mode: 'number' }).notNull(),
    issueDate: text('issue_date'),
    validUntil: text('valid_until'),
    notes: text('notes'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    /** The draft invoice this quote was converted into. */
    invoiceId: text('invoice_id'),
    /** The instant the validity date has passed: the expiry pass looks at it. */
    expiresAt: instant('expires_at'),
    finalizedAt: instant('finalized_at'),
    sentAt: instant('sent_at'),
    decidedAt: instant('decided_at'),
    /** The secret of the quote's public page, given at finalization. */
    viewToken: text('view_token'),
    /** The first time the customer opened the page of the sent quote (`quote.viewed`). */
    viewedAt: instant('viewed_at'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('quotes_list').on(t.companyId, t.livemode, t.id),
    uniqueIndex('quotes_number')
      .on(t.companyId, t.livemode, t.number)
      .where(sql`number is not null`),
    index('quotes_expiry')
      .on(t.expiresAt)
      .where(sql`status in ('finalized', 'sent')`),
    uniqueIndex('quotes_view_token')
      .on(t.viewToken)
      .where(sql`view_token is not null`),
  ],
);
