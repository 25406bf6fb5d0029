import { and, asc, eq, gt, gte, ilike, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { keysetPage } from '../db/keyset.js';
import { rowInsert } from '../db/prepared-statement.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { dueOnScopeClock, sandboxOffsetMs } from '../db/sandbox-clock.js';
import type { DocumentKind } from './document-axes.js';
import type { DocumentRow } from './document-record.js';
import { invoices } from './schema.js';

const ofDocument = (scope: Scope, kind: DocumentKind, id: string) =>
  and(inScope(invoices, scope), eq(invoices.kind, kind), eq(invoices.id, id));

/** Every draft goes through it (built once: the query builder's walk over forty columns cost more CPU than the insert). */
const insertDocumentRow = rowInsert(invoices);

export async function insertDocument(db: Executor, row: DocumentRow): Promise<void> {
  await insertDocumentRow(db, row);
}

export async function insertDocuments(db: Executor, rows: DocumentRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(invoices).values(rows);
}

export async function findDocument(
  db: Executor,
  scope: Scope,
  kind: DocumentKind,
  id: string,
  forUpdate = false,
): Promise<DocumentRow | undefined> {
  const query = db
    .select()
    .from(invoices)
    .where(ofDocument(scope, kind, id))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** Either kind: the sandbox's simulated statuses apply to invoices and credit notes alike. */
export async function findAnyDocument(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<DocumentRow | undefined> {
  const query = db
    .select()
    .from(invoices)
    .where(and(inScope(invoices, scope), eq(invoices.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateDocument(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<DocumentRow>,
): Promise<DocumentRow> {
  const [row] = await db
    .update(invoices)
    .set(changes)
    .where(and(inScope(invoices, scope), eq(invoices.id, id)))
    .returning();
  if (!row) throw new Error(`document ${id} vanished under its lock`);
  return row;
}

/** The document a decision already backs, if any. */
export async function documentBackedBy(db: Executor, scope: Scope, decisionId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.companyId, scope.companyId), eq(invoices.backingDecisionId, decisionId)))
    .limit(1);
  return row?.id ?? null;
}

/** The finalized credit notes of an invoice, oldest first. */
export async function finalizedCreditNotesOf(db: Executor, scope: Scope, invoiceId: string): Promise<DocumentRow[]> {
  return db
    .select()
    .from(invoices)
    .where(
      and(
        inScope(invoices, scope),
        eq(invoices.kind, 'credit_note'),
        eq(invoices.relatedInvoiceId, invoiceId),
        eq(invoices.documentStatus, 'finalized'),
      ),
    )
    .orderBy(asc(invoices.id));
}

export interface DocumentFilters {
  status?: string | undefined;
  customerId?: string | undefined;
  /** The invoice date (the creation day for a draft without one), `YYYY-MM-DD`, inclusive. */
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  relatedInvoiceId?: string | undefined;
  /** The number, or a part of it, in any case: `000042`, `f2026-0000`. */
  number?: string | undefined;
  /** The invoices a recurring invoice generated; a cursor must be one of them. */
  recurringInvoiceId?: string | undefined;
}

const documentDate = sql`coalesce(${invoices.issueDate}, to_char(${invoices.created} at time zone 'UTC', 'YYYY-MM-DD'))`;

/** A text matched literally inside a LIKE pattern: its `%`, `_` and `\\` escaped. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

export async function pageDocuments(
  db: Executor,
  scope: Scope,
  kind: DocumentKind,
  page: PageRequest,
  filters: DocumentFilters,
): Promise<DocumentRow[]> {
  const where: (SQL | undefined)[] = [
    filters.status !== undefined ? eq(invoices.status, filters.status) : undefined,
    filters.customerId !== undefined ? eq(invoices.customerId, filters.customerId) : undefined,
    filters.dateFrom !== undefined ? gte(documentDate, filters.dateFrom) : undefined,
    filters.dateTo !== undefined ? lte(documentDate, filters.dateTo) : undefined,
    filters.relatedInvoiceId !== undefined ? eq(invoices.relatedInvoiceId, filters.relatedInvoiceId) : undefined,
    filters.number ? ilike(invoices.number, `%${likeEscaped(filters.number)}%`) : undefined,
  ];
  // A recurring invoice's list is a list of its own: an invoice of another one is not its cursor.
  const visible = and(
    eq(invoices.kind, kind),
    filters.recurringInvoiceId !== undefined ? eq(invoices.recurringInvoiceId, filters.recurringInvoiceId) : undefined,
  );
  return keysetPage(db, invoices, scope, page, { where: and(...where), visible });
}

export async function findByPortalToken(db: Executor, token: string): Promise<DocumentRow | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.portalToken, token)).limit(1);
  return row;
}

/**
 * Finalized invoices whose due date has passed without full payment, not yet marked overdue,
 * locked for this pass (others skip them), with their company's sandbox clock offset: test
 * invoices are due on that clock.
 */
export async function claimOverdue(
  tx: Executor,
  now: Date,
  limit: number,
  companyIds?: string[],
): Promise<{ row: DocumentRow; sandboxClockOffsetMs: number }[]> {
  if (companyIds && companyIds.length === 0) return [];
  const due = await tx
    .select({ companyId: invoices.companyId, id: invoices.id, offset: sandboxOffsetMs(invoices) })
    .from(invoices)
    .where(
      and(
        sql`${invoices.overdueAt} is null`,
        eq(invoices.documentStatus, 'finalized'),
        eq(invoices.kind, 'invoice'),
        ne(invoices.transmissionStatus, 'rejected'),
        sql`${invoices.total} - ${invoices.amountCredited} - ${invoices.amountDeducted} - ${invoices.amountPaid} + ${invoices.amountRefunded} > 0`,
        dueOnScopeClock(invoices.dueAt, invoices, now),
        companyIds ? inArray(invoices.companyId, companyIds) : undefined,
      ),
    )
    .orderBy(invoices.dueAt)
    .limit(limit)
    .for('update', { of: invoices, skipLocked: true });
  if (due.length === 0) return [];
  const offsets = new Map(due.map((d) => [`${d.companyId}/${d.id}`, Number(d.offset)]));
  const rows = await tx
    .select()
    .from(invoices)
    .where(
      sql`(${invoices.companyId}, ${invoices.id}) in (${sql.join(
        due.map((d) => sql`(${d.companyId}, ${d.id})`),
        sql`, `,
      )})`,
    );
  return rows.map((row) => ({ row, sandboxClockOffsetMs: offsets.get(`${row.companyId}/${row.id}`) ?? 0 }));
}

export async function deleteScopeDocuments(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(invoices).where(inScope(invoices, scope)).returning({ id: invoices.id });
  return rows.length;
}

/** The scope's documents of one kind in id order after `after`: the data-protection export. */
export async function documentRowsAfter(
  db: Executor,
  scope: Scope,
  kind: DocumentKind,
  after: string | null,
  limit: number,
): Promise<DocumentRow[]> {
  return db
    .select()
    .from(invoices)
    .where(and(inScope(invoices, scope), eq(invoices.kind, kind), after === null ? undefined : gt(invoices.id, after)))
    .orderBy(asc(invoices.id))
    .limit(limit);
}
