import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { refuse } from '../kernel/errors.js';
import { platformCallback } from './intake.js';

/**
 * The platform's callback (AFNOR webhook) for an establishment's received invoices, outside `/v1`:
 * the platform has no API key, its HMAC signature over the raw body with the key of the
 * subscription the polling pass made is what authenticates it. An unsigned or wrongly signed
 * call, or an establishment without a subscription, gets `not_found`: an unauthenticated caller
 * learns nothing.
 */
export async function receivedCallbackRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  // The signature covers the body byte for byte: it is kept raw here, parsed only once checked.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/platform-callbacks/received/:companyId/:mode/:establishmentId',
    {
      schema: {
        hide: true,
        params: Type.Object({
          companyId: Type.String({ maxLength: 64 }),
          mode: Type.String({ maxLength: 8 }),
          establishmentId: Type.String({ maxLength: 64 }),
        }),
      },
    },
    async (request, reply) => {
      const { companyId, mode, establishmentId } = request.params;
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome =
        mode === 'live' || mode === 'test'
          ? await platformCallback(
              deps,
              { companyId, livemode: mode === 'live' },
              establishmentId,
              raw,
              request.headers,
            )
          : ({ kind: 'unknown' } as const);
      if (outcome.kind !== 'accepted') {
        if (outcome.kind === 'refused')
          deps.log.warn({ companyId, establishmentId, reason: outcome.reason }, 'platform callback refused');
        throw refuse('not_found', 'No platform callback is expected here.');
      }
      return reply.code(202).send({ received: true, flowId: outcome.flow.flowId });
    },
  );
}
