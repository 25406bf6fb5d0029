import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { dayOf } from '../kernel/calendar.js';
import { checkMetadata } from '../kernel/metadata.js';
import type { PlanName } from '../kernel/plans.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import {
  documentLines,
  documentParty,
  listDocuments,
  type BuyerInput,
  type DocumentResource,
  type Party,
} from '../invoices/service.js';
import {
  checkModeAllowed,
  checkSchedule,
  checkStartDate,
  type Mode,
  type RecurringCreate,
  type RecurringUpdate,
} from './recurring-input.js';
import { scheduleOf, toRecurringInvoice, type RecurringInvoice, type RecurringStatus } from './recurring-record.js';
import { nextPeriod, runAt, type Schedule } from './schedule.js';
import {
  deleteScopeRecurring,
  findRecurring,
  insertRecurring,
  pageRecurring,
  updateRecurring,
  type RecurringRow,
} from './store.js';

/**
 * Recurring invoices: a template of invoice and a schedule. The runs themselves (a draft, or a
 * finalized and possibly sent invoice, each period) are in runs.ts.
 */

export type { RecurringInvoice } from './recurring-record.js';

function notFound(id: string): ApiError {
  return refuse('not_found', `No recurring invoice ${id}.`, { param: 'id' });
}

/** Where the schedule stands: its next period after the last one run, never before today. */
function scheduled(
  schedule: Schedule,
  lastPeriod: string | null,
  today: string,
): Pick<RecurringRow, 'nextPeriod' | 'nextRunAt'> {
  const next = nextPeriod(schedule, { after: lastPeriod, notBefore: today });
  return { nextPeriod: next?.period ?? null, nextRunAt: next ? runAt(next.period) : null };
}

/**
 * Checks the buyer and lines as an invoice would (customer, products), before any transaction;
 * returns the buyer as checked (an inline one is kept so).
 */
async function checkTemplate(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  template: Pick<RecurringRow, 'customerId' | 'lines' | 'metadata'> & { buyer: BuyerInput | null },
): Promise<Party> {
  const party = await documentParty(deps, scope, template.customerId, template.buyer);
  await documentLines(deps, scope, template.lines);
  checkMetadata(template.metadata);
  return party;
}

export async function createRecurringInvoice(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  plan: PlanName,
  input: RecurringCreate,
): Promise<RecurringInvoice> {
  const today = dayOf(ctx.now);
  const mode: Mode = input.mode ?? 'draft';
  checkModeAllowed(mode, plan);
  const startDate = input.startDate ?? today;
  checkStartDate(startDate, today);
  const schedule: Schedule = {
    interval: input.interval,
    dayOfMonth: input.dayOfMonth ?? Number(startDate.slice(8, 10)),
    startDate,
    endDate: input.endDate ?? null,
    count: input.count ?? null,
  };
  const autoSend = input.autoSend ?? false;
  checkSchedule(schedule, mode, autoSend);
  const template = {
    customerId: input.customerId ?? null,
    buyer: input.buyer ?? null,
    lines: input.lines,
    metadata: input.metadata ?? {},
  };
  const party = await checkTemplate(deps, ctx.scope, template);
  const row: RecurringRow = {
    ...ctx.scope,
    id: newId('recurringInvoice', ctx.now),
    status: 'active',
    ...template,
    ...party,
    taxSource: input.taxSource ?? 'service',
    currency: input.currency ?? 'EUR',
    paymentTermsDays: input.paymentTermsDays ?? null,
    paymentTerms: input.paymentTerms ?? null,
    notes: input.notes ?? null,
    ...schedule,
    mode,
    autoSend,
    ...scheduled(schedule, null, today),
    lastPeriod: null,
    lastRun: null,
    invoicesGenerated: 0,
    runsFailed: 0,
    pausedAt: null,
    cancelledAt: null,
    created: ctx.now,
    updated: ctx.now,
  };
  await inTransaction(deps.db, ctx, (tx) => insertRecurring(tx, row));
  return toRecurringInvoice(row);
}

