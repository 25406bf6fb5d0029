import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { sendPublicPage } from '../http/public-page.js';
import { refuse } from '../kernel/errors.js';
import { viewQuote } from '../quotes/service.js';
import { quotePage } from './page.js';

/**
 * `GET /quote/:token`: the public page of a finalized quote, for the customer (no API key; the
 * token is the secret). The first opening of a sent quote emits `quote.viewed`.
 */
export async function quotePortalRoutes(app: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '/quote/:token',
    {
      schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 100 }) }) },
    },
    async (request, reply) => {
      const view = await viewQuote(deps, request.params.token);
      if (!view) throw refuse('not_found', 'No quote at this address: the link is wrong or the quote was withdrawn.');
      return sendPublicPage(reply, quotePage(view));
    },
  );
}
