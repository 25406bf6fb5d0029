import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { callContext } from '../http/request-context.js';
import { resetSandbox } from './service.js';

const resetSchema = Type.Object({
  object: Type.Literal('sandbox_reset'),
  livemode: Type.Literal(false),
  purged: Type.Record(Type.String(), Type.Integer(), { description: 'Rows removed, per kind of data.' }),
  created: Type.String(),
});

export async function sandboxRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/sandbox/reset', {
    config: { access: 'full_access' },
    schema: {
      tags: ['Sandbox'],
      summary: 'Purge the test data of the company (test keys only)',
      description: 'Purges the test environment and injects the fixtures of the resources that have them. A live key is refused with `not_supported`.',
      response: { 200: resetSchema },
    },
  }, async (request) => resetSandbox(deps, callContext(request)));
}
