import { and, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { bulkInsert } from '../db/bulk-insert.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { events } from './schema.js';

export type EventRow = typeof events.$inferSelect;

/** The insert of one event as a statement to embed (a data-modifying CTE). */
export function insertEventSql(db: Executor, row: EventRow): SQL {
  return db.insert(events).values(row).getSQL();
}

export async function insertEvents(db: Executor, rows: EventRow[]): Promise<void> {
  if (rows.length === 1) await db.insert(events).values(rows);
  else await bulkInsert(db, events, rows);
}

export async function findEvent(db: Executor, scope: Scope, id: string): Promise<EventRow | undefined> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(inScope(events, scope), eq(events.id, id)))
    .limit(1);
  return row;
}

export interface EventFilters {
  type?: string | undefined;
  /** A condition another capability adds (webhooks: delivered or not). */
  where?: SQL | undefined;
}

export async function pageEvents(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  filters: EventFilters,
): Promise<EventRow[]> {
  return keysetPage(db, events, scope, page, {
    where: and(filters.type ? eq(events.type, filters.type) : undefined, filters.where),
  });
}

export async function deleteScopeEvents(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(events).where(inScope(events, scope)).returning({ id: events.id });
  return rows.length;
}

/** The scope's events in id order after `after`: the data-protection export. */
export async function eventRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, events, scope, after, limit);
}
