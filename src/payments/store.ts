import { and, eq } from 'drizzle-orm';
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
