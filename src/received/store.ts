import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { receivedInvoiceFiles, receivedInvoiceHistory, receivedInvoices } from './schema.js';
import type { HistoryRow, ReceivedRow } from './received-record.js';

export type FileRow = typeof receivedInvoiceFiles.$inferSelect;

/**
 * Inserts the invoice unless its flow is already there (the unique flow key): true when this call
 * made it, false when an earlier push or poll had.
 */
export async function insertReceivedOnce(db: Executor, row: ReceivedRow): Promise<boolean> {
  const inserted = await db
    .insert(receivedInvoices)
    .values(row)
    .onConflictDoNothing({ target: [receivedInvoices.companyId, receivedInvoices.livemode, receivedInvoices.flowId] })
    .returning({ id: receivedInvoices.id });
  return inserted.length > 0;
}

export async function findReceivedByFlow(db: Executor, scope: Scope, flowId: string): Promise<ReceivedRow | undefined> {
  const [row] = await db
    .select()
    .from(receivedInvoices)
    .where(and(inScope(receivedInvoices, scope), eq(receivedInvoices.flowId, flowId)))
    .limit(1);
  return row;
}

export async function findReceived(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<ReceivedRow | undefined> {
  const query = db
    .select()
    .from(receivedInvoices)
    .where(and(inScope(receivedInvoices, scope), eq(receivedInvoices.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateReceived(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<ReceivedRow>,
): Promise<ReceivedRow> {
  const [row] = await db
    .update(receivedInvoices)
    .set(changes)
    .where(and(inScope(receivedInvoices, scope), eq(receivedInvoices.id, id)))
    .returning();
  if (!row) throw new Error(`received invoice ${id} vanished under its lock`);
  return row;
}

export interface ReceivedFilters {
  senderSiret?: string | undefined;
  status?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

export async function pageReceived(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  filters: ReceivedFilters,
): Promise<ReceivedRow[]> {
  const r = receivedInvoices;
  const where = and(
    filters.senderSiret !== undefined ? eq(r.senderSiret, filters.senderSiret) : undefined,
    filters.status !== undefined ? eq(r.status, filters.status) : undefined,
    filters.dateFrom !== undefined ? gte(r.issueDate, filters.dateFrom) : undefined,
    filters.dateTo !== undefined ? lte(r.issueDate, filters.dateTo) : undefined,
  );
  return keysetPage(db, r, scope, page, { where });
}

/** True when this call stored it (false: the invoice had this file already). */
export async function insertFile(db: Executor, row: FileRow): Promise<boolean> {
  const inserted = await db
    .insert(receivedInvoiceFiles)
    .values(row)
    .onConflictDoNothing()
    .returning({ kind: receivedInvoiceFiles.kind });
  return inserted.length > 0;
}

export async function findFile(
  db: Executor,
  scope: Scope,
  receivedInvoiceId: string,
  kind: 'original' | 'pdf',
): Promise<FileRow | undefined> {
  const f = receivedInvoiceFiles;
  const [row] = await db
    .select()
    .from(f)
    .where(and(inScope(f, scope), eq(f.receivedInvoiceId, receivedInvoiceId), eq(f.kind, kind)))
    .limit(1);
  return row;
}

/** Appends a status to the history, numbered after the last one. */
export async function appendHistory(db: Executor, row: Omit<HistoryRow, 'seq'>): Promise<void> {
  const h = receivedInvoiceHistory;
  await db.insert(h).values({
    ...row,
    seq: sql`(select coalesce(max(${h.seq}), 0) + 1 from ${h} where ${h.companyId} = ${row.companyId} and ${h.livemode} = ${row.livemode} and ${h.receivedInvoiceId} = ${row.receivedInvoiceId})`,
  });
}

export async function historyOf(db: Executor, scope: Scope, receivedInvoiceId: string): Promise<HistoryRow[]> {
  const h = receivedInvoiceHistory;
  return db
    .select()
    .from(h)
    .where(and(inScope(h, scope), eq(h.receivedInvoiceId, receivedInvoiceId)))
    .orderBy(asc(h.seq));
}

/** Sandbox reset: the scope's received invoices, their history and files; the bytes the files held. */
export async function deleteScopeReceived(db: Executor, scope: Scope): Promise<{ invoices: number; bytes: number }> {
  await db.delete(receivedInvoiceHistory).where(inScope(receivedInvoiceHistory, scope));
  const files = await db
    .delete(receivedInvoiceFiles)
    .where(inScope(receivedInvoiceFiles, scope))
    .returning({ size: receivedInvoiceFiles.size });
  const removed = await db
    .delete(receivedInvoices)
    .where(inScope(receivedInvoices, scope))
    .returning({ id: receivedInvoices.id });
  return { invoices: removed.length, bytes: files.reduce((total, file) => total + file.size, 0) };
}

export async function receivedRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, receivedInvoices, scope, after, limit);
}
