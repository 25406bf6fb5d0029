import { sql } from 'drizzle-orm';
import { customType, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

const bytes = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The outbox of the exchange with the platforms: one row per flow a capability sends (a payment
 * statement, the answer to a received invoice), written in the transaction of the change that
 * needs it, deposited by one code path (platform/outbox.ts) outside any transaction: leased,
 * searched by its tracking id after an earlier try, deposited, its outcome handed back to the
 * capability that owns it (its kind's descriptor, platform/flows.ts).
 *
 * `state`: `pending` (to deposit; leased while a deposit is in flight), `deposited` (the platform
 * holds it: `flow_id`), `failed` (the platform refused or could not take it; the owner decides
 * whether to queue it again), `abandoned` (its lease lapsed, the platform holds nothing, and its
 * kind does not deposit on its own what a request was waiting for).
 */
export const platformFlows = pgTable(
  'platform_flows',
  {
    ...tenantColumns(),
    kind: text('kind').notNull(),
    /** The owner's id in its capability (`pay_...`, `rin_...`). */
    ownerId: text('owner_id').notNull(),
    /** The platform's key of this flow (AFNOR `trackingId`, at most 64 characters): unique per environment. */
    trackingId: text('tracking_id').notNull(),
    /** The establishment whose connection carries it; null: the company's default one (the sandbox's in test). */
    establishmentId: text('establishment_id'),
    /** The file, as deposited (a CDAR is a few kB). */
    file: bytes('file').notNull(),
    name: text('name').notNull(),
    syntax: text('syntax').notNull(),
    /** What the owner needs to record the platform's word without its request (what an answer said). */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    state: text('state').notNull(),
    /** Deposit tries so far: a try after the first searches the platform for the tracking id first. */
    tries: integer('tries').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull(),
    lockedUntil: instant('locked_until'),
    lockToken: text('lock_token'),
    flowId: text('flow_id'),
    lastError: text('last_error'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.livemode, t.trackingId] }),
    index('platform_flows_owner').on(t.companyId, t.livemode, t.ownerId),
    index('platform_flows_due')
      .on(t.nextAttemptAt)
      .where(sql`state = 'pending'`),
  ],
);
