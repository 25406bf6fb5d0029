import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { bulkInsert } from '../db/bulk-insert.js';
import { keysetPage } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { ereportingDeclarations, ereportingEventKeys, ereportingOperations } from './schema.js';

export type DeclarationRow = typeof ereportingDeclarations.$inferSelect;
export type OperationRow = typeof ereportingOperations.$inferSelect;

const d = ereportingDeclarations;

/** Gathering and claiming a declaration of one scope go one at a time (a transaction-scoped lock). */
export async function lockScopeReporting(db: Executor, scope: Scope): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`ereporting:${scope.companyId}:${scope.livemode}`}))`);
}

export async function findDeclaration(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<DeclarationRow | undefined> {
  const query = db
    .select()
    .from(d)
    .where(and(inScope(d, scope), eq(d.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** The first attempt of a key (establishment, flow, period). */
export async function findFirstAttempt(
  db: Executor,
  scope: Scope,
  key: { establishment: string | null; flow: string; period: string },
): Promise<DeclarationRow | undefined> {
  const [row] = await db
    .select()
    .from(d)
    .where(
      and(
        inScope(d, scope),
        sql`coalesce(${d.establishment}, '') = ${key.establishment ?? ''}`,
        eq(d.flow, key.flow),
        eq(d.period, key.period),
        eq(d.attempt, 1),
      ),
    )
    .limit(1);
  return row;
}

export async function insertDeclaration(db: Executor, row: DeclarationRow): Promise<void> {
  await db.insert(d).values(row);
}

export async function updateDeclaration(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<DeclarationRow>,
  when?: { state?: string },
): Promise<DeclarationRow | undefined> {
  const [row] = await db
    .update(d)
    .set(changes)
    .where(and(inScope(d, scope), eq(d.id, id), when?.state !== undefined ? eq(d.state, when.state) : undefined))
    .returning();
  return row;
}

export async function pageDeclarations(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  filters: { period?: string | undefined; state?: string | undefined; flow?: string | undefined },
): Promise<DeclarationRow[]> {
  const where = and(
    filters.period !== undefined ? eq(d.period, filters.period) : undefined,
    filters.state !== undefined ? eq(d.state, filters.state) : undefined,
    filters.flow !== undefined ? eq(d.flow, filters.flow) : undefined,
  );
  return keysetPage(db, d, scope, page, { where });
}

/** The scope's declarations to act on: reserved and due (the scope's clock), or submitted awaiting their verdict. */
export async function actionableDeclarations(db: Executor, scope: Scope, now: Date): Promise<DeclarationRow[]> {
  return db
    .select()
    .from(d)
    .where(
      and(
        inScope(d, scope),
        sql`((${d.state} = 'reserved' and ${d.dueAt} <= ${now.toISOString()}::timestamptz) or ${d.state} = 'submitted')`,
      ),
    )
    .orderBy(asc(d.dueAt), asc(d.id))
    .limit(100);
}

/** The scope's reserved declarations (the pass refreshes what keeps them back). */
export async function reservedDeclarations(db: Executor, scope: Scope): Promise<DeclarationRow[]> {
  return db
    .select()
    .from(d)
    .where(and(inScope(d, scope), eq(d.state, 'reserved')))
    .orderBy(asc(d.id))
    .limit(1000);
}

/** Of these sources, the ones already reported. */
export async function reportedSources(
  db: Executor,
  scope: Scope,
  kinds: string[],
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const result = await db.execute(sql`
    select o.source_id from ereporting_operations o
    where o.company_id = ${scope.companyId} and o.livemode = ${scope.livemode}
      and o.source_kind = any(${sql.param(kinds)}::text[]) and o.source_id = any(${sql.param(ids)}::text[])`);
  return new Set((result.rows as { source_id: string }[]).map((row) => row.source_id));
}

export async function insertOperations(db: Executor, rows: OperationRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 10_000)
    await bulkInsert(db, ereportingOperations, rows.slice(start, start + 10_000));
}

export async function operationsOf(db: Executor, scope: Scope, declarationId: string, limit: number) {
  return db
    .select()
    .from(ereportingOperations)
    .where(and(inScope(ereportingOperations, scope), eq(ereportingOperations.declarationId, declarationId)))
    .orderBy(asc(ereportingOperations.date), asc(ereportingOperations.sourceId))
    .limit(limit);
}

/** Takes the identity of an event; false when it was taken already (the event exists). */
export async function takeEventKey(
  db: Executor,
  scope: Scope,
  key: { declarationId: string; attempt: number; type: string },
  created: Date,
): Promise<boolean> {
  const rows = await db
    .insert(ereportingEventKeys)
    .values({ ...scope, ...key, eventId: null, created })
    .onConflictDoNothing()
    .returning({ type: ereportingEventKeys.type });
  return rows.length === 1;
}

export async function setEventKeyEvent(
  db: Executor,
  scope: Scope,
  key: { declarationId: string; attempt: number; type: string },
  eventId: string,
): Promise<void> {
  await db
    .update(ereportingEventKeys)
    .set({ eventId })
    .where(
      and(
        inScope(ereportingEventKeys, scope),
        eq(ereportingEventKeys.declarationId, key.declarationId),
        eq(ereportingEventKeys.attempt, key.attempt),
        eq(ereportingEventKeys.type, key.type),
      ),
    );
}

export async function deleteScopeReporting(db: Executor, scope: Scope): Promise<number> {
  await db.delete(ereportingEventKeys).where(inScope(ereportingEventKeys, scope));
  await db.delete(ereportingOperations).where(inScope(ereportingOperations, scope));
  const rows = await db.delete(d).where(inScope(d, scope)).returning({ id: d.id });
  return rows.length;
}

/** The scope's declarations in id order after `after`: the data-protection export. */
export async function declarationRowsAfter(
  db: Executor,
  scope: Scope,
  after: string | null,
  limit: number,
): Promise<DeclarationRow[]> {
  return db
    .select()
    .from(d)
    .where(and(inScope(d, scope), after === null ? undefined : sql`${d.id} > ${after}`))
    .orderBy(asc(d.id))
    .limit(limit);
}
