import { and, desc, eq, gt, isNull, max, sql, sum } from 'drizzle-orm';
import { rowsAfter } from '../db/keyset.js';
import type { Executor } from '../db/database.js';
import { inScope, type Scope } from '../db/scope.js';
import { euThresholdEntries, euThresholdLedgers } from './schema.js';

export type LedgerRow = typeof euThresholdLedgers.$inferSelect;
export type EntryRow = typeof euThresholdEntries.$inferSelect;

export async function insertLedger(db: Executor, row: LedgerRow): Promise<void> {
  await db.insert(euThresholdLedgers).values(row);
}

export async function findLedger(
  db: Executor,
  scope: Scope,
  year: number,
  forUpdate = false,
): Promise<LedgerRow | undefined> {
  const query = db
    .select()
    .from(euThresholdLedgers)
    .where(and(inScope(euThresholdLedgers, scope), eq(euThresholdLedgers.year, year)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findLedgerById(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<LedgerRow | undefined> {
  const query = db
    .select()
    .from(euThresholdLedgers)
    .where(and(inScope(euThresholdLedgers, scope), eq(euThresholdLedgers.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateLedger(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<LedgerRow>,
): Promise<LedgerRow> {
  const [row] = await db
    .update(euThresholdLedgers)
    .set(changes)
    .where(and(inScope(euThresholdLedgers, scope), eq(euThresholdLedgers.id, id)))
    .returning();
  return row!;
}

export async function insertEntry(db: Executor, row: EntryRow): Promise<void> {
  await db.insert(euThresholdEntries).values(row);
}

const ofLedger = (scope: Scope, ledgerId: string) =>
  and(inScope(euThresholdEntries, scope), eq(euThresholdEntries.ledgerId, ledgerId));

export async function findEntry(
  db: Executor,
  scope: Scope,
  ledgerId: string,
  id: string,
  forUpdate = false,
): Promise<EntryRow | undefined> {
  const query = db
    .select()
    .from(euThresholdEntries)
    .where(and(ofLedger(scope, ledgerId), eq(euThresholdEntries.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findEntryByReference(
  db: Executor,
  scope: Scope,
  ledgerId: string,
  reference: string,
): Promise<EntryRow | undefined> {
  const [row] = await db
    .select()
    .from(euThresholdEntries)
    .where(and(ofLedger(scope, ledgerId), eq(euThresholdEntries.reference, reference)))
    .limit(1);
  return row;
}

export async function updateEntry(db: Executor, scope: Scope, id: string, changes: Partial<EntryRow>): Promise<void> {
  await db
    .update(euThresholdEntries)
    .set(changes)
    .where(and(inScope(euThresholdEntries, scope), eq(euThresholdEntries.id, id)));
}

/** The newest movements first. */
export async function recentEntries(db: Executor, scope: Scope, ledgerId: string, limit: number): Promise<EntryRow[]> {
  return db
    .select()
    .from(euThresholdEntries)
    .where(ofLedger(scope, ledgerId))
    .orderBy(desc(euThresholdEntries.id))
    .limit(limit);
}

const activeReservation = (now: Date) =>
  and(
    eq(euThresholdEntries.kind, 'reservation'),
    eq(euThresholdEntries.state, 'reserved'),
    gt(euThresholdEntries.expiresAt, now),
  );

/** What live reservations hold: the gap between the ledger's lower and upper bounds. */
export async function pendingTotals(
  db: Executor,
  scope: Scope,
  ledgerId: string,
  now: Date,
): Promise<{ distanceSales: number; electronicServices: number }> {
  const [row] = await db
    .select({
      distanceSales: sum(euThresholdEntries.distanceSales),
      electronicServices: sum(euThresholdEntries.electronicServices),
    })
    .from(euThresholdEntries)
    .where(and(ofLedger(scope, ledgerId), activeReservation(now)));
  return { distanceSales: Number(row?.distanceSales ?? 0), electronicServices: Number(row?.electronicServices ?? 0) };
}

/** The latest operation date already counted (or held by a live reservation). */
export async function lastOperationDate(
  db: Executor,
  scope: Scope,
  ledgerId: string,
  now: Date,
): Promise<string | null> {
  const [row] = await db
    .select({ date: max(euThresholdEntries.operationDate) })
    .from(euThresholdEntries)
    .where(
      and(
        ofLedger(scope, ledgerId),
        eq(euThresholdEntries.kind, 'reservation'),
        sql`(${euThresholdEntries.state} = 'counted' or (${euThresholdEntries.state} = 'reserved' and ${euThresholdEntries.expiresAt} > ${now.toISOString()}::timestamptz))`,
      ),
    );
  return row?.date ?? null;
}

/** Attaches a live reservation to its decision: false when it vanished (expired, released, taken). */
export async function claimReservation(
  db: Executor,
  scope: Scope,
  entryId: string,
  decisionId: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(euThresholdEntries)
    .set({ decisionId })
    .where(
      and(
        inScope(euThresholdEntries, scope),
        eq(euThresholdEntries.id, entryId),
        activeReservation(now),
        isNull(euThresholdEntries.decisionId),
      ),
    )
    .returning({ id: euThresholdEntries.id });
  return rows.length === 1;
}

export async function findReservationOfDecision(
  db: Executor,
  scope: Scope,
  decisionId: string,
): Promise<EntryRow | undefined> {
  const [row] = await db
    .select()
    .from(euThresholdEntries)
    .where(
      and(
        inScope(euThresholdEntries, scope),
        eq(euThresholdEntries.decisionId, decisionId),
        eq(euThresholdEntries.kind, 'reservation'),
      ),
    )
    .limit(1);
  return row;
}

export async function deleteScopeLedgers(db: Executor, scope: Scope): Promise<number> {
  await db.delete(euThresholdEntries).where(inScope(euThresholdEntries, scope));
  const rows = await db
    .delete(euThresholdLedgers)
    .where(inScope(euThresholdLedgers, scope))
    .returning({ id: euThresholdLedgers.id });
  return rows.length;
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function ledgerRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, euThresholdLedgers, scope, after, limit);
}

export async function ledgerEntryRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, euThresholdEntries, scope, after, limit);
}
