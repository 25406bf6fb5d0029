import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/** Payments recorded on invoices (`pay_`): money in, in cents. */
export const payments = pgTable(
  'payments',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    invoiceId: text('invoice_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /** `transfer`, `card`, `cash`, `check`, `direct_debit`, `other`. */
    method: text('method').notNull(),
    reference: text('reference'),
    paidAt: instant('paid_at').notNull(),
    /** Who recorded it: `api` (the card provider's collections come later). */
    recordedBy: text('recorded_by').notNull(),
    /** The collection state of the payment statement (e-reporting); null until that capability fills it. */
    fr212: jsonb('fr212').$type<Record<string, unknown> | null>(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    created: instant('created').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('payments_list').on(t.companyId, t.livemode, t.id),
    index('payments_by_invoice').on(t.companyId, t.livemode, t.invoiceId, t.id),
    // A card provider's refund finds its payment by the provider's reference (card-payments).
    index('payments_by_provider_reference')
      .on(t.companyId, t.livemode, t.reference)
      .where(sql`recorded_by <> 'api'`),
    // The accounting exports read the period's payments in the order of the books.
    index('payments_accounting').on(t.companyId, t.livemode, t.paidAt, t.id),
    // The statements pass reads the statements not sent yet: few, among every payment ever made.
    index('payments_statements_open')
      .on(t.id)
      .where(sql`${t.fr212} is not null and ${t.fr212}->>'sentAt' is null`),
  ],
);
