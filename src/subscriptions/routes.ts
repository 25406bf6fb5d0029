import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { nullable } from '../http/route-schemas.js';
import { planNames } from '../kernel/plans.js';
import { subscriptionStatuses } from './subscription-rules.js';
import { keepRawJsonBody } from '../http/json-body.js';
import { refuse } from '../kernel/errors.js';
import { changePlan, getSubscription, moveSubscription, receiveStripeBillingEvent } from './service.js';

const tags = ['Subscription'];

export const subscriptionSchema = Type.Object(
  {
    object: Type.Literal('subscription'),
    livemode: Type.Boolean({ description: "The calling key's environment; the subscription is the same in both." }),
    plan: Type.Union(planNames.map((plan) => Type.Literal(plan))),
    status: Type.Union(
      subscriptionStatuses.map((status) => Type.Literal(status)),
      {
        description: '`paused` and `cancelled` block writing operations with `subscription_paused`.',
      },
    ),
    providerSubscriptionId: nullable(
      Type.String({
        description:
          "The Stripe subscription it follows when the operator bills through Stripe Billing (`sub_…`): Stripe's events then move it. Null when billing is outside the service.",
      }),
    ),
    currentPeriodStart: Type.String({ description: 'Periods follow the calendar months (UTC).' }),
    currentPeriodEnd: Type.String(),
    pausedAt: nullable(Type.String()),
    pausedUntil: nullable(Type.String({ description: 'A pause with an end resumes by itself then.' })),
    cancelledAt: nullable(Type.String()),
    reason: nullable(Type.String({ description: 'Why the last change happened, as its event said.' })),
    limits: Type.Object({
      requestsPerMinute: Type.Integer(),
      monthlyQuota: Type.Integer({ description: 'Live documents per calendar month (UTC).' }),
      webhookEndpoints: Type.Integer({ description: 'Per environment.' }),
      storageBytes: Type.Integer({ description: 'Per environment.' }),
      connectedEstablishments: Type.Integer({
        description: 'Establishments connected to a platform, per environment.',
      }),
    }),
    features: Type.Object({
      recurringAutoFinalize: Type.Boolean({
        description: 'Recurring invoices finalized by the service (`mode: auto_finalize`): Essential and Pro.',
      }),
    }),
    usage: Type.Object({
      period: Type.String({ description: 'Calendar month, UTC, `YYYY-MM`.' }),
      documents: Type.Integer({ description: 'Live documents counted this month.' }),
      monthlyQuota: Type.Integer(),
      webhookEndpoints: Type.Integer({ description: "The calling key's environment." }),
      establishments: Type.Integer({
        description:
          'Establishments connected to an approved platform in this environment (the plan allows `limits.connectedEstablishments`).',
      }),
      storageBytes: Type.Integer({ description: "Stored files of the calling key's environment." }),
    }),
    created: Type.String(),
  },
  { $id: 'Subscription' },
);

const reason = Type.Optional(
  Type.String({ minLength: 1, maxLength: 500, description: 'Kept, and sent in the event.' }),
);
// Every subscription route stays open while the subscription is paused or cancelled.
const open = { openWhenPaused: true } as const;

export async function subscriptionRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const read = (request: Parameters<typeof authOf>[0]) => getSubscription(deps, authOf(request).scope);

  app.get(
    '/subscription',
    {
      config: open,
      schema: {
        tags,
        summary: 'Retrieve the subscription: plan, status, period and usage',
        response: { 200: Type.Ref('Subscription') },
      },
    },
    async (request) => read(request),
  );

  app.post(
    '/subscription',
    {
      config: { ...open, access: 'full_access' },
      schema: {
        tags,
        summary: 'Change the plan',
        description:
          'Takes effect at once (`subscription.renewed` with `reason: plan_changed`); the new limits apply to what comes next. A live key without scopes; a test key gets `not_supported`.',
        body: Type.Object(
          { plan: Type.Union(planNames.map((plan) => Type.Literal(plan))) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('Subscription') },
      },
    },
    async (request) => {
      await changePlan(deps, callContext(request), authOf(request).company.id, request.body.plan);
      return read(request);
    },
  );

  app.post(
    '/subscription/pause',
    {
      config: { ...open, access: 'full_access' },
      schema: {
        tags,
        summary: 'Pause the subscription',
        description:
          'Writing operations then answer `subscription_paused` (reads, exports and these routes stay open); recurring runs fail with it. `until` ends the pause by itself. `subscription.paused`. A live key without scopes.',
        body: Type.Object(
          {
            until: Type.Optional(Type.String({ maxLength: 40, format: 'date-or-date-time' })),
            reason,
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('Subscription') },
      },
    },
    async (request) => {
      await moveSubscription(deps, callContext(request), 'pause', request.body);
      return read(request);
    },
  );

  app.post(
    '/subscription/resume',
    {
      config: { ...open, access: 'full_access' },
      schema: {
        tags,
        summary: 'Resume a paused or cancelled subscription',
        description:
          'Active again (`subscription.renewed` with `reason: resumed`); a period that ended meanwhile gives way to one starting now. A live key without scopes.',
        response: { 200: Type.Ref('Subscription') },
      },
    },
    async (request) => {
      await moveSubscription(deps, callContext(request), 'resume');
      return read(request);
    },
  );

  app.post(
    '/subscription/cancel',
    {
      config: { ...open, access: 'full_access' },
      schema: {
        tags,
        summary: 'Cancel the subscription',
        description:
          'Writing operations then answer `subscription_paused`; reads and exports stay open to take the data away. `subscription.cancelled`. `resume` reactivates it. A live key without scopes.',
        body: Type.Object({ reason }, { additionalProperties: false }),
        response: { 200: Type.Ref('Subscription') },
      },
    },
    async (request) => {
      await moveSubscription(deps, callContext(request), 'cancel', request.body);
      return read(request);
    },
  );
}

/**
 * The operator's Stripe Billing webhook (`POST /billing/stripe`), outside `/v1`: Stripe's signature
 * over the raw body, with FACTEUR_STRIPE_BILLING_WEBHOOK_SECRET, authenticates it. Anything
 * unsigned or wrongly signed, or any call when Stripe Billing is not configured, gets `not_found`.
 */
export async function stripeBillingRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  keepRawJsonBody(app);
  app.post('/billing/stripe', { schema: { hide: true } }, async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const header = request.headers['stripe-signature'];
    const delivery = await receiveStripeBillingEvent(deps, raw, typeof header === 'string' ? header : undefined);
    if (delivery.kind === 'unknown') throw refuse('not_found', 'No Stripe Billing webhook is expected here.');
    if (delivery.kind === 'malformed') throw refuse('validation_error', `Unreadable Stripe event: ${delivery.reason}.`);
    return reply.code(200).send({ received: true, ...delivery });
  });
}
