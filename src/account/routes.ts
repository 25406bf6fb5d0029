import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { authOf } from '../http/request-context.js';
import { toAccount } from './service.js';

const limitsSchema = Type.Object({
  requestsPerMinute: Type.Integer(),
  monthlyQuota: Type.Integer({ description: 'Live documents per calendar month (UTC).' }),
  webhookEndpoints: Type.Integer({ description: 'Per environment.' }),
  storageBytes: Type.Integer(),
});

const accountSchema = Type.Object({
  id: Type.String({ description: 'The company, prefix `co_`.' }),
  object: Type.Literal('account'),
  livemode: Type.Boolean({ description: 'Fixed by the API key: true for `svc_live_` keys.' }),
  name: Type.String(),
  siren: Type.String(),
  plan: Type.String(),
  limits: limitsSchema,
  apiKey: Type.Object({
    id: Type.String(),
    scopes: Type.Union([Type.Array(Type.String()), Type.Null()]),
    expiresAt: Type.Union([Type.String(), Type.Null()]),
  }),
  created: Type.String(),
});

export async function accountRoutes(parent: FastifyInstance): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/account',
    {
      schema: {
        tags: ['Account'],
        summary: 'Retrieve the account of the calling key',
        response: { 200: accountSchema },
      },
    },
    async (request) => {
      const auth = authOf(request);
      return toAccount(auth.scope, auth.key, auth.company);
    },
  );
}
