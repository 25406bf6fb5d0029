import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';
import type { ReportLine } from './flows.js';

/**
 * E-reporting declarations (`rep_`): what one establishment reports of one flow (10.1 to 10.4)
 * for one period, one row per attempt. A rejected attempt stays as a trace; its retry is a new
 * row (`attempt` + 1) pointing back to it (`previousAttemptId`), and it points forward to the
 * retry (`supersededById`).
 */
export const ereportingDeclarations = pgTable(
  'ereporting_declarations',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    /** The establishment's SIRET (the tax profile's), or null when the profile names none. */
    establishment: text('establishment'),
    /** `10.1`, `10.2`, `10.3` or `10.4`. */
    flow: text('flow').notNull(),
    /** `YYYY-MM-DD/YYYY-MM-DD` (an ISO 8601 interval, both days included). */
    period: text('period').notNull(),
    periodStart: text('period_start').notNull(),
    periodEnd: text('period_end').notNull(),
    /** `reserved`, `submitted`, `accepted` or `rejected`. */
    state: text('state').notNull(),
    attempt: integer('attempt').notNull(),
    previousAttemptId: text('previous_attempt_id'),
    supersededById: text('superseded_by_id'),
    currency: text('currency').notNull(),
    /** The report's lines (aggregated or unitary), as transmitted; null when the facts were lost. */
    lines: jsonb('lines').$type<ReportLine[] | null>(),
    operationCount: integer('operation_count').notNull(),
    taxableAmount: bigint('taxable_amount', { mode: 'number' }).notNull(),
    taxAmount: bigint('tax_amount', { mode: 'number' }).notNull(),
    /** When it may leave: the day after its period, 00:00 UTC (the sandbox clock for test ones). */
    dueAt: instant('due_at').notNull(),
    /**
     * The platform's key of this attempt (`<id>-<attempt>`), set when it is first claimed; its
     * deposit is a flow of the platform's outbox (`platform_flows`, kind `ereporting.declaration`),
     * whose lease says whether a submission is under way.
     */
    trackingId: text('tracking_id'),
    flowId: text('flow_id'),
    paRejectionCode: text('pa_rejection_code'),
    paRejectionReason: text('pa_rejection_reason'),
    /**
     * Why a reserved declaration cannot leave (`ereporting_not_enabled`: its establishment has no
     * platform connection or does not allow e-reporting), or null. Kept up to date by the pass.
     */
    transmissionBlock: text('transmission_block'),
    submittedAt: instant('submitted_at'),
    acceptedAt: instant('accepted_at'),
    rejectedAt: instant('rejected_at'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('ereporting_declarations_list').on(t.companyId, t.livemode, t.id),
    uniqueIndex('ereporting_declarations_key').on(
      t.companyId,
      t.livemode,
      sql`coalesce(${t.establishment}, '')`,
      t.flow,
      t.period,
      t.attempt,
    ),
    index('ereporting_declarations_due')
      .on(t.dueAt)
      .where(sql`state = 'reserved'`),
  ],
);

/**
 * One row per operation reported (a document, a payment, a refund) and flow: the key that
 * reports an operation once. A correction (credit note, refund) is an operation of its own,
 * reported in its own period: a submitted declaration is never rewritten.
 */
export const ereportingOperations = pgTable(
  'ereporting_operations',
  {
    ...tenantColumns(),
    /** `invoice`, `credit_note`, `payment` or `refund`. */
    sourceKind: text('source_kind').notNull(),
    sourceId: text('source_id').notNull(),
    flow: text('flow').notNull(),
    declarationId: text('declaration_id').notNull(),
    /** The operation's date (issue date, payment date). */
    date: text('date').notNull(),
    number: text('number'),
    taxableAmount: bigint('taxable_amount', { mode: 'number' }).notNull(),
    taxAmount: bigint('tax_amount', { mode: 'number' }).notNull(),
    created: instant('created').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.livemode, t.sourceKind, t.sourceId, t.flow] }),
    index('ereporting_operations_by_declaration').on(t.companyId, t.livemode, t.declarationId),
  ],
);

/**
 * The identity of each e-reporting event: one per declaration, attempt and type. A result replayed
 * or raced (the route and the pass, two passes) finds its key taken and records nothing.
 */
export const ereportingEventKeys = pgTable(
  'ereporting_event_keys',
  {
    ...tenantColumns(),
    declarationId: text('declaration_id').notNull(),
    attempt: integer('attempt').notNull(),
    type: text('type').notNull(),
    eventId: text('event_id'),
    created: instant('created').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.livemode, t.declarationId, t.attempt, t.type] })],
);
