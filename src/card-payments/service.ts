import type { Deps } from '../deps.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import type { Scope } from '../db/scope.js';
import { isUniqueViolation } from '../db/errors.js';
import { sealContext, sealedColumns } from '../db/sealed-columns.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { notConfigured, stateFromLastExchange, type OutsideServiceState } from '../kernel/outside-service.js';
import { encryptionKeyOf, openSecret, sealSecret } from '../kernel/sealed-secret.js';
import { findPaymentByProviderReference, recordPayment } from '../payments/service.js';
import { refundableCreditNotes, refundedByReference, refundUpTo } from '../invoices/service.js';
import { createStripeClient, type StripeClient } from './stripe-client.js';
import { readStripeEvent, type CardPaymentFacts, type CardRefundFacts } from './stripe-event.js';
import { verifyStripeSignature } from './stripe-signature.js';
import {
  deleteProvider,
  findEvent,
  findProvider,
  insertEvent,
  latestEvents,
  recordExchange,
  upsertProvider,
  type CardPaymentEventRow,
  type CardPaymentProviderRow,
} from './store.js';

/**
 * Card payments through the company's own Stripe account: connected with its secret key (a
 * restricted key with the Checkout Sessions permission is enough) and the signing secret of the
 * webhook endpoint it created in Stripe; the payment page opens a Checkout Session for the amount
 * due; Stripe's signed events record the payment, once per event.
 */

const provider = 'stripe';

export interface CardPaymentProvider {
  object: 'card_payment_provider';
  livemode: boolean;
  provider: 'stripe';
  secretKeyLast4: string;
  /** Whether Stripe accepted the key when it was connected (false: Stripe did not answer then). */
  secretKeyVerified: boolean;
  /** Where the company points its Stripe webhook endpoint (`checkout.session.completed`, `checkout.session.async_payment_succeeded`, `charge.refunded`). */
  webhookUrl: string;
  /** The newest events Stripe sent, newest first (at most 10). */
  recentEvents: {
    eventId: string;
    type: string;
    outcome: string;
    paymentId: string | null;
    refundId: string | null;
    reason: string | null;
    received: string;
  }[];
  created: string;
  updated: string;
}

export interface StripeConnectionInput {
  secretKey: string;
  webhookSecret: string;
}

const clients = new Map<string, StripeClient>();

function clientOf(config: Deps['config']): StripeClient {
  const key = `${config.stripeApiUrl} ${config.stripeTimeoutMs}`;
  let client = clients.get(key);
  if (!client) {
    client = createStripeClient({ baseUrl: config.stripeApiUrl, timeoutMs: config.stripeTimeoutMs });
    clients.set(key, client);
  }
  return client;
}

const keyContext = (scope: Scope) => sealContext(sealedColumns.stripeSecretKey, [scope.companyId, scope.livemode]);
const webhookContext = (scope: Scope) =>
  sealContext(sealedColumns.stripeWebhookSecret, [scope.companyId, scope.livemode]);

export const webhookUrlOf = (deps: Pick<Deps, 'config'>, companyId: string) =>
  `${deps.config.publicUrl}/card-payments/stripe/${companyId}`;

