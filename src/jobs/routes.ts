import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { ApiError } from '../kernel/errors.js';
import { authOf } from '../http/request-context.js';
import { getJob } from './service.js';
import { grants } from '../kernel/scopes.js';
import type { Registry } from '../capability.js';
import { nullable } from '../http/route-schemas.js';

export const jobSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `job_`.' }),
    object: Type.Literal('job'),
    livemode: Type.Boolean(),
    kind: Type.String({
      description: 'What the job does, e.g. `customers.import`.',
    }),
    status: Type.Union([
      Type.Literal('queued'),
      Type.Literal('running'),
      Type.Literal('succeeded'),
      Type.Literal('failed'),
    ]),
    progress: Type.Object({
      total: Type.Integer({ description: 'Units of work (CSV lines for an import).' }),
      processed: Type.Integer({ description: 'Units done and committed.' }),
    }),
    result: nullable(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'The result so far, final once `succeeded`; its shape depends on `kind` (a `customer_import` for imports).',
      }),
    ),
    error: nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    created: Type.String(),
    updated: Type.String(),
    completedAt: nullable(Type.String()),
  },
  { $id: 'Job' },
);

const tags = ['Jobs'];

export async function jobRoutes(
  parent: FastifyInstance,
  { deps, registry }: { deps: Deps; registry: Registry },
): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/jobs/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve an asynchronous job',
        description:
          'The job a `202` answer named. Reading it needs the read scope of its kind: `customers:read` for a `customers.import`.',
        params: Type.Object({ id: Type.String({ maxLength: 255 }) }),
        response: { 200: Type.Ref('Job') },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const job = await getJob(deps, auth.scope, request.params.id);
      // A kind this node does not know is read only by a key without scopes.
      const required = registry.jobKinds[job.kind]?.readAccess ?? 'full_access';
      if (!grants(auth.key.scopes, required)) {
        throw new ApiError('scope_insufficient', {
          values: { scope: required === 'full_access' ? 'full access' : required },
        });
      }
      return job;
    },
  );
}
