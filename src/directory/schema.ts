import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/**
 * Every live look-up of a SIRET (or a SIREN) in the company directory (Sirene, else the connected platform's
 * Directory Service), kept: the latest answer for a SIRET is the cache (its freshness in
 * service.ts). A tenant table: the platform's directory is reached with the company's connection.
 */
export const directoryChecks = pgTable(
  'directory_checks',
  {
    ...tenantColumns(),
    /** The SIRET (14 digits) or, for a customer without one, the SIREN (9 digits) looked up. */
    identifier: text('identifier').notNull(),
    /** `sirene` or `platform`: who answered (`none` when nobody could). */
    source: text('source').notNull(),
    /** `found`, `not_found` or `unavailable` (no answer: asked again later). */
    outcome: text('outcome').notNull(),
    closed: boolean('closed').notNull(),
    nameHidden: boolean('name_hidden').notNull(),
    addressHidden: boolean('address_hidden').notNull(),
    legalName: text('legal_name'),
    /** Why the directory did not answer (`HTTP 429`, `timeout`…). */
    failure: text('failure'),
    checkedAt: instant('checked_at').notNull(),
  },
  (t) => [index('directory_checks_latest').on(t.companyId, t.livemode, t.identifier, t.checkedAt)],
);