export async function getRecurringInvoice(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<RecurringInvoice> {
  const row = await findRecurring(deps.db, scope, id);
  if (!row) throw notFound(id);
  return toRecurringInvoice(row);
}

export async function listRecurringInvoices(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  filters: { status?: string | undefined; customerId?: string | undefined },
): Promise<ListEnvelope<RecurringInvoice>> {
  const rows = await pageRecurring(deps.db, scope, page, filters);
  return toListEnvelope(rows, page, '/v1/recurring-invoices', (row) => row.id, toRecurringInvoice);
}

function cancelledRefusal(row: RecurringRow, what: string): ApiError {
  return refuse('invalid_status_transition', `Recurring invoice ${row.id} is cancelled: it cannot be ${what}.`, {
    param: 'id',
  });
}

/**
 * Updates a recurring invoice that is not cancelled. Absent fields are kept, null clears; the
 * next run is placed again after the last one run (never before today). A completed one whose
 * new schedule has runs left is active again.
 */
export async function updateRecurringInvoice(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  plan: PlanName,
  id: string,
  input: RecurringUpdate,
): Promise<RecurringInvoice> {
  const today = dayOf(ctx.now);
  const current = await findRecurring(deps.db, ctx.scope, id);
  if (!current) throw notFound(id);
  if (current.status === 'cancelled') throw cancelledRefusal(current, 'updated');
  const merged = merge(current, input);
  if (input.mode !== undefined) checkModeAllowed(merged.mode, plan);
  if (input.startDate !== undefined && input.startDate !== current.startDate) checkStartDate(input.startDate, today);
  checkSchedule(scheduleOf(merged), merged.mode as Mode, merged.autoSend);
  const party = await checkTemplate(deps, ctx.scope, {
    ...merged,
    // `customerId` and `buyer` replace each other.
    buyer:
      input.buyer !== undefined
        ? input.buyer
        : input.customerId !== undefined
          ? null
          : (current.buyer as BuyerInput | null),
  });
  const row = await inTransaction(deps.db, ctx, async (tx) => {
    const locked = await findRecurring(tx, ctx.scope, id, true);
    if (!locked) throw notFound(id);
    if (locked.status === 'cancelled') throw cancelledRefusal(locked, 'updated');
    const again = { ...merge(locked, input), ...party };
    const placed = scheduled(scheduleOf(again), locked.lastPeriod, today);
    const status: RecurringStatus =
      locked.status === 'paused' ? 'paused' : placed.nextPeriod === null ? 'completed' : 'active';
    return updateRecurring(tx, ctx.scope, id, {
      ...again,
      status,
      // A paused one has no next run until it is resumed.
      ...(status === 'paused' ? { nextPeriod: null, nextRunAt: null } : placed),
      updated: ctx.now,
    });
  });
  return toRecurringInvoice(row);
}

const updatable = [
  'taxSource',
  'currency',
  'paymentTermsDays',
  'paymentTerms',
  'notes',
  'metadata',
  'interval',
  'dayOfMonth',
  'startDate',
  'endDate',
  'count',
  'mode',
  'autoSend',
  'lines',
] as const;

function merge(row: RecurringRow, input: RecurringUpdate): RecurringRow {
  const next: RecurringRow = { ...row };
  for (const field of updatable) {
    const value = input[field];
    if (value === undefined) continue;
    if (value === null && (field === 'taxSource' || field === 'currency' || field === 'metadata')) continue;
    (next as Record<string, unknown>)[field] = value;
  }
  // The buyer (checked) is set by the caller.
  if (input.customerId !== undefined || input.buyer !== undefined) next.customerId = input.customerId ?? null;
  return next;
}

/** Pause, resume or cancel. Periods that fall while paused are skipped, not made up on resume. */
export async function moveRecurringInvoice(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
  move: 'pause' | 'resume' | 'cancel',
): Promise<RecurringInvoice> {
  const today = dayOf(ctx.now);
  const row = await inTransaction(deps.db, ctx, async (tx) => {
    const current = await findRecurring(tx, ctx.scope, id, true);
    if (!current) throw notFound(id);
    const status = current.status as RecurringStatus;
    if (status === 'cancelled') throw cancelledRefusal(current, move === 'cancel' ? 'cancelled again' : `${move}d`);
    if (move === 'cancel')
      return updateRecurring(tx, ctx.scope, id, {
        status: 'cancelled',
        nextPeriod: null,
        nextRunAt: null,
        cancelledAt: ctx.now,
        updated: ctx.now,
      });
    if (move === 'pause') {
      if (status !== 'active')
        throw refuse('invalid_status_transition', `Recurring invoice ${id} is ${status}: only an active one pauses.`, {
          param: 'id',
        });
      return updateRecurring(tx, ctx.scope, id, {
        status: 'paused',
        nextPeriod: null,
        nextRunAt: null,
        pausedAt: ctx.now,
        updated: ctx.now,
      });
    }
    if (status !== 'paused')
      throw refuse('invalid_status_transition', `Recurring invoice ${id} is ${status}: only a paused one resumes.`, {
        param: 'id',
      });
    const placed = scheduled(scheduleOf(current), current.lastPeriod, today);
    return updateRecurring(tx, ctx.scope, id, {
      status: placed.nextPeriod === null ? 'completed' : 'active',
      ...placed,
      pausedAt: null,
      updated: ctx.now,
    });
  });
  return toRecurringInvoice(row);
}

/** `GET /v1/recurring-invoices/:id/invoices`: the invoices it generated, newest first. */
export async function listGeneratedInvoices(
  deps: Pick<Deps, 'db' | 'config'>,
  scope: Scope,
  id: string,
  page: PageRequest,
): Promise<ListEnvelope<DocumentResource>> {
  if (!(await findRecurring(deps.db, scope, id))) throw notFound(id);
  return listDocuments(
    deps,
    scope,
    'invoice',
    page,
    { recurringInvoiceId: id },
    `/v1/recurring-invoices/${id}/invoices`,
  );
}

/** Sandbox reset: every test recurring invoice goes, with its runs. */
export async function purgeTestRecurring(tx: Executor, scope: Scope): Promise<Record<string, number>> {
  if (scope.livemode) throw new Error('refusing to purge live recurring invoices');
  const { templates, runs } = await deleteScopeRecurring(tx, scope);
  return { recurringInvoices: templates, recurringInvoiceRuns: runs };
}
