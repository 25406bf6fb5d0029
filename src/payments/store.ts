import { and, eq, inArray, sql } from 'drizzle-orm';
import { sandboxOffsetMs } from '../db/sandbox-clock.js';
import type { Executor } from '../db/database.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { payments } from './schema.js';

export type PaymentRow = typeof payments.$inferSelect;

export async function insertPayments(db: Executor, rows: PaymentRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(payments).values(rows);
}

export async function findPayment(db: Executor, scope: Scope, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(inScope(payments, scope), eq(payments.id, id)))
    .limit(1);
  return row;
}

/** The payment a card provider recorded under its own reference (Stripe's PaymentIntent). */
export async function findProviderPayment(
  db: Executor,
  scope: Scope,
  recordedBy: string,
  reference: string,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(inScope(payments, scope), eq(payments.recordedBy, recordedBy), eq(payments.reference, reference)))
    .limit(1);
  return row;
}

export async function pagePayments(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  filters: { invoiceId?: string | undefined },
): Promise<PaymentRow[]> {
  const where = filters.invoiceId !== undefined ? eq(payments.invoiceId, filters.invoiceId) : undefined;
  // A cursor must be a payment of the same list: of that invoice when the list is an invoice's.
  return keysetPage(db, payments, scope, page, { where, visible: where });
}

export async function deleteScopePayments(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(payments).where(inScope(payments, scope)).returning({ id: payments.id });
  return rows.length;
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function paymentRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, payments, scope, after, limit);
}

export async function updatePaymentFr212(
  db: Executor,
  scope: Scope,
  id: string,
  fr212: PaymentRow['fr212'],
): Promise<void> {
  await db
    .update(payments)
    .set({ fr212 })
    .where(and(inScope(payments, scope), eq(payments.id, id)));
}

/** Statements not sent that wait on their invoice, or are due to the platform (a failed one included). */
const statementsOf = {
  waiting: sql`${payments.fr212} is not null and ${payments.fr212}->>'sentAt' is null
    and ${payments.fr212}->>'lastErrorCode' in ('awaiting_pa_deposit', 'pa_lifecycle_not_ready')`,
  due: sql`${payments.fr212} is not null and ${payments.fr212}->>'sentAt' is null and ${payments.fr212}->>'state' = 'pending'
    and coalesce(${payments.fr212}->>'lastErrorCode', '') not in ('awaiting_pa_deposit', 'pa_lifecycle_not_ready')`,
};

/**
 * Payments whose statement (fr212) waits on its invoice, or is due to the platform, locked for
 * this pass (others skip them: each is moved or sent by one worker), with their company's sandbox
 * clock offset. Whether a failed one is due again is the caller's (collection-statement.ts).
 */
export async function claimStatements(
  tx: Executor,
  which: keyof typeof statementsOf,
  limit: number,
  after: string | null,
  companyIds?: string[],
): Promise<{ row: PaymentRow; sandboxClockOffsetMs: number }[]> {
  if (companyIds && companyIds.length === 0) return [];
  const rows = await tx
    .select({ row: payments, offset: sandboxOffsetMs(payments) })
    .from(payments)
    .where(
      and(
        statementsOf[which],
        after ? sql`${payments.id} > ${after}` : undefined,
        companyIds ? inArray(payments.companyId, companyIds) : undefined,
      ),
    )
    .orderBy(payments.id)
    .limit(limit)
    .for('update', { of: payments, skipLocked: true });
  return rows.map(({ row, offset }) => ({ row, sandboxClockOffsetMs: Number(offset) }));
}

/** A payment locked for the change of its statement (the outbox's outcome of it). */
export async function lockPayment(tx: Executor, scope: Scope, id: string): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(inScope(payments, scope), eq(payments.id, id)))
    .for('update');
  return row;
}
