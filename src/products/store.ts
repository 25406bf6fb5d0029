import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { products } from './schema.js';

export type ProductRow = typeof products.$inferSelect;

const notDeleted = isNull(products.deletedAt);
const ofProduct = (scope: Scope, id: string) => and(inScope(products, scope), eq(products.id, id));

export async function insertProducts(db: Executor, rows: ProductRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(products).values(rows);
}

/** A product of the scope, deleted or not (a deleted one stays readable). */
export async function findProduct(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<ProductRow | undefined> {
  const query = db.select().from(products).where(ofProduct(scope, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateProduct(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<ProductRow>,
): Promise<ProductRow | undefined> {
  const [row] = await db
    .update(products)
    .set(changes)
    .where(and(ofProduct(scope, id), notDeleted))
    .returning();
  return row;
}

export async function pageProducts(
  db: Executor,
  scope: Scope,
  page: PageRequest,
  filters: { nature?: string | undefined },
): Promise<ProductRow[]> {
  return keysetPage(db, products, scope, page, {
    where: filters.nature ? eq(products.nature, filters.nature) : undefined,
    visible: notDeleted,
  });
}

export async function deleteScopeProducts(db: Executor, scope: Scope): Promise<number> {
  const rows = await db.delete(products).where(inScope(products, scope)).returning({ id: products.id });
  return rows.length;
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function productRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, products, scope, after, limit);
}
