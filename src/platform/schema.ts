import { sql } from 'drizzle-orm';
import { customType, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';
import { readerColumns } from '../db/reader-claim.js';

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

/**
 * The inbox's reader of each connection (an establishment's platform): one cursor over every flow
 * the service reads (the invoices it deposited and their life cycle, the invoices it receives),
 * one webhook subscription (its signing key sealed), leased so that one poll at a time moves the
 * cursor. A connection that changes (`connectionKey`) is read from the start again: every event
 * is applied once whatever is read again (`platform_status_receipts`). The table kept the name of
 * the deposits' readers it was; migration 0029 brought the received invoices' readers into it.
 */
export const platformReaders = pgTable('platform_readers', readerColumns(), (t) => [
  primaryKey({ columns: [t.companyId, t.livemode, t.establishmentId] }),
]);

/**
 * The receipt of each event the inbox handed to its owner (the event's stable key), whatever its
 * repeats (a poll and a push, a page read again, a platform sending twice): a life-cycle status
 * or acknowledgement (`status:`/`ack:` keys, `owner_id` its document), an unreadable flow skipped
 * (`unreadable:`), an incoming invoice (`incoming:<flowId>`, `owner_id` the received invoice).
 */
export const inboxReceipts = pgTable(
  'platform_status_receipts',
  {
    ...tenantColumns(),
    eventKey: text('event_key').notNull(),
    /** The owner the event was handed to, in its capability (a document, a received invoice); null: none found. */
    ownerId: text('document_id'),
    created: instant('created').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.livemode, t.eventKey] })],
);
