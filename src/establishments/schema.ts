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
 * An establishment may be connected to its approved platform (AFNOR XP Z12-013): base URL, OAuth2
 * client id, the client secret sealed at rest (kernel/sealed-secret.ts, never returned), and the
 * two switches of automatic deposit and e-reporting.
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
    /** The syntax of its deposits when the buyer states none: `cii` (the Factur-X) or `ubl` (migration 0044). */
    einvoiceSyntax: text('einvoice_syntax').notNull().default('cii'),
    isDefault: boolean('is_default').notNull(),
    /** The platform's root (`{baseUrl}/flow-service`, `{baseUrl}/directory-service`); null: not connected. */
    platformBaseUrl: text('platform_base_url'),
    platformClientId: text('platform_client_id'),
    /** Sealed (`v1.<iv>.<tag>.<ciphertext>`); never leaves the service. */
    platformClientSecret: text('platform_client_secret'),
    /** The OAuth2 token endpoint when the platform names one; null: `{baseUrl}/auth-service/{clientId}/token`. */
    platformTokenUrl: text('platform_token_url'),
    platformConnectedAt: instant('platform_connected_at'),
    depositEnabled: boolean('deposit_enabled').notNull().default(false),
    ereportingEnabled: boolean('ereporting_enabled').notNull().default(false),
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
