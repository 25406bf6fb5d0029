import { and, desc, eq, gt } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { deleteRowsBefore } from '../db/retention.js';
import { inScope, type Scope } from '../db/scope.js';
import { directoryChecks } from './schema.js';

export type DirectoryCheckRow = typeof directoryChecks.$inferSelect;

export async function insertDirectoryCheck(db: Executor, row: DirectoryCheckRow): Promise<void> {
  await db.insert(directoryChecks).values(row);
}

/** The newest look-up of a SIRET (or SIREN) made after `since`, or undefined. */
export async function latestDirectoryCheck(
  db: Executor,
  scope: Scope,
  identifier: string,
  since: Date,
): Promise<DirectoryCheckRow | undefined> {
  const [row] = await db
    .select()
    .from(directoryChecks)
    .where(
      and(
        inScope(directoryChecks, scope),
        eq(directoryChecks.identifier, identifier),
        gt(directoryChecks.checkedAt, since),
      ),
    )
    .orderBy(desc(directoryChecks.checkedAt))
    .limit(1);
  return row;
}

/** Forgets look-ups made before `before` (of these companies only, when given). */
export async function deleteDirectoryChecksBefore(
  db: Executor,
  before: Date,
  companyIds?: readonly string[],
): Promise<number> {
  return deleteRowsBefore(db, directoryChecks, directoryChecks.checkedAt, before, companyIds);
}

/** The scope's newest look-up, whatever it asked. */
export async function latestScopeDirectoryCheck(db: Executor, scope: Scope): Promise<DirectoryCheckRow | undefined> {
  const [row] = await db
    .select()
    .from(directoryChecks)
    .where(inScope(directoryChecks, scope))
    .orderBy(desc(directoryChecks.checkedAt))
    .limit(1);
  return row;
}
