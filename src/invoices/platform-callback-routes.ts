import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { refuse } from '../kernel/errors.js';
import { statusCallback } from './platform-statuses.js';

/**
 * The platform's callback (AFNOR webhook) for the statuses of an establishment's deposits, outside
 * `/v1`: the platform has no API key, its HMAC signature over the raw body (with the key of the
 * subscription the service made) authenticates it. Anything unsigned, wrongly signed or not
 * expected gets `not_found`: an unauthenticated caller learns nothing.
 */
export async function statusCallbackRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  // The signature covers the body byte for byte: it is kept raw here, parsed only once checked.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/platform-callbacks/statuses/:companyId/:environment/:establishmentId',
    {
      schema: {
        hide: true,
        params: Type.Object({
          companyId: Type.String({ maxLength: 64 }),
          environment: Type.Union([Type.Literal('live'), Type.Literal('test')]),
          establishmentId: Type.String({ maxLength: 64 }),
        }),
      },
    },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const { companyId, environment, establishmentId } = request.params;
      const scope = { companyId, livemode: environment === 'live' };
      const outcome = await statusCallback(deps, scope, establishmentId, raw, request.headers);
      if (outcome.kind !== 'accepted') {
        if (outcome.kind === 'refused')
          deps.log.warn({ companyId, establishmentId, reason: outcome.reason }, 'platform status callback refused');
        throw refuse('not_found', 'No platform callback is expected here.');
      }
      return reply.code(202).send({ received: true, applied: outcome.applied });
    },
  );
}
