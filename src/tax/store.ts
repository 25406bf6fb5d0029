import { and, eq, sql } from 'drizzle-orm';
import type { Lookup } from '../db/lookup.js';
import { rawRow } from '../db/raw-row.js';
import type { Executor } from '../db/database.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { taxDecisions } from './schema.js';

export type DecisionRow = typeof taxDecisions.$inferSelect;

export async function insertDecision(db: Executor, row: DecisionRow): Promise<void> {
  await db.insert(taxDecisions).values(row);
}

export async function findDecision(db: Executor, scope: Scope, id: string): Promise<DecisionRow | undefined> {
  const [row] = await db
    .select()
    .from(taxDecisions)
    .where(and(inScope(taxDecisions, scope), eq(taxDecisions.id, id)))
    .limit(1);
  return row;
}

export async function pageDecisions(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  filters: { status?: string | undefined; customerId?: string | undefined },
): Promise<DecisionRow[]> {
  const where = and(
    filters.status !== undefined ? eq(taxDecisions.status, filters.status) : undefined,
    filters.customerId !== undefined ? eq(taxDecisions.customerId, filters.customerId) : undefined,
  );
  return keysetPage(db, taxDecisions, scope, page, { where });
}

export async function deleteScopeDecisions(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(taxDecisions).where(inScope(taxDecisions, scope)).returning({ id: taxDecisions.id });
  return rows.length;
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function decisionRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, taxDecisions, scope, after, limit);
}

const decisionColumns = rawRow(taxDecisions, 'tax_decision_');

/** `findDecision` as a lookup of a bigger statement. */
export function decisionLookup(scope: Scope, id: string): Lookup<DecisionRow | null> {
  return {
    query: sql`select ${decisionColumns.columns('tax_decisions')} from tax_decisions where company_id = ${scope.companyId} and livemode = ${scope.livemode} and id = ${id} limit 1`,
    read: (raw) => decisionColumns.read(raw),
  };
}

/** The looked-up decision's operation date, for a later lookup of the same statement. */
export const lookedUpDecisionDate = decisionColumns.column('date');
