import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { getEvent, listEvents } from './service.js';

export const eventSchema = Type.Object({
  id: Type.String({ description: 'Prefix `evt_`.' }),
  object: Type.Literal('event'),
  type: Type.String(),
  livemode: Type.Boolean(),
  apiVersion: Type.String(),
  created: Type.String({ description: 'ISO 8601 with milliseconds, UTC.' }),
  data: Type.Record(Type.String(), Type.Unknown()),
  request: Type.Union([Type.Object({ id: Type.Union([Type.String(), Type.Null()]), idempotency_key: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
}, { $id: 'Event' });

export async function eventRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/events', {
    config: { access: 'webhooks:read' },
    schema: {
      tags: ['Events'],
      summary: 'List events, newest first',
      querystring: Type.Object({ ...paginationQuery, type: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
      response: { 200: listEnvelopeSchema(Type.Ref('Event')) },
    },
  }, async (request) => {
    const { limit = 25, starting_after, type } = request.query;
    return listEvents(deps, authOf(request).scope, { limit, startingAfter: starting_after }, { type }, '/v1/events');
  });

  app.get('/events/:id', {
    config: { access: 'webhooks:read' },
    schema: {
      tags: ['Events'],
      summary: 'Retrieve an event',
      params: Type.Object({ id: Type.String({ maxLength: 255 }) }),
      response: { 200: Type.Ref('Event') },
    },
  }, async (request) => getEvent(deps, authOf(request).scope, request.params.id));
}
