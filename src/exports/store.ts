import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { dueOnScopeClock } from '../db/sandbox-clock.js';
import type { Executor } from '../db/database.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { exportChunks, exportsTable } from './schema.js';

export type ExportRow = typeof exportsTable.$inferSelect;

const ofExport = (scope: Scope, id: string) => and(inScope(exportsTable, scope), eq(exportsTable.id, id));

export async function insertExport(db: Executor, row: ExportRow): Promise<void> {
  await db.insert(exportsTable).values(row);
}

export async function findExport(db: Executor, scope: Scope, id: string): Promise<ExportRow | undefined> {
  const [row] = await db.select().from(exportsTable).where(ofExport(scope, id)).limit(1);
  return row;
}

export async function updateExport(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<ExportRow>,
): Promise<ExportRow> {
  const [row] = await db.update(exportsTable).set(changes).where(ofExport(scope, id)).returning();
  if (!row) throw new Error(`export ${id} vanished`);
  return row;
}

export async function pageExports(db: Executor, scope: Scope, page: PageRequest): Promise<ExportRow[]> {
  return keysetPage(db, exportsTable, scope, page);
}

/** The scope's exports in id order after `after`, for the data-protection export itself. */
export async function exportsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, exportsTable, scope, after, limit);
}

/** One chunk of a file (or of a staged part), in the job's transaction. */
export async function insertChunk(
  db: Executor,
  scope: Scope,
  exportId: string,
  part: string,
  seq: number,
  bytes: Buffer,
): Promise<void> {
  await db.execute(sql`insert into export_chunks (company_id, livemode, export_id, part, seq, bytes)
    values (${scope.companyId}, ${scope.livemode}, ${exportId}, ${part}, ${seq}, ${bytes})`);
}

export async function readChunk(
  db: Executor,
  scope: Scope,
  exportId: string,
  part: string,
  seq: number,
): Promise<Buffer | undefined> {
  const result = await db.execute(sql`select bytes from export_chunks
    where company_id = ${scope.companyId} and livemode = ${scope.livemode} and export_id = ${exportId}
      and part = ${part} and seq = ${seq}`);
  return (result.rows[0] as { bytes: Buffer } | undefined)?.bytes;
}

/** Removes the chunks of one part (a staged kind once zipped, or a file written again from its start). */
export async function deleteChunks(db: Executor, scope: Scope, exportId: string, part?: string): Promise<number> {
  const rows = await db
    .delete(exportChunks)
    .where(
      and(
        inScope(exportChunks, scope),
        eq(exportChunks.exportId, exportId),
        part === undefined ? undefined : eq(exportChunks.part, part),
      ),
    )
    .returning({ seq: exportChunks.seq });
  return rows.length;
}

/** Exports whose time is up (test ones on their company's sandbox clock), any tenant or these companies. */
export async function expiredExports(
  db: Executor,
  now: Date,
  limit: number,
  companyIds?: string[],
): Promise<{ companyId: string; livemode: boolean; id: string; size: number }[]> {
  return db
    .select({
      companyId: exportsTable.companyId,
      livemode: exportsTable.livemode,
      id: exportsTable.id,
      size: exportsTable.size,
    })
    .from(exportsTable)
    .where(
      and(
        dueOnScopeClock(exportsTable.expiresAt, exportsTable, now),
        companyIds ? inArray(exportsTable.companyId, companyIds) : undefined,
      ),
    )
    .orderBy(asc(exportsTable.expiresAt))
    .limit(limit);
}

export async function deleteExport(db: Executor, scope: Scope, id: string): Promise<void> {
  await db.delete(exportChunks).where(and(inScope(exportChunks, scope), eq(exportChunks.exportId, id)));
  await db.delete(exportsTable).where(ofExport(scope, id));
}

export async function deleteScopeExports(db: Executor, scope: Scope): Promise<number> {
  await db.delete(exportChunks).where(inScope(exportChunks, scope));
  const rows = await db.delete(exportsTable).where(inScope(exportsTable, scope)).returning({ id: exportsTable.id });
  return rows.length;
}
