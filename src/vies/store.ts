import { and, desc, eq, gt } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { deleteRowsBefore } from '../db/retention.js';
import { inScope, type Scope } from '../db/scope.js';
import { viesChecks } from './schema.js';

export type ViesCheckRow = typeof viesChecks.$inferSelect;

export async function insertViesCheck(db: Executor, row: ViesCheckRow): Promise<void> {
  await db.insert(viesChecks).values(row);
}

/** The newest consultation of a number made after `since`, or undefined. */
export async function latestViesCheck(
  db: Executor,
  scope: Scope,
  vatNumber: string,
  since: Date,
): Promise<ViesCheckRow | undefined> {
  const [row] = await db
    .select()
    .from(viesChecks)
    .where(and(inScope(viesChecks, scope), eq(viesChecks.vatNumber, vatNumber), gt(viesChecks.checkedAt, since)))
    .orderBy(desc(viesChecks.checkedAt))
    .limit(1);
  return row;
}

/** Forgets consultations made before `before` (of these companies only, when given). */
export async function deleteViesChecksBefore(
  db: Executor,
  before: Date,
  companyIds?: readonly string[],
): Promise<number> {
  return deleteRowsBefore(db, viesChecks, viesChecks.checkedAt, before, companyIds);
}

/** The scope's newest consultation, whatever number it asked about. */
export async function latestScopeViesCheck(db: Executor, scope: Scope): Promise<ViesCheckRow | undefined> {
  const [row] = await db
    .select()
    .from(viesChecks)
    .where(inScope(viesChecks, scope))
    .orderBy(desc(viesChecks.checkedAt))
    .limit(1);
  return row;
}
