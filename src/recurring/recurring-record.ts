import type { BuyerSnapshot, LineInput } from '../invoices/service.js';
import { shownBuyer } from '../invoices/service.js';
import type { LastRun } from './schema.js';
import type { Interval, Schedule } from './schedule.js';
import type { Mode } from './recurring-input.js';
import type { RecurringRow } from './store.js';

/** The recurring invoice as the API shows it, and the data of its events. */

export const recurringStatuses = ['active', 'paused', 'cancelled', 'completed'] as const;
export type RecurringStatus = (typeof recurringStatuses)[number];

export interface RecurringInvoice {
  id: string;
  object: 'recurring_invoice';
  livemode: boolean;
  status: RecurringStatus;
  customerId: string | null;
  buyer: BuyerSnapshot | null;
  lines: LineInput[];
  taxSource: 'service' | 'integration';
  currency: string;
  paymentTermsDays: number | null;
  paymentTerms: string | null;
  notes: string | null;
  metadata: Record<string, unknown>;
  interval: Interval;
  dayOfMonth: number;
  startDate: string;
  endDate: string | null;
  count: number | null;
  mode: Mode;
  autoSend: boolean;
  nextPeriod: string | null;
  nextRunAt: string | null;
  lastRun: LastRun | null;
  invoicesGenerated: number;
  runsFailed: number;
  pausedAt: string | null;
  cancelledAt: string | null;
  created: string;
  updated: string;
}

export function scheduleOf(
  row: Pick<RecurringRow, 'interval' | 'dayOfMonth' | 'startDate' | 'endDate' | 'count'>,
): Schedule {
  return {
    interval: row.interval as Interval,
    dayOfMonth: row.dayOfMonth,
    startDate: row.startDate,
    endDate: row.endDate,
    count: row.count,
  };
}

export function toRecurringInvoice(row: RecurringRow): RecurringInvoice {
  return {
    id: row.id,
    object: 'recurring_invoice',
    livemode: row.livemode,
    status: row.status as RecurringStatus,
    customerId: row.customerId,
    buyer: shownBuyer(row.buyer ?? null),
    lines: row.lines,
    taxSource: row.taxSource as 'service' | 'integration',
    currency: row.currency,
    paymentTermsDays: row.paymentTermsDays,
    paymentTerms: row.paymentTerms,
    notes: row.notes,
    metadata: row.metadata,
    ...scheduleOf(row),
    mode: row.mode as Mode,
    autoSend: row.autoSend,
    nextPeriod: row.nextPeriod,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    lastRun: row.lastRun ?? null,
    invoicesGenerated: row.invoicesGenerated,
    runsFailed: row.runsFailed,
    pausedAt: row.pausedAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

/** `recurring_invoice.generated` (contract's family: `id` the invoice, `object`, `recurringInvoiceId`, `livemode`). */
export function generatedEventData(row: RecurringRow, invoiceId: string, period: string): Record<string, unknown> {
  return { id: invoiceId, object: 'invoice', recurringInvoiceId: row.id, livemode: row.livemode, period };
}

/**
 * `recurring_invoice.failed` (contract's family: `id`, `object`, `error` as a string): the
 * refusal's code and message, and where the schedule goes on (`nextRunAt`).
 */
export function failedEventData(
  row: RecurringRow,
  failure: { code: string; message: string },
  period: string,
  invoiceId: string | null,
): Record<string, unknown> {
  return {
    id: row.id,
    object: 'recurring_invoice',
    livemode: row.livemode,
    error: `${failure.code}: ${failure.message}`,
    errorCode: failure.code,
    period,
    invoiceId,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
  };
}
