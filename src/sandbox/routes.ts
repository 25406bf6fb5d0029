import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { resetSandbox } from './service.js';
import { advanceClock, readSandboxClock } from './clock.js';
import type { Registry } from '../capability.js';

const resetSchema = Type.Object({
  object: Type.Literal('sandbox_reset'),
  livemode: Type.Literal(false),
  purged: Type.Record(Type.String(), Type.Integer(), { description: 'Rows removed, per kind of data.' }),
  created: Type.String(),
});

const clockSchema = Type.Object({
  object: Type.Literal('sandbox_clock'),
  livemode: Type.Literal(false),
  now: Type.String({ description: 'The sandbox time of the company.' }),
  offsetSeconds: Type.Number({ description: 'How far the sandbox clock runs ahead of real time.' }),
});

const tags = ['Sandbox'];

export async function sandboxRoutes(
  parent: FastifyInstance,
  { deps, registry }: { deps: Deps; registry: Registry },
): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/sandbox/reset',
    {
      config: { access: 'full_access' },
      schema: {
        tags,
        summary: 'Purge the test data of the company (test keys only)',
        description:
          'Purges the test environment (webhook endpoints stay), sets the sandbox clock back to real time, and injects the fixtures of the resources that have them. A live key is refused with `not_supported`.',
        response: { 200: resetSchema },
      },
    },
    async (request) => resetSandbox(deps, callContext(request), registry.capabilities),
  );

  app.get(
    '/sandbox/clock',
    {
      schema: { tags, summary: 'Read the sandbox clock (test keys only)', response: { 200: clockSchema } },
    },
    async (request) => readSandboxClock(deps, callContext(request), authOf(request).company.sandboxClockOffsetMs),
  );

  app.post(
    '/sandbox/clock/advance',
    {
      schema: {
        tags,
        summary: 'Move the sandbox clock forward (test keys only)',
        description:
          'Webhook retries, overdue invoices, recurring runs and reservation expiries of the test environment happen as if that time had passed. Live data never follows it.',
        body: Type.Object(
          { seconds: Type.Integer({ minimum: 1, maximum: 31_536_000 }) },
          { additionalProperties: false },
        ),
        response: { 200: clockSchema },
      },
    },
    async (request) => advanceClock(deps, callContext(request), request.body.seconds, registry),
  );
}