function toProvider(
  deps: Pick<Deps, 'config'>,
  row: CardPaymentProviderRow,
  events: CardPaymentEventRow[],
): CardPaymentProvider {
  return {
    object: 'card_payment_provider',
    livemode: row.livemode,
    provider: 'stripe',
    secretKeyLast4: row.secretKeyLast4,
    secretKeyVerified: row.secretKeyVerifiedAt !== null,
    webhookUrl: webhookUrlOf(deps, row.companyId),
    recentEvents: events.map((event) => ({
      eventId: event.eventId,
      type: event.type,
      outcome: event.outcome,
      paymentId: event.paymentId,
      refundId: event.refundId,
      reason: event.reason,
      received: event.received.toISOString(),
    })),
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

/** Online payment is refused in the sandbox (the contract): test mode connects no provider either. */
function refuseTestMode(scope: Scope): void {
  if (!scope.livemode) throw new ApiError('sandbox_payment_unavailable', { status: 409 });
}

/** A live key only: a Stripe test key would record payments nobody made on legal invoices. */
function checkInput(input: StripeConnectionInput): void {
  if (!/^(sk|rk)_live_[A-Za-z0-9]{10,240}$/.test(input.secretKey))
    throw refuse(
      'invalid_field_value',
      '`secretKey` must be a live Stripe secret or restricted key (`sk_live_…` or `rk_live_…`).',
      { param: 'secretKey' },
    );
  if (!/^whsec_[A-Za-z0-9+/=_-]{10,240}$/.test(input.webhookSecret))
    throw refuse('invalid_field_value', "`webhookSecret` must be the webhook endpoint's signing secret (`whsec_…`).", {
      param: 'webhookSecret',
    });
}

/** `PUT /v1/account/card-payments`: connects (or replaces) the Stripe account, once Stripe accepted the key. */
export async function connectStripe(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  input: StripeConnectionInput,
): Promise<CardPaymentProvider> {
  refuseTestMode(ctx.scope);
  checkInput(input);
  const check = await clientOf(deps.config).checkKey(input.secretKey);
  if (check.outcome === 'refused')
    throw refuse('invalid_field_value', `Stripe refused the key: ${check.message}`, { param: 'secretKey' });
  // Stripe not answering says nothing of the key: it is kept unverified, and a refused checkout
  // later shows in the payment page's log (the check runs again at the next connection).
  const verified = check.outcome === 'ok';
  const key = encryptionKeyOf(deps.config);
  return inTransaction(deps.db, ctx, async (tx) => {
    const existing = await findProvider(tx, ctx.scope);
    const row: CardPaymentProviderRow = {
      ...ctx.scope,
      provider,
      secretKey: sealSecret(key, input.secretKey, keyContext(ctx.scope)),
      secretKeyLast4: input.secretKey.slice(-4),
      secretKeyVerifiedAt: verified ? ctx.now : null,
      webhookSecret: sealSecret(key, input.webhookSecret, webhookContext(ctx.scope)),
      lastExchangeAt: ctx.now,
      lastFailure: check.outcome === 'unavailable' ? check.failure : null,
      created: existing?.created ?? ctx.now,
      updated: ctx.now,
    };
    await upsertProvider(tx, row);
    return toProvider(deps, row, await latestEvents(tx, ctx.scope, 10));
  });
}

/** `GET /v1/account/card-payments`. */
export async function getCardPaymentProvider(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
): Promise<CardPaymentProvider> {
  return inTransaction(deps.db, ctx, async (tx) => {
    const row = await findProvider(tx, ctx.scope);
    if (!row) throw refuse('not_found', 'No card payment provider is connected.');
    return toProvider(deps, row, await latestEvents(tx, ctx.scope, 10));
  });
}

/** `DELETE /v1/account/card-payments`: payment pages stop offering card payment; recorded payments stay. */
export async function disconnectStripe(deps: Pick<Deps, 'db'>, ctx: CallContext): Promise<{ deleted: true }> {
  return inTransaction(deps.db, ctx, async (tx) => {
    if (!(await deleteProvider(tx, ctx.scope))) throw refuse('not_found', 'No card payment provider is connected.');
    return { deleted: true as const };
  });
}

/**
 * Card payments as the account's services see them: none in test mode (the sandbox takes no
 * online payment); in live, the connected provider's health from its last exchange (the key check
 * at connection, a checkout opened or refused, a signed event received).
 */
export async function cardPaymentServiceState(deps: Pick<Deps, 'db'>, scope: Scope): Promise<OutsideServiceState> {
  if (!scope.livemode) return notConfigured;
  const row = await inTransaction(deps.db, liveContext(scope.companyId, new Date()), (tx) => findProvider(tx, scope));
  if (!row) return notConfigured;
  return stateFromLastExchange(
    row.provider,
    row.lastExchangeAt ? { at: row.lastExchangeAt, failure: row.lastFailure } : null,
  );
}

/** A company's context outside any request (the payment page, Stripe's webhook): live, now. */
const liveContext = (companyId: string, now: Date): CallContext => ({
  scope: { companyId, livemode: true },
  requestId: null,
  idempotencyKey: null,
  apiVersion: 'card-payments',
  now,
});

/** Whether a live company offers card payment on its payment pages. */
export async function cardPaymentOffered(deps: Pick<Deps, 'db'>, companyId: string): Promise<boolean> {
  return inTransaction(deps.db, liveContext(companyId, new Date()), async (tx) =>
    Boolean(await findProvider(tx, { companyId, livemode: true })),
  );
}

export interface CheckoutInvoice {
  companyId: string;
  invoiceId: string;
  number: string;
  sellerName: string;
  /** Cents. */
  amountDue: number;
  currency: string;
  /** The payment page's address: Stripe sends the buyer back there. */
  pageUrl: string;
}

export type CheckoutStart =
  { kind: 'redirect'; url: string } | { kind: 'not_connected' } | { kind: 'unavailable'; failure: string };

/** The payment page's "pay by card": a Checkout Session for the amount due, the buyer sent to it. */
export async function startCardCheckout(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  invoice: CheckoutInvoice,
): Promise<CheckoutStart> {
  const scope = { companyId: invoice.companyId, livemode: true };
  const row = await inTransaction(deps.db, liveContext(invoice.companyId, new Date()), (tx) => findProvider(tx, scope));
  if (!row) return { kind: 'not_connected' };
  const secretKey = openSecret(encryptionKeyOf(deps.config), row.secretKey, keyContext(scope));
  const answer = await clientOf(deps.config).createCheckoutSession(secretKey, {
    amount: invoice.amountDue,
    currency: invoice.currency,
    label: `Facture ${invoice.number} – ${invoice.sellerName}`,
    invoiceId: invoice.invoiceId,
    companyId: invoice.companyId,
    successUrl: `${invoice.pageUrl}?checkout=success`,
    cancelUrl: `${invoice.pageUrl}?checkout=cancelled`,
    // The same invoice and amount due reuse one session (Stripe keeps the key 24 hours): a buyer
    // who clicks twice is not sent to two sessions for the same money.
    idempotencyKey: `facteur-checkout-${invoice.invoiceId}-${invoice.amountDue}`,
  });
  const noteExchange = (failure: string | null) =>
    inTransaction(deps.db, liveContext(invoice.companyId, new Date()), (tx) =>
      recordExchange(tx, scope, new Date(), failure),
    );
  if (answer.outcome === 'ok') {
    await noteExchange(null);
    return { kind: 'redirect', url: answer.value.url };
  }
  const failure =
    answer.outcome === 'refused' ? `Stripe refused (${answer.status}): ${answer.message}` : answer.failure;
  await noteExchange(failure);
  deps.log.warn({ companyId: invoice.companyId, invoiceId: invoice.invoiceId, failure }, 'card checkout not opened');
  return { kind: 'unavailable', failure };
}

export type StripeDelivery =
  | { kind: 'unknown' }
  | { kind: 'malformed'; reason: string }
  | {
      kind: 'acknowledged';
      eventId: string;
      outcome: 'recorded' | 'ignored' | 'duplicate' | 'other';
      paymentId: string | null;
      refundId: string | null;
    };

/** Why an event that says "paid" records nothing: kept with the event, shown on the provider. */
function ignoredPaymentReason(facts: CardPaymentFacts, companyId: string): string | null {
  if (!facts.livemode) return stripeTestMode;
  if (facts.companyId !== null && facts.companyId !== companyId)
    return 'another_company: the session names another company';
  if (!facts.invoiceId) return 'no_invoice: the session names no invoice';
  return currencyReason(facts.currency);
}

const stripeTestMode = 'stripe_test_mode: a Stripe test event records nothing on a live invoice';
const currencyReason = (currency: string) => (currency === 'EUR' ? null : `currency: ${currency}, invoices are in EUR`);

/** What one event does, once: its row written in the transaction of its effect. */
interface EventApplication {
  ctx: CallContext;
  facts: { eventId: string; type: string };
  /** The event's row, as applied (`recorded`, with what it recorded) or `ignored` with the reason. */
  row: (
    outcome: 'recorded' | 'ignored',
    effect: { paymentId?: string; refundId?: string },
    reason: string | null,
  ) => CardPaymentEventRow;
  ignore: (reason: string) => Promise<StripeDelivery>;
}

/**
 * `POST /card-payments/stripe/:companyId`: a Stripe event, signed with the company's webhook
 * secret. A paid checkout records the payment (`payment.received`, `method: card`), a refunded
 * charge the refund on the invoice's credit note, each in the transaction that writes the event's
 * id, so a redelivered or replayed event records nothing more; one that cannot apply (the invoice
 * paid meanwhile, a test event, no credit note to refund on) is kept as ignored with its reason and
 * acknowledged, since Stripe retrying it would change nothing.
 */
export async function receiveStripeEvent(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  companyId: string,
  raw: Buffer,
  signature: string | undefined,
  now: Date = new Date(),
): Promise<StripeDelivery> {
  const ctx = liveContext(companyId, now);
  const row = await inTransaction(deps.db, ctx, (tx) => findProvider(tx, ctx.scope));
  if (!row) return { kind: 'unknown' };
  const secret = openSecret(encryptionKeyOf(deps.config), row.webhookSecret, webhookContext(ctx.scope));
  if (!verifyStripeSignature(raw, signature, secret, now).valid) return { kind: 'unknown' };
  // A signed event is Stripe reaching us: the connection works, whatever the event says.
  await inTransaction(deps.db, ctx, (tx) => recordExchange(tx, ctx.scope, now, null));
  const reading = readStripeEvent(raw);
  if (reading.kind === 'malformed') return reading;
  if (reading.kind === 'other')
    return { kind: 'acknowledged', eventId: reading.eventId, outcome: 'other', paymentId: null, refundId: null };
  const { facts } = reading;
  const known = await inTransaction(deps.db, ctx, (tx) => findEvent(tx, ctx.scope, provider, facts.eventId));
  if (known)
    return {
      kind: 'acknowledged',
      eventId: facts.eventId,
      outcome: 'duplicate',
      paymentId: known.paymentId,
      refundId: known.refundId,
    };
  const eventRow: EventApplication['row'] = (outcome, effect, reason) => ({
    ...ctx.scope,
    provider,
    eventId: facts.eventId,
    type: facts.type,
    outcome,
    paymentId: effect.paymentId ?? null,
    refundId: effect.refundId ?? null,
    reason,
    received: now,
  });
  const ignore = async (reason: string): Promise<StripeDelivery> => {
    deps.log.warn({ companyId, eventId: facts.eventId, reason }, 'stripe event ignored');
    const inserted = await inTransaction(deps.db, ctx, (tx) => insertEvent(tx, eventRow('ignored', {}, reason)));
    return acknowledged(facts.eventId, inserted ? 'ignored' : 'duplicate');
  };
  const application: EventApplication = { ctx, facts, row: eventRow, ignore };
  try {
    return reading.kind === 'payment'
      ? await applyPayment(deps, application, reading.facts)
      : await applyRefund(deps, application, reading.facts);
  } catch (error) {
    // The same event delivered twice at once: the other delivery's transaction wrote it first.
    if (isUniqueViolation(error)) return acknowledged(facts.eventId, 'duplicate');
    if (error instanceof ApiError && error.status < 500) return ignore(`${error.code}: ${error.message}`);
    throw error;
  }
}

const acknowledged = (
  eventId: string,
  outcome: 'recorded' | 'ignored' | 'duplicate',
  effect: { paymentId?: string; refundId?: string } = {},
): StripeDelivery => ({
  kind: 'acknowledged',
  eventId,
  outcome,
  paymentId: effect.paymentId ?? null,
  refundId: effect.refundId ?? null,
});

/** A paid checkout: the payment recorded through `recordPayment`, as any payment. */
async function applyPayment(
  deps: Pick<Deps, 'db'>,
  { ctx, row, ignore }: EventApplication,
  facts: CardPaymentFacts,
): Promise<StripeDelivery> {
  const reason = ignoredPaymentReason(facts, ctx.scope.companyId);
  if (reason) return ignore(reason);
  const paymentId = newId('payment', ctx.now);
  await recordPayment(
    deps,
    { ...ctx, markEffect: async (tx) => void (await insertEvent(tx, row('recorded', { paymentId }, null))) },
    {
      invoiceId: facts.invoiceId!,
      amount: facts.amount,
      method: 'card',
      reference: facts.paymentIntent ?? facts.sessionId,
      paidAt: facts.created.toISOString(),
      metadata: { stripeCheckoutSession: facts.sessionId, stripeEvent: facts.eventId },
    },
    { recordedBy: 'stripe', paymentId },
  );
  return acknowledged(facts.eventId, 'recorded', { paymentId });
}

/**
 * A refunded charge. In facteur money goes back to a buyer through a credit note (the legal
 * document that lowers what the invoice asks), so the refund goes on the oldest finalized credit
 * note of the paid invoice that can take it, as a refund with `method: card` and the PaymentIntent
 * as `reference`. Stripe reports the charge's refunds as a running total: the refunds already
 * recorded under that reference are counted, so two events, in either order or at once, record the
 * total once. No credit note to take it: ignored, with what the company has to do.
 */
async function applyRefund(
  deps: Pick<Deps, 'db'>,
  { ctx, facts: event, row, ignore }: EventApplication,
  facts: CardRefundFacts,
): Promise<StripeDelivery> {
  if (!facts.livemode) return ignore(stripeTestMode);
  const currency = currencyReason(facts.currency);
  if (currency) return ignore(currency);
  const payment = await findPaymentByProviderReference(deps, ctx.scope, provider, facts.paymentIntent);
  if (!payment) return ignore(`unknown_payment: no card payment was recorded for ${facts.paymentIntent}`);
  const already = await refundedByReference(deps, ctx.scope, payment.invoiceId, facts.paymentIntent);
  const missing = facts.amountRefunded - already;
  if (missing <= 0)
    return ignore(`already_recorded: ${already} cents are recorded as refunded for ${facts.paymentIntent}`);
  const notes = await refundableCreditNotes(deps, ctx.scope, payment.invoiceId);
  const note = notes.find((candidate) => candidate.refundable >= missing);
  if (!note)
    return ignore(
      `unmatched: ${missing} cents refunded in Stripe, and invoice ${payment.invoiceId} has no finalized credit note with as much left to refund. ` +
        `Issue the credit note, then record the refund on it (POST /v1/credit-notes/{id}/refunds) with method card and reference ${facts.paymentIntent}.`,
    );
  let outcome: 'recorded' | 'ignored' = 'recorded';
  const refund = await refundUpTo(
    deps,
    ctx,
    note.id,
    {
      reference: facts.paymentIntent,
      total: facts.amountRefunded,
      method: 'card',
      refundedAt: facts.created,
      metadata: { stripeCharge: facts.chargeId, stripeEvent: facts.eventId },
    },
    async (tx, recorded) => {
      // Another event of the same charge recorded the total first, in the meantime.
      if (!recorded) outcome = 'ignored';
      await insertEvent(
        tx,
        recorded
          ? row('recorded', { refundId: recorded.id }, null)
          : row(
              'ignored',
              {},
              `already_recorded: the refunds of ${facts.paymentIntent} already add up to ${facts.amountRefunded} cents`,
            ),
      );
    },
  );
  return acknowledged(event.eventId, outcome, refund ? { refundId: refund.id } : {});
}
