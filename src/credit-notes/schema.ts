import { bigint, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/** Refunds of credit notes (`ref_`): money given back to the buyer, in cents. */
export const refunds = pgTable(
  'refunds',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    creditNoteId: text('credit_note_id').notNull(),
    invoiceId: text('invoice_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    method: text('method').notNull(),
    reference: text('reference'),
    refundedAt: instant('refunded_at').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    created: instant('created').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('refunds_by_credit_note').on(t.companyId, t.livemode, t.creditNoteId, t.id),
  ],
);
