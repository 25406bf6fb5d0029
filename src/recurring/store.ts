import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { keysetPage } from '../db/keyset.js';
import { claimLeased } from '../db/leased-claim.js';
import { inScope, type Scope } from '../db/scope.js';
import { dueOnScopeClock, sandboxOffsetMs } from '../db/sandbox-clock.js';
import type { PageRequest } from '../kernel/pagination.js';
import { recurringInvoiceRuns, recurringInvoices } from './schema.js';

export type RecurringRow = typeof recurringInvoices.$inferSelect;
export type RunRow = typeof recurringInvoiceRuns.$inferSelect;

/** A run's key: one per recurring invoice and period. */
export interface RunKey {
  companyId: string;
  livemode: boolean;
  recurringInvoiceId: string;
  period: string;
}

export async function insertRecurring(db: Executor, row: RecurringRow): Promise<void> {
  await db.insert(recurringInvoices).values(row);
}

export async function findRecurring(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<RecurringRow | undefined> {
  const query = db
    .select()
    .from(recurringInvoices)
    .where(and(inScope(recurringInvoices, scope), eq(recurringInvoices.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateRecurring(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<RecurringRow>,
): Promise<RecurringRow> {
  const [row] = await db
    .update(recurringInvoices)
    .set(changes)
    .where(and(inScope(recurringInvoices, scope), eq(recurringInvoices.id, id)))
    .returning();
  if (!row) throw new Error(`recurring invoice ${id} vanished under its lock`);
  return row;
}

export async function pageRecurring(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  filters: { status?: string | undefined; customerId?: string | undefined },
): Promise<RecurringRow[]> {
  const where = and(
    filters.status !== undefined ? eq(recurringInvoices.status, filters.status) : undefined,
    filters.customerId !== undefined ? eq(recurringInvoices.customerId, filters.customerId) : undefined,
  );
  return keysetPage(db, recurringInvoices, scope, page, { where });
}

/** The scope's recurring invoices in the order of their id (the data-protection export). */
export async function recurringRowsAfter(
  db: Executor,
  scope: Scope,
  after: string | null,
  limit: number,
): Promise<RecurringRow[]> {
  return db
    .select()
    .from(recurringInvoices)
    .where(and(inScope(recurringInvoices, scope), after === null ? undefined : gt(recurringInvoices.id, after)))
    .orderBy(asc(recurringInvoices.id))
    .limit(limit);
}

/**
 * One active recurring invoice whose next run is due (on its company's sandbox clock when it is a
 * test one), locked for this run: another worker skips it, and finds it no longer due once this
 * run commits.
 */
export async function claimDueRecurring(
  tx: Executor,
  now: Date,
  companyIds?: string[],
): Promise<{ row: RecurringRow; sandboxClockOffsetMs: number } | undefined> {
  if (companyIds && companyIds.length === 0) return undefined;
  const r = recurringInvoices;
  const [found] = await tx
    .select({ row: r, offset: sandboxOffsetMs(r) })
    .from(r)
    .where(
      and(
        eq(r.status, 'active'),
        sql`${r.nextRunAt} is not null`,
        dueOnScopeClock(r.nextRunAt, r, now),
        companyIds ? inArray(r.companyId, companyIds) : undefined,
      ),
    )
    .orderBy(r.nextRunAt)
    .limit(1)
    .for('update', { of: r, skipLocked: true });
  return found && { row: found.row, sandboxClockOffsetMs: Number(found.offset) };
}

/** The run of a period, unless that period already has one (then nothing is written: undefined). */
export async function insertRun(db: Executor, row: RunRow): Promise<RunRow | undefined> {
  const [inserted] = await db.insert(recurringInvoiceRuns).values(row).onConflictDoNothing().returning();
  return inserted;
}

const ofRun = (key: RunKey) =>
  and(
    eq(recurringInvoiceRuns.companyId, key.companyId),
    eq(recurringInvoiceRuns.livemode, key.livemode),
    eq(recurringInvoiceRuns.recurringInvoiceId, key.recurringInvoiceId),
    eq(recurringInvoiceRuns.period, key.period),
  );

export async function findRun(db: Executor, key: RunKey): Promise<RunRow | undefined> {
  const [row] = await db.select().from(recurringInvoiceRuns).where(ofRun(key)).limit(1);
  return row;
}

/**
 * Moves a run forward only while `token` holds its lease: a worker whose lease lapsed (another
 * took the run over) changes nothing. Undefined when the lease is lost.
 */
export async function updateLeasedRun(
  db: Executor,
  key: RunKey,
  token: string,
  changes: Partial<RunRow>,
): Promise<RunRow | undefined> {
  const [row] = await db
    .update(recurringInvoiceRuns)
    .set(changes)
    .where(and(ofRun(key), eq(recurringInvoiceRuns.lockToken, token)))
    .returning();
  return row;
}

/** Runs left unsettled by a worker that died (their lease lapsed), leased to `token`. */
export async function claimUnsettledRuns(
  db: Executor,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
  companyIds?: string[],
): Promise<RunKey[]> {
  const rows = await claimLeased(
    db,
    {
      table: 'recurring_invoice_runs',
      key: ['company_id', 'recurring_invoice_id', 'period'],
      due: sql`t.status in ('pending', 'finalized')`,
      order: sql`t.locked_until nulls first`,
      returning: sql`t.company_id, t.livemode, t.recurring_invoice_id, t.period`,
      companyIds,
    },
    lease,
  );
  return rows.map((row) => ({
    companyId: String(row.company_id),
    livemode: Boolean(row.livemode),
    recurringInvoiceId: String(row.recurring_invoice_id),
    period: String(row.period),
  }));
}

export async function deleteScopeRecurring(db: Executor, scope: Scope): Promise<{ templates: number; runs: number }> {
  const runs = await db
    .delete(recurringInvoiceRuns)
    .where(inScope(recurringInvoiceRuns, scope))
    .returning({ period: recurringInvoiceRuns.period });
  const templates = await db
    .delete(recurringInvoices)
    .where(inScope(recurringInvoices, scope))
    .returning({ id: recurringInvoices.id });
  return { templates: templates.length, runs: runs.length };
}
