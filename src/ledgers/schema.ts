import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/** One EU B2C threshold ledger per company, environment and calendar year. Figures are cents. */
export const euThresholdLedgers = pgTable(
  'eu_threshold_ledgers',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    year: integer('year').notNull(),
    /** `open`, or `under_review` (its total is recognized as wrong) until a reconciliation. */
    status: text('status').notNull(),
    previousDistanceSales: bigint('previous_distance_sales', { mode: 'number' }).notNull(),
    previousElectronicServices: bigint('previous_electronic_services', { mode: 'number' }).notNull(),
    /** Running totals of what is certainly counted (opening, adjustments, counted shares, minus corrections). */
    countedDistanceSales: bigint('counted_distance_sales', { mode: 'number' }).notNull(),
    countedElectronicServices: bigint('counted_electronic_services', { mode: 'number' }).notNull(),
    /** Other sales channels are declared complete up to this day (`YYYY-MM-DD`). */
    coveredUntil: text('covered_until'),
    /** The newest movement: a reconciliation names it to prove it saw everything. */
    lastEntryId: text('last_entry_id'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('eu_threshold_ledgers_year').on(t.companyId, t.livemode, t.year),
  ],
);

/** Movements of a ledger (`ledg_`): append-only, except a reservation's state and a movement's corrected sums. */
export const euThresholdEntries = pgTable(
  'eu_threshold_entries',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    ledgerId: text('ledger_id').notNull(),
    /** `opening`, `adjustment`, `reservation`, `correction`, `review`, `reconciliation`. */
    kind: text('kind').notNull(),
    reference: text('reference'),
    /** What the client sent under `reference`, canonical: the same reference with other content is a conflict. */
    fingerprint: text('fingerprint'),
    distanceSales: bigint('distance_sales', { mode: 'number' }).notNull(),
    electronicServices: bigint('electronic_services', { mode: 'number' }).notNull(),
    /** What corrections gave back from this movement so far. */
    correctedDistanceSales: bigint('corrected_distance_sales', { mode: 'number' }).notNull(),
    correctedElectronicServices: bigint('corrected_electronic_services', { mode: 'number' }).notNull(),
    coveredUntil: text('covered_until'),
    operationDate: text('operation_date'),
    /** A reservation: `reserved` (until `expires_at`), `counted`, or `released`. */
    state: text('state'),
    expiresAt: instant('expires_at'),
    decisionId: text('decision_id'),
    targetEntryId: text('target_entry_id'),
    reason: text('reason'),
    created: instant('created').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('eu_threshold_entries_ledger').on(t.companyId, t.ledgerId, t.id),
    uniqueIndex('eu_threshold_entries_reference')
      .on(t.companyId, t.ledgerId, t.reference)
      .where(sql`reference is not null`),
    index('eu_threshold_entries_decision')
      .on(t.companyId, t.decisionId)
      .where(sql`decision_id is not null`),
    index('eu_threshold_entries_reserved')
      .on(t.companyId, t.ledgerId)
      .where(sql`state = 'reserved'`),
  ],
);
