import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';
import type { BuyerSnapshot, LineInput } from '../invoices/service.js';

/** What the last run of a recurring invoice left, shown on the resource. */
export interface LastRun {
  period: string;
  status: string;
  invoiceId: string | null;
  error: { code: string; message: string } | null;
}

/**
 * Recurring invoices (`rinv_`): a template of invoice (buyer, lines, tax source, terms, notes)
 * and its schedule. `nextPeriod` is the scheduled date of the next run, due at its 00:00 UTC
 * (`nextRunAt`, on the sandbox clock for test templates).
 */
export const recurringInvoices = pgTable(
  'recurring_invoices',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    /** `active`, `paused`, `cancelled` or `completed` (the schedule has no run left). */
    status: text('status').notNull(),
    customerId: text('customer_id'),
    /** The inline buyer, as checked at creation (and again at each run, like an invoice's). */
    buyer: jsonb('buyer').$type<BuyerSnapshot | null>(),
    /** The lines as given: products are read at each run, so a new price applies to the next invoices. */
    lines: jsonb('lines').$type<LineInput[]>().notNull(),
    taxSource: text('tax_source').notNull(),
    currency: text('currency').notNull(),
    paymentTermsDays: integer('payment_terms_days'),
    paymentTerms: text('payment_terms'),
    notes: text('notes'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    /** `monthly`, `quarterly` or `yearly`. */
    interval: text('interval').notNull(),
    dayOfMonth: integer('day_of_month').notNull(),
    startDate: text('start_date').notNull(),
    endDate: text('end_date'),
    count: integer('count'),
    /** `draft` or `auto_finalize`. */
    mode: text('mode').notNull(),
    autoSend: boolean('auto_send').notNull(),
    nextPeriod: text('next_period'),
    nextRunAt: instant('next_run_at'),
    /** The last period run (generated or failed): the schedule goes on after it. */
    lastPeriod: text('last_period'),
    lastRun: jsonb('last_run').$type<LastRun | null>(),
    invoicesGenerated: integer('invoices_generated').notNull(),
    runsFailed: integer('runs_failed').notNull(),
    pausedAt: instant('paused_at'),
    cancelledAt: instant('cancelled_at'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('recurring_invoices_list').on(t.companyId, t.livemode, t.id),
    index('recurring_invoices_due')
      .on(t.nextRunAt)
      .where(sql`status = 'active'`),
  ],
);

/**
 * One row per recurring invoice and period: the key that makes a run happen once, whatever the
 * number of workers or crashes. A run in `pending` (its draft made, the finalization to do) or
 * `finalized` (the sending to do) is leased to the worker completing it; one whose worker died
 * is completed by another once the lease lapses.
 */
export const recurringInvoiceRuns = pgTable(
  'recurring_invoice_runs',
  {
    ...tenantColumns(),
    recurringInvoiceId: text('recurring_invoice_id').notNull(),
    /** The scheduled date (`YYYY-MM-DD`). */
    period: text('period').notNull(),
    /** `pending`, `finalized`, `generated` or `failed`. */
    status: text('status').notNull(),
    invoiceId: text('invoice_id'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    lockedUntil: instant('locked_until'),
    lockToken: text('lock_token'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.recurringInvoiceId, t.period] }),
    index('recurring_invoice_runs_unsettled')
      .on(t.lockedUntil)
      .where(sql`status in ('pending', 'finalized')`),
  ],
);
