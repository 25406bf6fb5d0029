import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { keepRawJsonBody } from '../http/json-body.js';
import { callContext } from '../http/request-context.js';
import { nullable } from '../http/route-schemas.js';
import { refuse } from '../kernel/errors.js';
import { connectStripe, disconnectStripe, getCardPaymentProvider, receiveStripeEvent } from './service.js';

export const providerSchema = Type.Object(
  {
    object: Type.Literal('card_payment_provider'),
    livemode: Type.Boolean(),
    provider: Type.Literal('stripe'),
    secretKeyLast4: Type.String({ description: 'The last four characters of the key; the key itself is never shown.' }),
    secretKeyVerified: Type.Boolean({
      description: 'Whether Stripe accepted the key at connection (false: Stripe did not answer then).',
    }),
    webhookUrl: Type.String({
      description:
        'The URL to give the webhook endpoint created in Stripe, with the events `checkout.session.completed`, `checkout.session.async_payment_succeeded` and `charge.refunded`.',
    }),
    recentEvents: Type.Array(
      Type.Object({
        eventId: Type.String(),
        type: Type.String(),
        outcome: Type.String({
          description: '`recorded` (a payment, or a refund on a credit note) or `ignored` (see `reason`).',
        }),
        paymentId: nullable(Type.String()),
        refundId: nullable(Type.String({ description: 'The refund a `charge.refunded` recorded.' })),
        reason: nullable(Type.String()),
        received: Type.String(),
      }),
      {
        description:
          'The newest events Stripe sent that said a checkout was paid or a charge refunded, newest first (at most 10).',
      },
    ),
    created: Type.String(),
    updated: Type.String(),
  },
  { $id: 'CardPaymentProvider' },
);

const connectBody = Type.Object(
  {
    provider: Type.Literal('stripe'),
    secretKey: Type.String({
      maxLength: 255,
      description:
        'A live secret key (`sk_live_…`) or a restricted key (`rk_live_…`) with write access to Checkout Sessions. Sealed at rest.',
    }),
    webhookSecret: Type.String({
      maxLength: 255,
      description:
        'The signing secret (`whsec_…`) of the webhook endpoint created in Stripe for `webhookUrl`. Sealed at rest.',
    }),
  },
  { additionalProperties: false },
);

/** `/v1/account/card-payments`: the company's Stripe account for card payments on its payment pages. */
export async function cardPaymentRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Account'];
  app.put(
    '/account/card-payments',
    {
      schema: {
        tags,
        summary: 'Connect Stripe for card payments',
        description:
          "Live only (a test key answers `sandbox_payment_unavailable`). Stripe is asked whether the key works first: a refused key is `invalid_field_value` on `secretKey`; when Stripe does not answer the key is kept with `secretKeyVerified: false`. Replaces an earlier connection. Then the invoices' payment pages offer card payment for the amount due.",
        body: connectBody,
        response: { 200: Type.Ref('CardPaymentProvider') },
      },
    },
    async (request) => connectStripe(deps, callContext(request), request.body),
  );
  app.get(
    '/account/card-payments',
    {
      schema: {
        tags,
        summary: 'Retrieve the card payment provider',
        description: '`not_found` when none is connected.',
        response: { 200: Type.Ref('CardPaymentProvider') },
      },
    },
    async (request) => getCardPaymentProvider(deps, callContext(request)),
  );
  app.delete(
    '/account/card-payments',
    {
      schema: {
        tags,
        summary: 'Disconnect the card payment provider',
        description: 'Payment pages stop offering card payment; the payments recorded stay.',
        response: { 200: Type.Object({ deleted: Type.Literal(true) }) },
      },
    },
    async (request) => disconnectStripe(deps, callContext(request)),
  );
}

/**
 * Stripe's webhook (`POST /card-payments/stripe/:companyId`), outside `/v1`: Stripe has no API key,
 * its signature over the raw body (with the company's webhook secret) authenticates it. Anything
 * unsigned, wrongly signed or for a company without Stripe gets `not_found`.
 */
export async function stripeWebhookRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  keepRawJsonBody(app);
  app.post(
    '/card-payments/stripe/:companyId',
    { schema: { hide: true, params: Type.Object({ companyId: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['stripe-signature'];
      const delivery = await receiveStripeEvent(
        deps,
        request.params.companyId,
        raw,
        typeof header === 'string' ? header : undefined,
      );
      if (delivery.kind === 'unknown') throw refuse('not_found', 'No Stripe webhook is expected here.');
      if (delivery.kind === 'malformed')
        throw refuse('validation_error', `Unreadable Stripe event: ${delivery.reason}.`);
      return reply.code(200).send({ received: true, ...delivery });
    },
  );
}
