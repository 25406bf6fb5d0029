import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { archiveEntries } from './schema.js';

export type ArchiveEntryRow = typeof archiveEntries.$inferSelect;

/** One writer per company's chain at a time, until the commit: the next entry links to the last one. */
export async function lockChain(db: Executor, scope: Scope): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`archive:${scope.companyId}`}, 0))`);
}

export async function lastEntry(db: Executor, scope: Scope): Promise<ArchiveEntryRow | undefined> {
  const [row] = await db
    .select()
    .from(archiveEntries)
    .where(and(eq(archiveEntries.companyId, scope.companyId), eq(archiveEntries.livemode, scope.livemode)))
    .orderBy(sql`${archiveEntries.sequence} desc`)
    .limit(1);
  return row;
}

export async function insertEntry(db: Executor, row: ArchiveEntryRow): Promise<void> {
  await db.insert(archiveEntries).values(row);
}

export async function entryOfDocument(
  db: Executor,
  scope: Scope,
  documentId: string,
): Promise<ArchiveEntryRow | undefined> {
  const [row] = await db
    .select()
    .from(archiveEntries)
    .where(
      and(
        eq(archiveEntries.companyId, scope.companyId),
        eq(archiveEntries.livemode, scope.livemode),
        eq(archiveEntries.documentId, documentId),
      ),
    );
  return row;
}

/** The chain's entries after `afterSequence` up to `upTo`, in order: read by pages when verifying. */
export async function entriesBetween(
  db: Executor,
  scope: Scope,
  afterSequence: number,
  upTo: number,
  limit: number,
): Promise<ArchiveEntryRow[]> {
  return db
    .select()
    .from(archiveEntries)
    .where(
      and(
        eq(archiveEntries.companyId, scope.companyId),
        eq(archiveEntries.livemode, scope.livemode),
        gt(archiveEntries.sequence, afterSequence),
        lte(archiveEntries.sequence, upTo),
      ),
    )
    .orderBy(asc(archiveEntries.sequence))
    .limit(limit);
}
