import { request } from 'undici';
import { describeNetworkFailure } from '../kernel/network-failure.js';

/**
 * The part of Stripe's API that card payments use (api.stripe.com, form-encoded bodies, the
 * secret key as a bearer token): a Checkout Session for an invoice's amount due, and a read of
 * the sessions to check that a key works. Every answer is checked field by field; anything else
 * is `unavailable` (never a half-read session).
 */

export interface CheckoutRequest {
  /** Cents, in `currency`. */
  amount: number;
  currency: string;
  /** What the buyer reads on Stripe's page. */
  label: string;
  invoiceId: string;
  companyId: string;
  successUrl: string;
  cancelUrl: string;
  /** Stripe's own idempotency: the same invoice and amount reuse the same session request. */
  idempotencyKey: string;
}

export type StripeAnswer<T> =
  | { outcome: 'ok'; value: T }
  | { outcome: 'refused'; status: number; message: string }
  | { outcome: 'unavailable'; failure: string };

export interface StripeClient {
  createCheckoutSession(
    secretKey: string,
    checkout: CheckoutRequest,
  ): Promise<StripeAnswer<{ id: string; url: string }>>;
  /** Whether the key may use Checkout (a restricted key with Checkout Sessions' permission is enough). */
  checkKey(secretKey: string): Promise<StripeAnswer<true>>;
}

export function checkoutForm(checkout: CheckoutRequest): URLSearchParams {
  return new URLSearchParams([
    ['mode', 'payment'],
    ['line_items[0][quantity]', '1'],
    ['line_items[0][price_data][currency]', checkout.currency.toLowerCase()],
    ['line_items[0][price_data][unit_amount]', String(checkout.amount)],
    ['line_items[0][price_data][product_data][name]', checkout.label],
    ['client_reference_id', checkout.invoiceId],
    ['metadata[facteur_invoice]', checkout.invoiceId],
    ['metadata[facteur_company]', checkout.companyId],
    ['payment_intent_data[metadata][facteur_invoice]', checkout.invoiceId],
    ['payment_intent_data[metadata][facteur_company]', checkout.companyId],
    ['success_url', checkout.successUrl],
    ['cancel_url', checkout.cancelUrl],
  ]);
}

/** Stripe's error object (`{ error: { message } }`) or the status alone. */
function refusalOf(status: number, body: unknown): { outcome: 'refused'; status: number; message: string } {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return { outcome: 'refused', status, message: typeof message === 'string' ? message : `HTTP ${status}` };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function createStripeClient(options: { baseUrl: string; timeoutMs: number }): StripeClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  async function call(
    secretKey: string,
    method: 'GET' | 'POST',
    path: string,
    form?: URLSearchParams,
    idempotencyKey?: string,
  ): Promise<StripeAnswer<unknown>> {
    try {
      const response = await request(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${secretKey}`,
          accept: 'application/json',
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: form?.toString(),
        signal: AbortSignal.timeout(options.timeoutMs),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      const body = parsed(await response.body.text());
      // Stripe's 4xx are answers about the request (a wrong key, a refused parameter); its 5xx and 429 are not.
      if (response.statusCode >= 500 || response.statusCode === 429)
        return { outcome: 'unavailable', failure: `HTTP ${response.statusCode}` };
      if (response.statusCode >= 400) return refusalOf(response.statusCode, body);
      if (body === null) return { outcome: 'unavailable', failure: `HTTP ${response.statusCode}: not a JSON answer` };
      return { outcome: 'ok', value: body };
    } catch (error) {
      return { outcome: 'unavailable', failure: describeNetworkFailure(error, options.timeoutMs) };
    }
  }
  return {
    async createCheckoutSession(secretKey, checkout) {
      const answer = await call(
        secretKey,
        'POST',
        '/v1/checkout/sessions',
        checkoutForm(checkout),
        checkout.idempotencyKey,
      );
      if (answer.outcome !== 'ok') return answer;
      const session = answer.value as { object?: unknown; id?: unknown; url?: unknown };
      if (
        session.object !== 'checkout.session' ||
        typeof session.id !== 'string' ||
        typeof session.url !== 'string' ||
        !session.url.startsWith('https://')
      )
        return { outcome: 'unavailable', failure: 'malformed answer: not a checkout session with its https url' };
      return { outcome: 'ok', value: { id: session.id, url: session.url } };
    },
    async checkKey(secretKey) {
      const answer = await call(secretKey, 'GET', '/v1/checkout/sessions?limit=1');
      if (answer.outcome !== 'ok') return answer;
      if ((answer.value as { object?: unknown }).object !== 'list')
        return { outcome: 'unavailable', failure: 'malformed answer: not a list' };
      return { outcome: 'ok', value: true };
    },
  };
}
