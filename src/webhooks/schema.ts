import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    /** The signing secret, sealed (kernel/sealed-secret.ts, db/sealed-columns.ts). */
    secret: text('secret').notNull(),
    /** The secret's last four characters: what reads show of it (`whsec_…abcd`), without opening it. */
    secretHint: text('secret_hint').notNull(),
    /** After a rotation, the old secret (sealed) also signs until `previous_secret_expires_at`. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: instant('previous_secret_expires_at'),
    status: text('status').notNull(),
    disabledReason: text('disabled_reason'),
    /** Start of the current run of failures; null after any success. */
    failingSince: instant('failing_since'),
    lastAlertAt: instant('last_alert_at'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
    deletedAt: instant('deleted_at'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('webhook_endpoints_list').on(t.companyId, t.livemode, t.id),
  ],
);

/** One delivery of one event to one endpoint in one generation (replay cycle): the durable job. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    eventId: text('event_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    generation: integer('generation').notNull(),
    /** `pending` (an attempt is due at next_attempt_at), `delivered`, or `failed` (attempts exhausted). */
    state: text('state').notNull(),
    attemptCount: integer('attempt_count').notNull(),
    nextAttemptAt: instant('next_attempt_at'),
    lockedUntil: instant('locked_until'),
    lockToken: text('lock_token'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('webhook_deliveries_generation').on(t.companyId, t.eventId, t.endpointId, t.generation),
    index('webhook_deliveries_due')
      .on(t.nextAttemptAt)
      .where(sql`state = 'pending'`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    ...tenantColumns(),
    deliveryId: text('delivery_id').notNull(),
    attempt: integer('attempt').notNull(),
    eventId: text('event_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    generation: integer('generation').notNull(),
    startedAt: instant('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.deliveryId, t.attempt] }),
    index('webhook_attempts_event').on(t.companyId, t.eventId),
  ],
);

/** The outbox: every event, kept for its retention, delivered to the endpoints. */
export const events = pgTable(
  'events',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    type: text('type').notNull(),
    apiVersion: text('api_version').notNull(),
    created: instant('created').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** 90 days after creation, pushed to 90 days after the last successful delivery. */
    retainedUntil: instant('retained_until').notNull(),
    request: jsonb('request').$type<{ id: string | null; idempotency_key: string | null } | null>(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('events_list').on(t.companyId, t.livemode, t.id),
    index('events_by_type').on(t.companyId, t.livemode, t.type, t.id),
    index('events_retention').on(t.retainedUntil),
  ],
);
