import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { keepRawJsonBody } from '../http/json-body.js';
import type { Registry } from '../capability.js';
import { refuse } from '../kernel/errors.js';
import { inboxCallback } from './inbox-reader.js';

/**
 * The platform's callback (AFNOR webhook), one route per connection, outside `/v1`: the platform
 * has no API key, its HMAC signature over the raw body (with the key of a subscription the
 * service made for the connection) authenticates it. New subscriptions are given
 * `/platform-callbacks/:companyId/:environment/:establishmentId`; the two paths of the readers
 * before the one inbox (`statuses/`, `received/`) are registered at platforms as callback URLs of
 * live subscriptions, and answer the same. Anything unsigned, wrongly signed or not expected gets
 * `not_found`: an unauthenticated caller learns nothing.
 */
export const callbackPaths = [
  '/platform-callbacks/:companyId/:environment/:establishmentId',
  '/platform-callbacks/statuses/:companyId/:environment/:establishmentId',
  '/platform-callbacks/received/:companyId/:environment/:establishmentId',
] as const;

export async function inboxCallbackRoutes(
  parent: FastifyInstance,
  { deps, registry }: { deps: Deps; registry: Registry },
): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { inbox } = registry;
  keepRawJsonBody(app);
  const params = Type.Object({
    companyId: Type.String({ maxLength: 64 }),
    environment: Type.String({ maxLength: 8 }),
    establishmentId: Type.String({ maxLength: 64 }),
  });
  for (const path of callbackPaths)
    app.post(path, { schema: { hide: true, params } }, async (request, reply) => {
      const { companyId, environment, establishmentId } = request.params;
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome =
        environment === 'live' || environment === 'test'
          ? await inboxCallback(
              deps,
              inbox,
              { companyId, livemode: environment === 'live' },
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
      return reply.code(202).send({ received: true, flowId: outcome.flow.flowId, applied: outcome.applied });
    });
}
