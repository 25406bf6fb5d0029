import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { dueOnScopeClock, sandboxOffsetMs } from '../db/sandbox-clock.js';
import { quotes } from './schema.js';

export type QuoteRow = typeof quotes.$inferSelect;

export async function insertQuotes(db: Executor, rows: QuoteRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(quotes).values(rows);
}

export async function findQuote(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<QuoteRow | undefined> {
  const query = db
    .select()
    .from(quotes)
    .where(and(inScope(quotes, scope), eq(quotes.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateQuote(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<QuoteRow>,
): Promise<QuoteRow> {
  const [row] = await db
    .update(quotes)
    .set(changes)
    .where(and(inScope(quotes, scope), eq(quotes.id, id)))
    .returning();
  if (!row) throw new Error(`quote ${id} vanished under its lock`);
  return row;
}

export async function pageQuotes(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  filters: { status?: string | undefined; customerId?: string | undefined },
): Promise<QuoteRow[]> {
  const where = and(
    filters.status !== undefined ? eq(quotes.status, filters.status) : undefined,
    filters.customerId !== undefined ? eq(quotes.customerId, filters.customerId) : undefined,
  );
  return keysetPage(db, quotes, scope, page, { where });
}

/** Open quotes past their validity date, locked for this pass, with their company's sandbox offset. */
export async function claimExpired(
  tx: Executor,
  now: Date,
  limit: number,
  companyIds?: string[],
): Promise<{ row: QuoteRow; sandboxClockOffsetMs: number }[]> {
  if (companyIds && companyIds.length === 0) return [];
  const rows = await tx
    .select({ row: quotes, offset: sandboxOffsetMs(quotes) })
    .from(quotes)
    .where(
      and(
        inArray(quotes.status, ['finalized', 'sent']),
        dueOnScopeClock(quotes.expiresAt, quotes, now),
        companyIds ? inArray(quotes.companyId, companyIds) : undefined,
      ),
    )
    .orderBy(quotes.expiresAt)
    .limit(limit)
    .for('update', { of: quotes, skipLocked: true });
  return rows.map(({ row, offset }) => ({ row, sandboxClockOffsetMs: Number(offset) }));
}

/** The quote behind a public page's token (any company), locked, with its company's sandbox offset. */
export async function findQuoteByViewToken(
  tx: Executor,
  token: string,
): Promise<{ row: QuoteRow; sandboxClockOffsetMs: number } | undefined> {
  const [found] = await tx
    .select({ row: quotes, offset: sandboxOffsetMs(quotes) })
    .from(quotes)
    .where(eq(quotes.viewToken, token))
    .limit(1)
    .for('update', { of: quotes });
  return found && { row: found.row, sandboxClockOffsetMs: Number(found.offset) };
}

export async function deleteScopeQuotes(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(quotes).where(inScope(quotes, scope)).returning({ id: quotes.id });
  return rows.length;
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function quoteRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, quotes, scope, after, limit);
}
