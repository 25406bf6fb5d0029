import { eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
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

export async function deleteScopeRefunds(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(refunds).where(inScope(refunds, scope)).returning({ id: refunds.id });
  return rows.length;
}

/** The scope's refunds in id order after `after`: the data-protection export. */
export async function refundRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, refunds, scope, after, limit);
}
