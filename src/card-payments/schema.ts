import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/**
 * The company's card payment provider (Stripe): its secret key and webhook signing secret, both
 * sealed (kernel/sealed-secret.ts) under the row's key. One per environment; only live uses it
 * (a test invoice's online payment is refused, the contract's sandbox rule).
 */
export const cardPaymentProviders = pgTable(
  'card_payment_providers',
  {
    ...tenantColumns(),
    provider: text('provider').notNull(),
    secretKey: text('secret_key').notNull(),
    /** The key's last four characters, shown back (the key itself never is). */
    secretKeyLast4: text('secret_key_last4').notNull(),
    /** When Stripe accepted the key; null when Stripe did not answer at connection. */
    secretKeyVerifiedAt: instant('secret_key_verified_at'),
    webhookSecret: text('webhook_secret').notNull(),
    /** The last time facteur and Stripe spoke (the key check, a checkout, a valid event), for the services' health. */
    lastExchangeAt: instant('last_exchange_at'),
    /** What went wrong at that exchange (Stripe down, the key refused); null when it went through. */
    lastFailure: text('last_failure'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.livemode] })],
);

/**
 * Every provider event applied, by its id: written in the transaction that records its payment,
 * so an event delivered twice (Stripe retries, a replay) records one payment.
 */
export const cardPaymentEvents = pgTable(
  'card_payment_events',
  {
    ...tenantColumns(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    /** `recorded` (the payment's or the refund's id beside it) or `ignored` with the reason. */
    outcome: text('outcome').notNull(),
    paymentId: text('payment_id'),
    refundId: text('refund_id'),
    reason: text('reason'),
    received: instant('received').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.livemode, t.provider, t.eventId] })],
);
