import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { buyerSchema, lineSchema } from '../invoices/resource-schema.js';
import { quoteStatuses } from './quote-status.js';
import {
  acceptQuote,
  convertQuote,
  createQuote,
  finalizeQuote,
  getQuote,
  listQuotes,
  quoteCreateBody,
  quoteUpdateBody,
  refuseQuote,
  sendQuote,
  updateQuoteDraft,
} from './service.js';
import { nullable, idParams } from '../http/route-schemas.js';

export const quoteSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `qt_`.' }),
    object: Type.Literal('quote'),
    livemode: Type.Boolean(),
    number: nullable(Type.String({ description: 'In the quote series; null for a draft.' })),
    status: Type.Union(quoteStatuses.map((status) => Type.Literal(status))),
    customerId: nullable(Type.String()),
    buyer: nullable(buyerSchema),
    currency: Type.String(),
    lines: Type.Array(lineSchema),
    subtotal: Type.Integer({
      description: 'Cents, excluding VAT. The VAT is decided when the invoice is (its tax decision).',
    }),
    issueDate: nullable(Type.String()),
    validUntil: nullable(Type.String()),
    notes: nullable(Type.String()),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    invoiceId: nullable(Type.String({ description: 'The draft invoice it was converted into.' })),
    publicUrl: nullable(
      Type.String({
        description:
          "The quote's public page for the customer, from its finalization; the first opening of a sent quote emits `quote.viewed`.",
      }),
    ),
    viewedAt: nullable(Type.String({ description: "When the customer first opened the sent quote's page." })),
    created: Type.String(),
    updated: Type.String(),
  },
  { $id: 'Quote' },
);

const tags = ['Quotes'];

export async function quoteRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/quotes',
    {
      config: { access: 'quotes:write' },
      schema: {
        tags,
        summary: 'Create a draft quote',
        description: '`quote.created`.',
        body: quoteCreateBody,
        response: { 201: Type.Ref('Quote') },
      },
    },
    async (request, reply) => reply.code(201).send(await createQuote(deps, callContext(request), request.body)),
  );

  app.get(
    '/quotes',
    {
      config: { access: 'quotes:read' },
      schema: {
        tags,
        summary: 'List quotes, newest first',
        querystring: Type.Object(
          {
            ...paginationQuery,
            status: Type.Optional(Type.Union(quoteStatuses.map((status) => Type.Literal(status)))),
            customerId: Type.Optional(Type.String({ maxLength: 255 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('Quote')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, status, customerId } = request.query;
      return listQuotes(deps, authOf(request).scope, { limit, startingAfter: starting_after }, { status, customerId });
    },
  );

  app.get(
    '/quotes/:id',
    {
      config: { access: 'quotes:read' },
      schema: { tags, summary: 'Retrieve a quote', params: idParams, response: { 200: Type.Ref('Quote') } },
    },
    async (request) => getQuote(deps, authOf(request).scope, request.params.id),
  );

  app.post(
    '/quotes/:id',
    {
      config: { access: 'quotes:write' },
      schema: {
        tags,
        summary: 'Edit a draft quote',
        params: idParams,
        body: quoteUpdateBody,
        response: { 200: Type.Ref('Quote') },
      },
    },
    async (request) => updateQuoteDraft(deps, callContext(request), request.params.id, request.body),
  );

  const transitions = [
    [
      'finalize',
      finalizeQuote,
      'Finalize a draft quote: number it in the quote series (validity: `validUntil`, default 30 days)',
    ],
    ['send', sendQuote, 'Send a finalized quote to the customer by e-mail (`quote.sent` when it leaves)'],
    ['accept', acceptQuote, "Record the customer's acceptance (`quote.accepted`)"],
    ['refuse', refuseQuote, "Record the customer's refusal (`quote.refused`)"],
  ] as const;
  for (const [verb, run, summary] of transitions) {
    app.post(
      `/quotes/:id/${verb}`,
      {
        config: { access: 'quotes:write' },
        schema: {
          tags,
          summary,
          description: 'Any other state answers `invalid_status_transition`; so does a quote past its validity date.',
          params: idParams,
          response: { 200: Type.Ref('Quote') },
        },
      },
      async (request) => run(deps, callContext(request), (request.params as { id: string }).id),
    );
  }

  app.post(
    '/quotes/:id/convert',
    {
      config: { access: 'quotes:write' },
      schema: {
        tags,
        summary: 'Convert a quote into a draft invoice',
        description:
          "A finalized, sent or accepted quote becomes a draft invoice with its buyer and lines (`invoice.created`, `quote.converted`); take the invoice's tax decision, then finalize it.",
        params: idParams,
        response: { 201: Type.Object({ quote: Type.Ref('Quote'), invoice: Type.Ref('Invoice') }) },
      },
    },
    async (request, reply) => reply.code(201).send(await convertQuote(deps, callContext(request), request.params.id)),
  );
}
