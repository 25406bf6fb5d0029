import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/**
 * Every consultation of VIES, kept: the latest answer for a number is the cache (its freshness in
 * service.ts), and a valid answer's consultation number (`requestIdentifier`) is the company's
 * proof that the buyer's number was checked on that date. A tenant table: the consultation is made
 * with the company's own VAT number as requester, so its proof is the company's.
 */
export const viesChecks = pgTable(
  'vies_checks',
  {
    ...tenantColumns(),
    /** With its VIES prefix: `DE136695976`, `EL094259216`, `XI…`. */
    vatNumber: text('vat_number').notNull(),
    /** `valid`, `invalid` (VIES says it is not registered) or `unavailable` (no answer: retried later). */
    outcome: text('outcome').notNull(),
    requestIdentifier: text('request_identifier'),
    /** VIES's own date of the answer, as it wrote it. */
    requestDate: text('request_date'),
    traderName: text('trader_name'),
    traderAddress: text('trader_address'),
    /** Why VIES did not answer (`MS_UNAVAILABLE`, `timeout`, `HTTP 503`…). */
    failure: text('failure'),
    checkedAt: instant('checked_at').notNull(),
  },
  (t) => [index('vies_checks_latest').on(t.companyId, t.livemode, t.vatNumber, t.checkedAt)],
);
