import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';
import type { Address } from './address.js';
import type { VatValidation } from './customer-checks.js';

export const customers = pgTable(
  'customers',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    siren: text('siren'),
    siret: text('siret'),
    vatNumber: text('vat_number'),
    /** The buyer's electronic address in the platform directory (BT-49, scheme 0225). */
    electronicAddress: text('electronic_address'),
    /** The directory routing code of the establishment (scheme 0224). */
    routingCode: text('routing_code'),
    address: jsonb('address').$type<Address | null>(),
    deliveryAddress: jsonb('delivery_address').$type<Address | null>(),
    /** Fields the company registry keeps from publication (`name`, `address`, `address.line1`...). */
    registryNonDisclosure: text('registry_non_disclosure').array().notNull(),
    /** `cii` or `ubl`: the syntax the buyer takes its e-invoices in; null: the establishment's default (migration 0044). */
    einvoiceSyntax: text('einvoice_syntax'),
    /** What VIES said of an intra-EU VAT number (live), null when not asked (migration 0031). */
    vatValidation: jsonb('vat_validation').$type<VatValidation | null>(),
    /** What the company directory said of the SIRET (live): `verified`, `unverified`, `not_found` (migration 0035). */
    directoryVerification: text('directory_verification'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
    /** Soft deletion: the customer stays on its documents, readable, no longer listed or writable. */
    deletedAt: instant('deleted_at'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('customers_list')
      .on(t.companyId, t.livemode, t.id)
      .where(sql`deleted_at is null`),
    index('customers_by_email')
      .on(t.companyId, t.livemode, sql`lower(${t.email})`, t.id)
      .where(sql`deleted_at is null`),
    index('customers_by_siren')
      .on(t.companyId, t.livemode, t.siren, t.id)
      .where(sql`deleted_at is null`),
  ],
);
