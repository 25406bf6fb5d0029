import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Lookup } from '../db/lookup.js';
import { rawRow } from '../db/raw-row.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { establishments } from './schema.js';

export type EstablishmentRow = typeof establishments.$inferSelect;

export async function insertEstablishment(db: Executor, row: EstablishmentRow): Promise<void> {
  await db.insert(establishments).values(row);
}

export async function findEstablishment(db: Executor, scope: Scope, id: string): Promise<EstablishmentRow | undefined> {
  const [row] = await db
    .select()
    .from(establishments)
    .where(and(inScope(establishments, scope), eq(establishments.id, id)))
    .limit(1);
  return row;
}

export async function findBySiret(db: Executor, scope: Scope, siret: string): Promise<EstablishmentRow | undefined> {
  const [row] = await db
    .select()
    .from(establishments)
    .where(and(inScope(establishments, scope), eq(establishments.siret, siret)))
    .limit(1);
  return row;
}

export async function findDefault(db: Executor, scope: Scope): Promise<EstablishmentRow | undefined> {
  const [row] = await db
    .select()
    .from(establishments)
    .where(and(inScope(establishments, scope), eq(establishments.isDefault, true)))
    .limit(1);
  return row;
}

export async function updateEstablishmentRow(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<EstablishmentRow>,
): Promise<EstablishmentRow> {
  const [row] = await db
    .update(establishments)
    .set(changes)
    .where(and(inScope(establishments, scope), eq(establishments.id, id)))
    .returning();
  if (!row) throw new Error(`establishment ${id} vanished`);
  return row;
}

/** The scope's default loses its mark (before another one takes it, in the same transaction). */
export async function clearDefault(db: Executor, scope: Scope, now: Date): Promise<void> {
  await db
    .update(establishments)
    .set({ isDefault: false, updated: now })
    .where(and(inScope(establishments, scope), eq(establishments.isDefault, true)));
}

/** Serializes the establishments of one scope: the first one, and the default, are decided once. */
export async function lockScopeEstablishments(db: Executor, scope: Scope): Promise<void> {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`establishments:${scope.companyId}:${scope.livemode}`}))`,
  );
}

export async function pageEstablishments(db: Executor, scope: Scope, page: PageRequest): Promise<EstablishmentRow[]> {
  return keysetPage(db, establishments, scope, page);
}

export async function deleteScopeEstablishments(db: Executor, scope: Scope): Promise<number> {
  const rows = await db
    .delete(establishments)
    .where(inScope(establishments, scope))
    .returning({ id: establishments.id });
  return rows.length;
}

export async function establishmentRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, establishments, scope, after, limit);
}

/** The scope's establishments connected to a platform, `except` one (the one being reconnected). */
export async function countConnected(db: Executor, scope: Scope, except: string | null): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(establishments)
    .where(
      and(
        inScope(establishments, scope),
        sql`${establishments.platformBaseUrl} is not null`,
        except ? sql`${establishments.id} <> ${except}` : undefined,
      ),
    );
  return row?.count ?? 0;
}

/** Every establishment connected to a platform (all tenants for a worker, or these companies'). */
export async function connectedRows(
  db: Executor,
  companyIds?: readonly string[],
): Promise<{ companyId: string; livemode: boolean; id: string }[]> {
  if (companyIds && companyIds.length === 0) return [];
  return db
    .select({ companyId: establishments.companyId, livemode: establishments.livemode, id: establishments.id })
    .from(establishments)
    .where(
      and(
        sql`${establishments.platformBaseUrl} is not null`,
        companyIds ? inArray(establishments.companyId, [...companyIds]) : undefined,
      ),
    );
}

const establishmentColumns = rawRow(establishments, 'establishment_');

/**
 * The establishment of `siret` (an expression of the statement; null names none), else the
 * default one: `findBySiret` then `findDefault`, as a lookup of a bigger statement.
 */
export function bySiretOrDefaultLookup(scope: Scope, siret: SQL): Lookup<EstablishmentRow | null> {
  return {
    query: sql`select ${establishmentColumns.columns('establishments')} from establishments
      where company_id = ${scope.companyId} and livemode = ${scope.livemode} and (siret = ${siret} or is_default)
      order by (siret = ${siret}) is true desc limit 1`,
    read: (raw) => establishmentColumns.read(raw),
  };
}
