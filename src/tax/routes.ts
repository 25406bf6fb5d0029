import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { decisionBody, rejectImposedResults } from './decision-input.js';
import { createTaxDecision, getTaxDecision, listTaxDecisions, refuseDecisionChange } from './service.js';
import { nullable, idParams } from '../http/route-schemas.js';

const axis = Type.Object({
  state: Type.Union([Type.Literal('due'), Type.Literal('not_applicable')]),
  reason: Type.String(),
});
const issue = Type.Object({ code: Type.String(), param: nullable(Type.String()), message: Type.String() });

export const taxDecisionSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `txd_`.' }),
    object: Type.Literal('tax_decision'),
    livemode: Type.Boolean(),
    status: Type.Union([Type.Literal('final'), Type.Literal('suspended'), Type.Literal('not_taken')], {
      description: 'Only a final decision that has not expired backs a document.',
    }),
    expiresAt: nullable(
      Type.String({
        description:
          'End of the usage window of a final decision: its ledger reservation (at most 15 minutes) or 24 hours.',
      }),
    ),
    taxSource: Type.String(),
    date: Type.String(),
    currency: Type.String(),
    customerId: nullable(Type.String()),
    buyer: Type.Object({
      type: Type.String(),
      vatNumber: nullable(Type.String()),
      territory: nullable(Type.String()),
      deliveryTerritory: nullable(Type.String()),
      location: nullable(Type.Object({ country: Type.String(), territory: Type.String(), basis: Type.String() })),
    }),
    seller: Type.Object({
      taxProfileId: Type.String(),
      territory: Type.String(),
      regime: nullable(Type.String()),
      vatOnDebits: nullable(Type.Boolean()),
      ossRegistered: nullable(Type.Boolean()),
    }),
    lines: Type.Array(
      Type.Object({
        index: Type.Integer(),
        description: Type.String(),
        quantity: Type.String(),
        unitPrice: Type.String(),
        nature: Type.String(),
        rateCategory: nullable(Type.String()),
        treatment: Type.String({
          description:
            '`domestic`, `intra_eu_supply`, `reverse_charge`, `export`, `outside_scope`, `distance_sale_origin`, `distance_sale_destination` (`distance_sale_pending` while undecided).',
        }),
        placeOfSupply: Type.String(),
        vatCode: nullable(Type.String()),
        vatRate: nullable(Type.String()),
        vatexCode: nullable(Type.String()),
        netAmount: nullable(Type.Integer({ description: 'Cents (BT-131).' })),
      }),
    ),
    vatBreakdown: Type.Array(
      Type.Object({
        vatCode: Type.String(),
        vatRate: nullable(Type.String()),
        vatexCode: nullable(Type.String()),
        taxableAmount: Type.Integer(),
        taxAmount: Type.Integer(),
      }),
    ),
    totals: nullable(
      Type.Object(
        { net: Type.Integer(), vat: Type.Integer(), gross: Type.Integer(), due: Type.Integer() },
        { description: 'Cents: BT-109, BT-110, BT-112, BT-115. Null: no amount is fixed.' },
      ),
    ),
    mentions: Type.Array(Type.Object({ code: Type.String(), text: Type.String(), lines: Type.Array(Type.Integer()) })),
    operationCategory: nullable(Type.String()),
    axes: nullable(Type.Object({ einvoicing: axis, ereportingTransaction: axis, ereportingPayment: axis })),
    euThreshold: nullable(Type.Object({ year: Type.Integer(), position: Type.String(), reservationId: Type.String() })),
    vatValidation: nullable(
      Type.Object(
        {
          vatNumber: Type.String(),
          status: Type.String({ description: '`valid`: VIES confirmed the number.' }),
          checkedAt: Type.String({ description: 'When VIES was asked.' }),
          requestIdentifier: nullable(
            Type.String({ description: "VIES's consultation number: the proof of the check, kept with the decision." }),
          ),
          requestDate: nullable(Type.String({ description: "VIES's date of its answer." })),
        },
        {
          description:
            "Live: VIES's confirmation of the buyer's intra-EU VAT number when a line is an exempt intra-EU supply or a reverse charge. Null in test mode and when no line rests on the number.",
        },
      ),
    ),
    reasons: Type.Array(issue),
    retryOf: nullable(Type.String()),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    created: Type.String(),
  },
  { $id: 'TaxDecision' },
);

const tags = ['Tax decisions'];

export async function taxDecisionRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/tax-decisions',
    {
      config: { access: 'invoices:write' },
      // A tax result in the payload is refused as such, before the schema names it an unknown field.
      preValidation: async (request) => rejectImposedResults(request.body),
      schema: {
        tags,
        summary: 'Take a tax decision on an operation',
        description:
          'Describe the operation (date, currency, buyer, lines, location evidence) and the tax source. The answer is an immutable decision: `final`, `suspended` (missing evidence, concurrent decisions, ledger under review: retry with `retryOf`) or `not_taken`. The only endpoint whose refusals may carry `issues`.',
        body: decisionBody,
        response: { 201: Type.Ref('TaxDecision') },
      },
    },
    async (request, reply) => reply.code(201).send(await createTaxDecision(deps, callContext(request), request.body)),
  );

  app.get(
    '/tax-decisions',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'List tax decisions, newest first',
        querystring: Type.Object(
          {
            ...paginationQuery,
            status: Type.Optional(
              Type.Union([Type.Literal('final'), Type.Literal('suspended'), Type.Literal('not_taken')]),
            ),
            customerId: Type.Optional(Type.String({ maxLength: 255 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('TaxDecision')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, status, customerId } = request.query;
      return listTaxDecisions(
        deps,
        authOf(request).scope,
        { limit, startingAfter: starting_after },
        { status, customerId },
      );
    },
  );

  app.get(
    '/tax-decisions/:id',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'Retrieve a tax decision',
        params: idParams,
        response: { 200: Type.Ref('TaxDecision') },
      },
    },
    async (request) => getTaxDecision(deps, authOf(request).scope, request.params.id),
  );

  for (const method of ['POST', 'DELETE'] as const) {
    app.route({
      method,
      url: '/tax-decisions/:id',
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: `${method} on a tax decision: always \`method_not_allowed\` (a decision is immutable)`,
        params: idParams,
        response: { 200: Type.Object({}) },
      },
      handler: async (request) =>
        refuseDecisionChange(deps, authOf(request).scope, (request.params as { id: string }).id, method),
    });
  }
}
