import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { getEventWithDeliveries, listEventsByDelivery, retryEvent } from './service.js';
import { nullable, idParams } from '../http/route-schemas.js';

const eventFields = {
  id: Type.String({ description: 'Prefix `evt_`.' }),
  object: Type.Literal('event'),
  type: Type.String(),
  livemode: Type.Boolean(),
  apiVersion: Type.String({ description: 'The version active when the event was emitted; never changes.' }),
  created: Type.String({ description: 'ISO 8601 with milliseconds, UTC.' }),
  data: Type.Record(Type.String(), Type.Unknown()),
  request: nullable(Type.Object({ id: nullable(Type.String()), idempotency_key: nullable(Type.String()) })),
};

export const eventSchema = Type.Object(eventFields, { $id: 'Event' });

export const eventWithDeliveriesSchema = Type.Object(
  {
    ...eventFields,
    deliveries: Type.Array(
      Type.Object({
        endpointId: Type.String(),
        generation: Type.Integer(),
        attempt: Type.Integer(),
        created: Type.String(),
        status: nullable(
          Type.Integer({
            description: 'HTTP status answered, null when none (time-out, network error, blocked address).',
          }),
        ),
        durationMs: Type.Integer(),
        error: nullable(Type.String()),
      }),
      { description: 'Every delivery attempt, of every generation, oldest first.' },
    ),
    attemptCount: Type.Integer({ description: 'Attempts of the current generation, all endpoints.' }),
    generation: Type.Integer({ description: 'Replay cycle: 1 for the first delivery, +1 per replay.' }),
    nextRetry: nullable(Type.String()),
    delivered: Type.Boolean({ description: 'True when every endpoint received the current generation.' }),
    endpoints: Type.Array(
      Type.Object({
        endpointId: Type.String(),
        generation: Type.Integer(),
        state: Type.String({ description: '`pending`, `delivered` or `failed` (five attempts failed).' }),
        attemptCount: Type.Integer(),
        nextRetry: nullable(Type.String()),
      }),
    ),
  },
  { $id: 'EventWithDeliveries' },
);

export async function eventRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/events',
    {
      config: { access: 'webhooks:read' },
      schema: {
        tags: ['Events'],
        summary: 'List events, newest first',
        querystring: Type.Object(
          {
            ...paginationQuery,
            type: Type.Optional(Type.String({ maxLength: 100 })),
            delivered: Type.Optional(
              Type.Boolean({ description: 'true: delivered to every endpoint; false: not (yet) delivered somewhere.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('Event')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, type, delivered } = request.query;
      return listEventsByDelivery(
        deps,
        authOf(request).scope,
        { limit, startingAfter: starting_after },
        { type, delivered },
      );
    },
  );

  app.get(
    '/events/:id',
    {
      config: { access: 'webhooks:read' },
      schema: {
        tags: ['Events'],
        summary: 'Retrieve an event with its delivery attempts and counters',
        params: idParams,
        response: { 200: Type.Ref('EventWithDeliveries') },
      },
    },
    async (request) => getEventWithDeliveries(deps, authOf(request).scope, request.params.id),
  );

  app.post(
    '/events/:id/retry',
    {
      config: { access: 'webhooks:write' },
      schema: {
        tags: ['Events'],
        summary: 'Replay an event to its failed endpoints, or to one endpoint',
        description:
          'Without body: a new generation for every enabled endpoint whose delivery failed. With `endpointId`: to that endpoint alone, even if delivered; an inactive or unsubscribed endpoint is `endpoint_not_subscribed`.',
        params: idParams,
        body: Type.Object(
          { endpointId: Type.Optional(Type.String({ pattern: '^we_', maxLength: 255 })) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('EventWithDeliveries') },
      },
    },
    async (request) => retryEvent(deps, callContext(request), request.params.id, request.body?.endpointId),
  );
}
