import { and, eq, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { bulkInsert } from '../db/bulk-insert.js';
import type { Lookup } from '../db/lookup.js';
import { rawRow } from '../db/raw-row.js';
import type { Executor } from '../db/database.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { customers } from './schema.js';

export type CustomerRow = typeof customers.$inferSelect;

const notDeleted = isNull(customers.deletedAt);
const ofCustomer = (scope: Scope, id: string) => and(inScope(customers, scope), eq(customers.id, id));

export async function insertCustomers(db: Executor, rows: CustomerRow[]): Promise<void> {
  if (rows.length === 1) await db.insert(customers).values(rows);
  else await bulkInsert(db, customers, rows);
}

/** A customer of the scope, deleted or not (a deleted one stays readable). */
export async function findCustomer(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<CustomerRow | undefined> {
  const query = db.select().from(customers).where(ofCustomer(scope, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateCustomer(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<CustomerRow>,
): Promise<CustomerRow | undefined> {
  const [row] = await db
    .update(customers)
    .set(changes)
    .where(and(ofCustomer(scope, id), notDeleted))
    .returning();
  return row;
}

export interface CustomerFilters {
  /** Exact, case-insensitive. */
  email?: string | undefined;
  siren?: string | undefined;
  type?: string | undefined;
  createdFrom?: Date | undefined;
  /** Inclusive when `createdToInclusive`, else exclusive (the day after a calendar date). */
  createdTo?: Date | undefined;
  createdToInclusive?: boolean;
}

export async function pageCustomers(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  filters: CustomerFilters,
): Promise<CustomerRow[]> {
  const where: (SQL | undefined)[] = [
    filters.email !== undefined ? sql`lower(${customers.email}) = lower(${filters.email})` : undefined,
    filters.siren !== undefined ? eq(customers.siren, filters.siren) : undefined,
    filters.type !== undefined ? eq(customers.type, filters.type) : undefined,
    filters.createdFrom ? gte(customers.created, filters.createdFrom) : undefined,
    filters.createdTo
      ? filters.createdToInclusive
        ? lte(customers.created, filters.createdTo)
        : lt(customers.created, filters.createdTo)
      : undefined,
  ];
  return keysetPage(db, customers, scope, page, { where: and(...where), visible: notDeleted });
}

/** Sandbox reset: every test customer of the company goes (deleted ones too). */
export async function deleteScopeCustomers(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(customers).where(inScope(customers, scope)).returning({ id: customers.id });
  return rows.length;
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function customerRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, customers, scope, after, limit);
}

const customerColumns = rawRow(customers, 'customer_');

/** `findCustomer` (deleted or not) as a lookup of a bigger statement. */
export function customerLookup(scope: Scope, id: string): Lookup<CustomerRow | null> {
  return {
    query: sql`select ${customerColumns.columns('customers')} from customers where company_id = ${scope.companyId} and livemode = ${scope.livemode} and id = ${id} limit 1`,
    read: (raw) => customerColumns.read(raw),
  };
}

/** What a re-check pass looks for: a VAT number VIES has not confirmed, a SIRET (SIREN) no directory has answered about. */
const unverified = {
  vat: sql`${customers.vatValidation}->>'status' = 'unverified'`,
  directory: eq(customers.directoryVerification, 'unverified'),
};

/** Live customers still unverified on `what`, oldest first (a re-check pass, every company). */
export async function unverifiedCustomers(
  db: Executor,
  what: keyof typeof unverified,
  limit: number,
  companyIds?: string[],
): Promise<CustomerRow[]> {
  return db
    .select()
    .from(customers)
    .where(
      and(
        eq(customers.livemode, true),
        notDeleted,
        unverified[what],
        companyIds ? inArray(customers.companyId, companyIds) : undefined,
      ),
    )
    .orderBy(customers.updated)
    .limit(limit);
}

/** The re-check's answer, only if the customer still has that number unverified (a change meanwhile wins). */
export async function settleVatValidation(
  db: Executor,
  scope: Scope,
  id: string,
  vatNumber: string,
  changes: Pick<CustomerRow, 'vatValidation' | 'updated'>,
): Promise<CustomerRow | undefined> {
  const [row] = await db
    .update(customers)
    .set(changes)
    .where(and(ofCustomer(scope, id), notDeleted, eq(customers.vatNumber, vatNumber), unverified.vat))
    .returning();
  return row;
}

/** The directory's answer, only if the customer still has that SIRET and SIREN unverified (a change meanwhile wins). */
export async function settleDirectoryVerification(
  db: Executor,
  scope: Scope,
  id: string,
  asked: Pick<CustomerRow, 'siren' | 'siret'>,
  changes: Pick<CustomerRow, 'directoryVerification' | 'registryNonDisclosure' | 'updated'>,
): Promise<CustomerRow | undefined> {
  const [row] = await db
    .update(customers)
    .set(changes)
    .where(
      and(
        ofCustomer(scope, id),
        notDeleted,
        asked.siret === null ? isNull(customers.siret) : eq(customers.siret, asked.siret),
        asked.siren === null ? isNull(customers.siren) : eq(customers.siren, asked.siren),
        unverified.directory,
      ),
    )
    .returning();
  return row;
}
