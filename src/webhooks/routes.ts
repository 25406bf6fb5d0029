import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  pingEndpoint,
  rotateSecret,
  updateEndpointSettings,
} from './service.js';
import { idParams } from '../http/route-schemas.js';

export const endpointSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `we_`.' }),
    object: Type.Literal('webhook_endpoint'),
    livemode: Type.Boolean(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
    disabledReason: Type.Union([Type.String(), Type.Null()]),
    secret: Type.String({ description: 'Signing secret: in clear only when created or rotated, masked afterwards.' }),
    created: Type.String(),
    updated: Type.String(),
  },
  { $id: 'WebhookEndpoint' },
);

const eventsField = Type.Array(Type.String({ maxLength: 100 }), {
  maxItems: 100,
  description: 'Event types, or `*` for all. Default `["*"]`.',
});
const tags = ['Webhook endpoints'];

export async function webhookRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/webhook-endpoints',
    {
      config: { access: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Create a webhook endpoint',
        description:
          'The URL must be HTTPS and its host must resolve to public addresses only. The answer carries the signing secret in clear, this once.',
        body: Type.Object(
          {
            url: Type.String({ minLength: 1, maxLength: 2048 }),
            events: Type.Optional(eventsField),
            description: Type.Optional(Type.String({ maxLength: 500 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Ref('WebhookEndpoint') },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      return reply.code(201).send(await createEndpoint(deps, callContext(request), auth.company.plan, request.body));
    },
  );

  app.get(
    '/webhook-endpoints',
    {
      config: { access: 'webhooks:read' },
      schema: {
        tags,
        summary: 'List webhook endpoints',
        querystring: Type.Object(paginationQuery, { additionalProperties: false }),
        response: { 200: listEnvelopeSchema(Type.Ref('WebhookEndpoint')) },
      },
    },
    async (request) =>
      listEndpoints(deps, authOf(request).scope, {
        limit: request.query.limit ?? 25,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/webhook-endpoints/:id',
    {
      config: { access: 'webhooks:read' },
      schema: {
        tags,
        summary: 'Retrieve a webhook endpoint',
        params: idParams,
        response: { 200: Type.Ref('WebhookEndpoint') },
      },
    },
    async (request) => getEndpoint(deps, authOf(request).scope, request.params.id),
  );

  app.post(
    '/webhook-endpoints/:id',
    {
      config: { access: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Update a webhook endpoint',
        description: 'Set `status` to `enabled` to bring back an endpoint deactivated after three days of failures.',
        params: idParams,
        body: Type.Object(
          {
            url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
            events: Type.Optional(eventsField),
            description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
            status: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('WebhookEndpoint') },
      },
    },
    async (request) => updateEndpointSettings(deps, callContext(request), request.params.id, request.body),
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      config: { access: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint',
        params: idParams,
        response: {
          200: Type.Object({
            id: Type.String(),
            object: Type.Literal('webhook_endpoint'),
            deleted: Type.Literal(true),
          }),
        },
      },
    },
    async (request) => deleteEndpoint(deps, callContext(request), request.params.id),
  );

  app.post(
    '/webhook-endpoints/:id/ping',
    {
      config: { access: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Send a `ping` event to this endpoint alone',
        params: idParams,
        response: { 200: Type.Ref('EventWithDeliveries') },
      },
    },
    async (request) => pingEndpoint(deps, callContext(request), request.params.id),
  );

  app.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      config: { access: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Roll the signing secret',
        description:
          'The new secret is returned in clear, this once. For 24 hours deliveries carry two `v1=` signatures, one per secret.',
        params: idParams,
        response: { 200: Type.Ref('WebhookEndpoint') },
      },
    },
    async (request) => rotateSecret(deps, callContext(request), request.params.id),
  );
}
