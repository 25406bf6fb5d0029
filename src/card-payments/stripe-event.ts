/**
 * What a Stripe webhook event says about an invoice's card payment, read field by field (Stripe's
 * `event` object, its `data.object` a `checkout.session`). Pure.
 *
 * - `checkout.session.completed` with `payment_status: paid` (a card), and
 *   `checkout.session.async_payment_succeeded` (a delayed method), record the payment;
 * - `charge.refunded` (its `data.object` a `charge`) says how much of a card payment was given back
 *   so far, all refunds together (`amount_refunded`);
 * - any other type is acknowledged and left alone (an endpoint may be subscribed to more).
 */

export interface CardPaymentFacts {
  eventId: string;
  type: string;
  livemode: boolean;
  /** When Stripe created the event: the payment's date. */
  created: Date;
  sessionId: string;
  /** The PaymentIntent (`pi_…`): the payment's reference, what the company finds in Stripe. */
  paymentIntent: string | null;
  invoiceId: string | null;
  companyId: string | null;
  /** Cents. */
  amount: number;
  currency: string;
}

export interface CardRefundFacts {
  eventId: string;
  type: string;
  livemode: boolean;
  /** When Stripe created the event: the refund's date. */
  created: Date;
  chargeId: string;
  /** The PaymentIntent whose payment is refunded: the reference its payment was recorded under. */
  paymentIntent: string;
  /** Cents refunded on the charge so far, every refund of it together. */
  amountRefunded: number;
  currency: string;
}

export type StripeEventReading =
  | { kind: 'payment'; facts: CardPaymentFacts }
  | { kind: 'refund'; facts: CardRefundFacts }
  | { kind: 'other'; eventId: string; type: string }
  | { kind: 'malformed'; reason: string };

const paymentTypes = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export function readStripeEvent(raw: Buffer): StripeEventReading {
  let event: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      return { kind: 'malformed', reason: 'not an object' };
    event = parsed as Record<string, unknown>;
  } catch {
    return { kind: 'malformed', reason: 'not JSON' };
  }
  const eventId = text(event.id);
  const type = text(event.type);
  if (event.object !== 'event' || !eventId || !type) return { kind: 'malformed', reason: 'not a Stripe event' };
  if (type === 'charge.refunded') return readChargeRefunded(event, eventId, type);
  if (!paymentTypes.has(type)) return { kind: 'other', eventId, type };
  const session = (event.data as { object?: Record<string, unknown> } | undefined)?.object;
  if (!session || session.object !== 'checkout.session' || !text(session.id))
    return { kind: 'malformed', reason: 'no checkout session in data.object' };
  if (type === 'checkout.session.completed' && session.payment_status !== 'paid')
    return { kind: 'other', eventId, type: `${type} (${String(session.payment_status)})` };
  const amount = session.amount_total;
  const created = event.created;
  if (
    !Number.isSafeInteger(amount) ||
    (amount as number) <= 0 ||
    !text(session.currency) ||
    !Number.isSafeInteger(created)
  )
    return { kind: 'malformed', reason: 'no amount_total, currency or created' };
  const metadata = (session.metadata ?? {}) as Record<string, unknown>;
  return {
    kind: 'payment',
    facts: {
      eventId,
      type,
      livemode: event.livemode === true,
      created: new Date((created as number) * 1000),
      sessionId: session.id as string,
      paymentIntent: text(session.payment_intent),
      invoiceId: text(session.client_reference_id) ?? text(metadata.facteur_invoice),
      companyId: text(metadata.facteur_company),
      amount: amount as number,
      currency: (session.currency as string).toUpperCase(),
    },
  };
}

function readChargeRefunded(event: Record<string, unknown>, eventId: string, type: string): StripeEventReading {
  const charge = (event.data as { object?: Record<string, unknown> } | undefined)?.object;
  if (!charge || charge.object !== 'charge' || !text(charge.id))
    return { kind: 'malformed', reason: 'no charge in data.object' };
  const paymentIntent = text(charge.payment_intent);
  const refunded = charge.amount_refunded;
  if (
    !paymentIntent ||
    !Number.isSafeInteger(refunded) ||
    (refunded as number) < 0 ||
    !text(charge.currency) ||
    !Number.isSafeInteger(event.created)
  )
    return { kind: 'malformed', reason: 'no payment_intent, amount_refunded, currency or created' };
  return {
    kind: 'refund',
    facts: {
      eventId,
      type,
      livemode: event.livemode === true,
      created: new Date((event.created as number) * 1000),
      chargeId: charge.id as string,
      paymentIntent,
      amountRefunded: refunded as number,
      currency: (charge.currency as string).toUpperCase(),
    },
  };
}
