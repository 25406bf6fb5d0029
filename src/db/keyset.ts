import { and, asc, desc, eq, gt, lt, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.js';
import { inScope, type Scope } from './scope.js';
import { unknownCursor, type PageRequest } from '../kernel/pagination.js';

type ListableTable = PgTable & { id: PgColumn; companyId: PgColumn; livemode: PgColumn };

export interface KeysetOptions {
  /** The list's filters. */
  where?: SQL | undefined;
  /** What a row must be to serve as a cursor (not deleted); the filters are not required of it. */
  visible?: SQL | undefined;
}

/**
 * One page of a tenant table, newest first. Ids embed their creation time, so "created desc"
 * is "id desc" and the cursor is a single comparison. Fetches one row more to know has_more.
 */
export async function keysetPage<T extends ListableTable>(
  db: Executor,
  table: T,
  scope: Scope,
  page: PageRequest,
  options: KeysetOptions = {},
): Promise<T['$inferSelect'][]> {
  const scoped = inScope(table, scope);
  if (page.startingAfter !== undefined) {
    const [cursor] = await db
      .select({ id: table.id })
      .from(table as PgTable)
      .where(and(scoped, eq(table.id, page.startingAfter), options.visible))
      .limit(1);
    if (!cursor) throw unknownCursor(page.startingAfter);
  }
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(
      and(
        scoped,
        options.where,
        options.visible,
        page.startingAfter !== undefined ? lt(table.id, page.startingAfter) : undefined,
      ),
    )
    .orderBy(desc(table.id))
    .limit(page.limit + 1);
  return rows as T['$inferSelect'][];
}

/**
 * A tenant table's rows in id order after `after` (null: from the first): the data-protection
 * export reads every capability's rows this way, page by page.
 */
export async function rowsAfter<T extends ListableTable>(
  db: Executor,
  table: T,
  scope: Scope,
  after: string | null,
  limit: number,
): Promise<T['$inferSelect'][]> {
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(and(inScope(table, scope), after === null ? undefined : gt(table.id, after)))
    .orderBy(asc(table.id))
    .limit(limit);
  return rows as T['$inferSelect'][];
}
