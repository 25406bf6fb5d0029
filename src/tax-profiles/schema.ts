import { boolean, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

export interface Establishment {
  siret: string | null;
  postalCode: string | null;
  country: string;
}

/** Dated revisions of the seller's tax information. Null declarations are "not declared". */
export const taxProfiles = pgTable(
  'tax_profiles',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    /** `YYYY-MM-DD`, inclusive. */
    validFrom: text('valid_from').notNull(),
    /** `YYYY-MM-DD`, inclusive; null: open-ended. */
    validTo: text('valid_to'),
    establishment: jsonb('establishment').$type<Establishment>().notNull(),
    vatNumber: text('vat_number'),
    /** `normal`, `simplified`, `franchise`. */
    regime: text('regime'),
    vatOnDebits: boolean('vat_on_debits'),
    ossRegistered: boolean('oss_registered'),
    /** `three_per_month`, `monthly`, `bimonthly`. */
    ereportingPeriodicity: text('ereporting_periodicity'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] }), index('tax_profiles_list').on(t.companyId, t.livemode, t.id)],
);
