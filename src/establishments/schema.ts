import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

export interface EstablishmentAddress {
  line1: string;
  line2: string | null;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/**
 * The company's establishments (`est_`), per environment: a SIRET of the company's SIREN and the
 * address an invoice names. One per scope is the default (a partial unique index keeps it one).
 * The platform connection and the deposit / e-reporting flags come with the platform issue.
 */
export const establishments = pgTable(
  'establishments',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    siret: text('siret').notNull(),
    name: text('name'),
    address: jsonb('address').$type<EstablishmentAddress>().notNull(),
    /** BT-34 (scheme 0225); null: the SIREN is written. */
    electronicAddress: text('electronic_address'),
    isDefault: boolean('is_default').notNull(),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('establishments_list').on(t.companyId, t.livemode, t.id),
    uniqueIndex('establishments_siret').on(t.companyId, t.livemode, t.siret),
    uniqueIndex('establishments_default')
      .on(t.companyId, t.livemode)
      .where(sql`is_default`),
  ],
);
