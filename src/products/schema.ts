import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

export const products = pgTable(
  'products',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    /** A decimal string (up to 6 decimals), exactly as it will be multiplied: never a float. */
    unitPrice: text('unit_price').notNull(),
    /** UN/ECE Recommendation 20 code. */
    unit: text('unit').notNull(),
    /** `goods`, `services` or `electronic_service`. */
    nature: text('nature').notNull(),
    /** The VAT rate category the tax engine starts from. */
    vatCategory: text('vat_category').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
    deletedAt: instant('deleted_at'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('products_list')
      .on(t.companyId, t.livemode, t.id)
      .where(sql`deleted_at is null`),
  ],
);
