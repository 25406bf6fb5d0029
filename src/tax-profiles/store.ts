import { and, asc, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Lookup } from '../db/lookup.js';
import { rawRow } from '../db/raw-row.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { taxProfiles } from './schema.js';

export type TaxProfileRow = typeof taxProfiles.$inferSelect;

export async function insertTaxProfile(db: Executor, row: TaxProfileRow): Promise<void> {
  await db.insert(taxProfiles).values(row);
}

export async function findTaxProfile(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<TaxProfileRow | undefined> {
  const query = db
    .select()
    .from(taxProfiles)
    .where(and(inScope(taxProfiles, scope), eq(taxProfiles.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateTaxProfile(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<TaxProfileRow>,
): Promise<TaxProfileRow> {
  const [row] = await db
    .update(taxProfiles)
    .set(changes)
    .where(and(inScope(taxProfiles, scope), eq(taxProfiles.id, id)))
    .returning();
  return row!;
}

/** Revisions whose validity meets [from, to] (to null: open-ended). */
export async function overlappingProfiles(
  db: Executor,
  scope: Scope,
  from: string,
  to: string | null,
): Promise<TaxProfileRow[]> {
  return db
    .select()
    .from(taxProfiles)
    .where(
      and(
        inScope(taxProfiles, scope),
        or(isNull(taxProfiles.validTo), gte(taxProfiles.validTo, from)),
        to === null ? undefined : lte(taxProfiles.validFrom, to),
      ),
    )
    .orderBy(asc(taxProfiles.validFrom));
}

/** Serializes the revisions of one scope: two creations cannot both miss each other's overlap. */
export async function lockScopeProfiles(db: Executor, scope: Scope): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`tax-profiles:${scope.companyId}:${scope.livemode}`}))`);
}

export async function pageTaxProfiles(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  coveringDate?: string,
): Promise<TaxProfileRow[]> {
  const where =
    coveringDate === undefined
      ? undefined
      : and(
          lte(taxProfiles.validFrom, coveringDate),
          or(isNull(taxProfiles.validTo), gte(taxProfiles.validTo, coveringDate)),
        );
  return keysetPage(db, taxProfiles, scope, page, { where });
}

export async function deleteScopeTaxProfiles(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(taxProfiles).where(inScope(taxProfiles, scope)).returning({ id: taxProfiles.id });
  return rows.length;
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function profileRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, taxProfiles, scope, after, limit);
}

const profileColumns = rawRow(taxProfiles, 'tax_profile_');

/**
 * The one revision in effect on `date` (an expression of the statement: an earlier lookup's
 * column), as `overlappingProfiles(date, date)` read by a lookup: null when none or several cover it.
 */
export function coveringLookup(scope: Scope, date: SQL): Lookup<TaxProfileRow | null> {
  return {
    query: sql`select ${profileColumns.columns('tax_profiles')}, count(*) over () as tax_profile_covering
      from tax_profiles where company_id = ${scope.companyId} and livemode = ${scope.livemode}
      and (valid_to is null or valid_to >= ${date}) and valid_from <= ${date} order by valid_from limit 1`,
    read: (raw) => (Number(raw.tax_profile_covering) === 1 ? profileColumns.read(raw) : null),
  };
}

/** The SIRET of the establishment the looked-up revision declares, null when no single one covers the date. */
export const lookedUpProfileSiret = sql.raw(
  `(case when tax_profile_covering = 1 then "tax_profile_establishment"->>'siret' end)`,
);
