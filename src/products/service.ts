import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { normalizeUnitPrice } from './unit-price.js';
import type { UnitCode } from './units.js';
import {
  deleteScopeProducts,
  findProduct,
  insertProducts,
  pageProducts,
  updateProduct as updateProductRow,
  type ProductRow,
} from './store.js';
import { checkMetadata } from '../kernel/metadata.js';

export const productNatures = ['goods', 'services', 'electronic_service'] as const;
export type ProductNature = (typeof productNatures)[number];

/**
 * The default VAT rate category of a product, which the tax engine starts from (in mainland
 * France: standard 20 %, intermediate 10 %, reduced 5.5 %, super-reduced 2.1 %; zero-rated; exempt).
 * Territories with other rates (Corsica, the DOM) apply their own rate of the same category.
 */
export const vatCategories = ['standard', 'intermediate', 'reduced', 'super_reduced', 'zero', 'exempt'] as const;
export type VatCategory = (typeof vatCategories)[number];

export interface Product {
  id: string;
  object: 'product';
  livemode: boolean;
  name: string;
  description: string | null;
  unitPrice: string;
  unit: UnitCode;
  nature: ProductNature;
  vatCategory: VatCategory;
  metadata: Record<string, unknown>;
  created: string;
  updated: string;
  deleted: boolean;
}

export interface ProductInput {
  name?: string;
  description?: string | null;
  unitPrice?: string;
  unit?: UnitCode;
  nature?: ProductNature;
  vatCategory?: VatCategory;
  metadata?: Record<string, unknown>;
}

type ProductFields = Pick<
  ProductRow,
  'name' | 'description' | 'unitPrice' | 'unit' | 'nature' | 'vatCategory' | 'metadata'
>;

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    object: 'product',
    livemode: row.livemode,
    name: row.name,
    description: row.description,
    unitPrice: row.unitPrice,
    unit: row.unit as UnitCode,
    nature: row.nature as ProductNature,
    vatCategory: row.vatCategory as VatCategory,
    metadata: row.metadata,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
    deleted: row.deletedAt !== null,
  };
}

/** The rules of a product on the whole record (a creation, or an update merged over what was stored). */
function checkProduct(fields: ProductFields): ProductFields {
  const name = fields.name.trim();
  if (name === '') throw refuse('validation_error', '`name` must not be blank.', { param: 'name' });
  const unitPrice = normalizeUnitPrice(fields.unitPrice);
  if (unitPrice === null) {
    throw refuse(
      'validation_error',
      '`unitPrice` is a decimal string, at most 12 digits before the point and 6 after, without sign or exponent, e.g. "12.50".',
      { param: 'unitPrice' },
    );
  }
  checkMetadata(fields.metadata);
  const description = fields.description?.trim() ? fields.description.trim() : null;
  return { ...fields, name, description, unitPrice };
}

function productRow(fields: ProductFields, scope: Scope, now: Date, id = newId('product', now)): ProductRow {
  return { ...scope, id, ...fields, created: now, updated: now, deletedAt: null };
}

function fieldsOf(input: Required<Pick<ProductInput, 'name' | 'unitPrice' | 'nature'>> & ProductInput): ProductFields {
  return {
    name: input.name,
    description: input.description ?? null,
    unitPrice: input.unitPrice,
    unit: input.unit ?? 'C62',
    nature: input.nature,
    vatCategory: input.vatCategory ?? 'standard',
    metadata: input.metadata ?? {},
  };
}

export async function createProduct(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  input: Required<Pick<ProductInput, 'name' | 'unitPrice' | 'nature'>> & ProductInput,
): Promise<Product> {
  const row = productRow(checkProduct(fieldsOf(input)), ctx.scope, ctx.now);
  await inTransaction(deps.db, ctx, (tx) => insertProducts(tx, [row]));
  return toProduct(row);
}

function productNotFound(id: string): ApiError {
  return refuse('not_found', `No product ${id}.`, { param: 'id' });
}

function productDeleted(id: string): ApiError {
  return new ApiError('resource_deleted', { values: { resource: 'product', id }, param: 'id' });
}

export async function getProduct(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<Product> {
  const row = await findProduct(deps.db, scope, id);
  if (!row) throw productNotFound(id);
  return toProduct(row);
}

export async function listProducts(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  filters: { nature?: ProductNature | undefined },
): Promise<ListEnvelope<Product>> {
  const rows = await pageProducts(deps.db, scope, page, filters);
  return toListEnvelope(rows, page, '/v1/products', (row) => row.id, toProduct);
}

/** Absent fields are kept, `description: null` clears it, `metadata` is replaced whole. */
export async function updateProduct(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
  input: ProductInput,
): Promise<Product> {
  const row = await inTransaction(deps.db, ctx, async (tx) => {
    const current = await findProduct(tx, ctx.scope, id, true);
    if (!current) throw productNotFound(id);
    if (current.deletedAt) throw productDeleted(id);
    const stored: ProductFields = {
      name: current.name,
      description: current.description,
      unitPrice: current.unitPrice,
      unit: current.unit,
      nature: current.nature,
      vatCategory: current.vatCategory,
      metadata: current.metadata,
    };
    const merged = { ...stored };
    for (const [key, value] of Object.entries(input))
      if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
    const fields = checkProduct(merged);
    if (canonicalJson(fields) === canonicalJson(stored)) return current;
    return (await updateProductRow(tx, ctx.scope, id, { ...fields, updated: ctx.now }))!;
  });
  return toProduct(row);
}

export async function deleteProduct(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
): Promise<{ id: string; object: 'product'; deleted: true }> {
  await inTransaction(deps.db, ctx, async (tx) => {
    const current = await findProduct(tx, ctx.scope, id, true);
    if (!current) throw productNotFound(id);
    if (current.deletedAt) throw productDeleted(id);
    await updateProductRow(tx, ctx.scope, id, { deletedAt: ctx.now, updated: ctx.now });
  });
  return { id, object: 'product', deleted: true };
}

/** Sandbox reset: every test product of the company goes. */
export async function purgeTestProducts(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live products');
  return deleteScopeProducts(tx, scope);
}

export { seedProductFixtures, productFixtures } from './fixtures.js';
