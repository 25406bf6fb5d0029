import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../../src/deps.js';
import { callContext } from '../../src/http/request-context.js';
import { inTransaction } from '../../src/db/transaction.js';
import { recordEvent } from '../../src/webhooks/service.js';
import { consumeMonthlyQuota } from '../../src/limits/service.js';
import { authOf } from '../../src/http/request-context.js';

/**
 * Routes that exist only in tests, mounted under /v1 behind every platform rule, so the rules
 * (bodies, idempotency, limits, scopes, errors) are proven on routes shaped like the real ones.
 */
export async function probeRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  const itemBody = Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 20 }),
      kind: Type.Union([Type.Literal('goods'), Type.Literal('services')]),
      count: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
      email: Type.Optional(Type.String({ format: 'email' })),
      address: Type.Optional(
        Type.Object(
          {
            postalCode: Type.String({ pattern: '^[0-9]{5}$' }),
            country: Type.String({ minLength: 2, maxLength: 2 }),
          },
          { additionalProperties: false },
        ),
      ),
      lines: Type.Optional(Type.Array(Type.Object({ quantity: Type.String() }, { additionalProperties: false }))),
      metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    },
    { additionalProperties: false },
  );

  app.post(
    '/probe/items',
    {
      config: { access: 'invoices:write' },
      schema: {
        body: itemBody,
        querystring: Type.Object(
          {
            explode: Type.Optional(Type.Union([Type.Literal('before'), Type.Literal('after')])),
            waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const ctx = callContext(request);
      if (request.query.explode === 'before')
        throw new Error('probe exploded before its effect: secret internal detail');
      const event = await inTransaction(deps.db, ctx, async (tx) => {
        if (request.query.waitMs) await new Promise((r) => setTimeout(r, request.query.waitMs));
        return recordEvent(tx, ctx, 'probe.created', { name: request.body.name }, deps.clock.now());
      });
      if (request.query.explode === 'after') throw new Error('probe exploded after its effect');
      return reply.code(201).send({ id: event.id, object: 'probe', name: request.body.name });
    },
  );

  app.get('/probe/items', { config: { access: 'invoices:read' } }, async () => ({ object: 'probe' }));

  app.post('/probe/documents', { config: { access: 'invoices:write' } }, async (request, reply) => {
    const ctx = callContext(request);
    const auth = authOf(request);
    const event = await inTransaction(deps.db, ctx, async (tx) => {
      await consumeMonthlyQuota(tx, ctx.scope, auth.company.plan, 'documents', deps.clock.now());
      return recordEvent(tx, ctx, 'probe.document', {}, deps.clock.now());
    });
    return reply.code(201).send({ id: event.id });
  });

  app.post(
    '/probe/limited',
    { config: { routeLimit: { name: 'probe-limited', max: 3, per: 'minute' } } },
    async () => ({ ok: true }),
  );

  app.get('/probe/boom', async () => {
    throw new Error('secret internal detail: password=hunter2 at /srv/app.ts:42');
  });
}
