import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';
import { companies } from '../companies/schema.js';

/**
 * The account holder's subscription: one per company, shared by both environments like the
 * company itself (so not fenced by environment). The plan lives here and only here; billing is
 * outside the service (no provider subscription).
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    companyId: text('company_id')
      .primaryKey()
      .references(() => companies.id),
    /** `free`, `essential` or `pro` (kernel/plans.ts). */
    plan: text('plan').notNull(),
    /** `active`, `paused` or `cancelled`. */
    status: text('status').notNull(),
    /** The current monthly period: a calendar month (UTC), the first one from the creation. */
    currentPeriodStart: instant('current_period_start').notNull(),
    currentPeriodEnd: instant('current_period_end').notNull(),
    pausedAt: instant('paused_at'),
    /** A pause with an end resumes by itself then. */
    pausedUntil: instant('paused_until'),
    cancelledAt: instant('cancelled_at'),
    /** Why the last change happened, as its event said. */
    reason: text('reason'),
    /**
     * The Stripe subscription it follows, when the operator bills through Stripe Billing: Stripe's
     * events then move it, and neither the API nor the periodic pass does.
     */
    providerSubscriptionId: text('provider_subscription_id'),
    /** When Stripe created the last event applied: an older one, delivered late, changes nothing. */
    providerSyncedAt: instant('provider_synced_at'),
    /** False for subscriptions made by the migration: `subscription.created` is still to be emitted. */
    announced: boolean('announced').notNull().default(true),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    index('subscriptions_period_end')
      .on(t.currentPeriodEnd)
      .where(sql`status = 'active'`),
    index('subscriptions_paused_until')
      .on(t.pausedUntil)
      .where(sql`status = 'paused' and paused_until is not null`),
    index('subscriptions_unannounced')
      .on(t.companyId)
      .where(sql`not announced`),
    uniqueIndex('subscriptions_provider_subscription')
      .on(t.providerSubscriptionId)
      .where(sql`provider_subscription_id is not null`),
  ],
);

/**
 * Every Stripe Billing event applied, by its id (operator level, no tenant): written in the
 * transaction that moves the subscription, so a redelivered event moves nothing.
 */
export const billingEvents = pgTable(
  'billing_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    companyId: text('company_id'),
    /** `applied`, `unchanged` or `ignored` with the reason. */
    outcome: text('outcome').notNull(),
    reason: text('reason'),
    received: instant('received').notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/**
 * The bytes of stored files per company and environment, against the plan's storage (each
 * environment has the plan's storage, as it has the plan's webhook endpoints).
 */
export const storageUsage = pgTable(
  'storage_usage',
  {
    ...tenantColumns(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.livemode] })],
);
