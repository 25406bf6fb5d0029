import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { refuse } from '../kernel/errors.js';
import { platformCallback } from './intake.js';

/**
 * The platform's callback (AFNOR webhook) for a company's received invoices, outside `/v1`: the
 * platform has no API key, its HMAC signature over the raw body is what authenticates it. An
 * unsigned or wrongly signed call, or a company without a platform expecting callbacks, gets
 * `not_found`: an unauthenticated caller learns nothing.
 */
export async function receivedCallbackRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  // The signature covers the body byte for byte: it is kept raw here, parsed only once checked.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/platform-callbacks/received/:companyId',
    {
      schema: {
        hide: true,
        params: Type.Object({ companyId: Type.String({ maxLength: 64 }) }),
      },
    },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = platformCallback(deps, request.params.companyId, raw, request.headers);
      if (outcome.kind !== 'accepted') {
        if (outcome.kind === 'refused')
          deps.log.warn({ companyId: request.params.companyId, reason: outcome.reason }, 'platform callback refused');
        throw refuse('not_found', 'No platform callback is expected here.');
      }
      return reply.code(202).send({ received: true, flowId: outcome.flow.flowId });
    },
  );
}
