import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { sandboxOffsetMs } from '../db/sandbox-clock.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { refunds } from './schema.js';

export type RefundRow = typeof refunds.$inferSelect;

export async function insertRefund(db: Executor, row: RefundRow): Promise<void> {
  await db.insert(refunds).values(row);
}

export async function pageRefunds(
  db: Executor,
  scope: Scope,
  creditNoteId: string,
  page: PageRequest,
): Promise<RefundRow[]> {
  const where = eq(refunds.creditNoteId, creditNoteId);
  return keysetPage(db, refunds, scope, page, { where, visible: where });
}

/** Cents refunded on `invoiceId` under `reference` (a card provider's payment), all refunds together. */
export async function refundedWithReference(
  db: Executor,
  scope: Scope,
  invoiceId: string,
  reference: string,
): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${refunds.amount}), 0)` })
    .from(refunds)
    .where(and(inScope(refunds, scope), eq(refunds.invoiceId, invoiceId), eq(refunds.reference, reference)));
  return Number(row?.total ?? 0);
}

export async function deleteScopeRefunds(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(refunds).where(inScope(refunds, scope)).returning({ id: refunds.id });
  return rows.length;
}

/** The scope's refunds in id order after `after`: the data-protection export. */
export async function refundRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, refunds, scope, after, limit);
}

export async function updateRefundFr212(
  db: Executor,
  scope: Scope,
  id: string,
  fr212: RefundRow['fr212'],
): Promise<void> {
  await db
    .update(refunds)
    .set({ fr212 })
    .where(and(inScope(refunds, scope), eq(refunds.id, id)));
}

/** Refund statements not sent that wait on their invoice, or are due to the platform (as the payments'). */
/** The states a refund's statement is claimed in. */
export type RefundStatementState = keyof typeof statementsOf;

const statementsOf = {
  waiting: sql`${refunds.fr212} is not null and ${refunds.fr212}->>'sentAt' is null
    and ${refunds.fr212}->>'lastErrorCode' in ('awaiting_pa_deposit', 'pa_lifecycle_not_ready')`,
  due: sql`${refunds.fr212} is not null and ${refunds.fr212}->>'sentAt' is null and ${refunds.fr212}->>'state' = 'pending'
    and coalesce(${refunds.fr212}->>'lastErrorCode', '') not in ('awaiting_pa_deposit', 'pa_lifecycle_not_ready')`,
};

/**
 * Refunds whose negative statement (fr212) waits on its invoice, or is due to the platform, locked
 * for the caller's pass (`FOR UPDATE SKIP LOCKED`), with their company's sandbox clock offset.
 */
export async function claimRefundStatements(
  tx: Executor,
  which: RefundStatementState,
  limit: number,
  after: string | null,
  companyIds?: readonly string[],
): Promise<{ row: RefundRow; sandboxClockOffsetMs: number }[]> {
  if (companyIds && companyIds.length === 0) return [];
  const rows = await tx
    .select({ row: refunds, offset: sandboxOffsetMs(refunds) })
    .from(refunds)
    .where(
      and(
        statementsOf[which],
        after ? sql`${refunds.id} > ${after}` : undefined,
        companyIds ? inArray(refunds.companyId, [...companyIds]) : undefined,
      ),
    )
    .orderBy(refunds.id)
    .limit(limit)
    .for('update', { of: refunds, skipLocked: true });
  return rows.map(({ row, offset }) => ({ row, sandboxClockOffsetMs: Number(offset) }));
}

/** A refund locked for the change of its statement (the outbox's outcome of it). */
export async function lockRefund(tx: Executor, scope: Scope, id: string): Promise<RefundRow | undefined> {
  const [row] = await tx
    .select()
    .from(refunds)
    .where(and(inScope(refunds, scope), eq(refunds.id, id)))
    .for('update');
  return row;
}
