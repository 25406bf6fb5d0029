import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { idParams, nullable } from '../http/route-schemas.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { declarationStates } from './declaration-record.js';
import { flows } from './flows.js';
import { getDeclaration, listDeclarations, retryDeclaration, submitDeclaration } from './service.js';

const obligationSchema = Type.Object({
  state: Type.Union([Type.Literal('waiting'), Type.Literal('fulfilled')]),
  reasonCode: nullable(Type.String()),
  reasonSource: nullable(Type.String()),
  owner: nullable(Type.String()),
  action: nullable(Type.String()),
  nextAttemptAt: nullable(Type.String()),
});

export const declarationSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `rep_`.' }),
    object: Type.Literal('ereporting'),
    livemode: Type.Boolean(),
    status: Type.Union(
      declarationStates.map((state) => Type.Literal(state)),
      { description: '`reserved` until transmitted; `rejected` attempts are kept as a trace.' },
    ),
    type: Type.String({ description: 'The AFNOR flow type (`AggregatedCustomerTransactionReport`...).' }),
    flow: Type.Union(
      flows.map((flow) => Type.Literal(flow)),
      { description: '10.1 unitary transactions, 10.2 unitary payments, 10.3 and 10.4 aggregated (B2C).' },
    ),
    period: Type.String({ description: '`YYYY-MM-DD/YYYY-MM-DD`, both days included.' }),
    periodStart: Type.String(),
    periodEnd: Type.String(),
    establishment: nullable(Type.String({ description: 'The SIRET of the tax profile covering the operations.' })),
    attempt: Type.Integer(),
    previousAttemptId: nullable(Type.String()),
    supersededById: nullable(Type.String()),
    currency: Type.String(),
    operationCount: Type.Integer(),
    taxableAmount: Type.Integer({ description: 'Cents (payments: the amount collected).' }),
    taxAmount: Type.Integer({ description: 'Cents.' }),
    lines: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'The lines as transmitted.' }),
    obligation: obligationSchema,
    paRejectionCode: nullable(Type.String()),
    paRejectionReason: nullable(Type.String()),
    flowId: nullable(Type.String()),
    dueAt: Type.String({ description: 'When it leaves: the day after its period (the sandbox clock in test).' }),
    submittedAt: nullable(Type.String()),
    acceptedAt: nullable(Type.String()),
    rejectedAt: nullable(Type.String()),
    created: Type.String(),
    updated: Type.String(),
    operations: Type.Optional(
      Type.Array(
        Type.Object({
          sourceKind: Type.String({ description: '`invoice`, `credit_note`, `payment` or `refund`.' }),
          sourceId: Type.String(),
          number: nullable(Type.String()),
          date: Type.String(),
          taxableAmount: Type.Integer(),
          taxAmount: Type.Integer(),
        }),
        { description: 'On retrieval: the operations it reports (the first 1,000).' },
      ),
    ),
  },
  { $id: 'EreportingDeclaration' },
);

const tags = ['E-reporting'];

export async function ereportingRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/ereporting/declarations',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'List e-reporting declarations, newest first',
        querystring: Type.Object(
          {
            ...paginationQuery,
            period: Type.Optional(Type.String({ maxLength: 21 })),
            state: Type.Optional(Type.Union(declarationStates.map((state) => Type.Literal(state)))),
            flow: Type.Optional(Type.Union(flows.map((flow) => Type.Literal(flow)))),
          },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('EreportingDeclaration')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, period, state, flow } = request.query;
      return listDeclarations(
        deps,
        authOf(request).scope,
        { limit, startingAfter: starting_after },
        { period, state, flow },
      );
    },
  );

  app.get(
    '/ereporting/declarations/:id',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'Retrieve an e-reporting declaration with its operations',
        params: idParams,
        response: { 200: Type.Ref('EreportingDeclaration') },
      },
    },
    async (request) => getDeclaration(deps, authOf(request).scope, request.params.id),
  );

  app.post(
    '/ereporting/declarations/:id/submit',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Transmit a declaration now',
        description:
          'Validated against the flow 10 schema, then deposited to the platform: `submitted` (`ereporting.submitted`), then the verdict (`ereporting.accepted`, or `ereporting.rejected` and a 422 `ereporting_declaration_rejected`). A declaration already transmitted is answered as it is; one a pass is transmitting is waited for up to 10 s, then 503 `pa_unavailable` with `Retry-After`. `ereporting_not_enabled` while the establishment has no platform connection (live) or does not allow e-reporting (`ereportingEnabled`); it stays `reserved`.',
        params: idParams,
        response: { 200: Type.Ref('EreportingDeclaration') },
      },
    },
    async (request) => submitDeclaration(deps, callContext(request), request.params.id),
  );

  app.post(
    '/ereporting/declarations/:id/retry',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Make a new attempt of a rejected declaration',
        description:
          'Only a rejected declaration, whose chain of attempts is valid, under the attempt limit: a new declaration in `reserved` (201), transmitted by nothing here (the next pass, or its submit route). Replayed: 200 with the same new attempt.',
        params: idParams,
        response: { 200: Type.Ref('EreportingDeclaration'), 201: Type.Ref('EreportingDeclaration') },
      },
    },
    async (request, reply) => {
      const { declaration, created } = await retryDeclaration(deps, callContext(request), request.params.id);
      return reply.code(created ? 201 : 200).send(declaration);
    },
  );
}
