import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { idParams, nullable } from '../http/route-schemas.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { buyerSchema } from '../invoices/resource-schema.js';
import { lineInput } from '../invoices/lines.js';
import { modes, recurringCreateBody, recurringUpdateBody } from './recurring-input.js';
import { recurringStatuses } from './recurring-record.js';
import { intervals } from './schedule.js';
import {
  createRecurringInvoice,
  getRecurringInvoice,
  listGeneratedInvoices,
  listRecurringInvoices,
  moveRecurringInvoice,
  updateRecurringInvoice,
} from './service.js';

export const recurringInvoiceSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `rinv_`.' }),
    object: Type.Literal('recurring_invoice'),
    livemode: Type.Boolean(),
    status: Type.Union(
      recurringStatuses.map((status) => Type.Literal(status)),
      { description: '`completed` when the schedule has no run left.' },
    ),
    customerId: nullable(Type.String()),
    buyer: nullable(buyerSchema),
    lines: Type.Array(lineInput, { description: 'As given: products are read at each run.' }),
    taxSource: Type.Union([Type.Literal('service'), Type.Literal('integration')]),
    currency: Type.String(),
    paymentTermsDays: nullable(Type.Integer()),
    paymentTerms: nullable(Type.String()),
    notes: nullable(Type.String()),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    interval: Type.Union(intervals.map((interval) => Type.Literal(interval))),
    dayOfMonth: Type.Integer(),
    startDate: Type.String(),
    endDate: nullable(Type.String()),
    count: nullable(Type.Integer()),
    mode: Type.Union(modes.map((mode) => Type.Literal(mode))),
    autoSend: Type.Boolean(),
    nextPeriod: nullable(Type.String({ description: 'The date of the next run; null when paused or over.' })),
    nextRunAt: nullable(
      Type.String({ description: 'When it runs: the period at 00:00 UTC (the sandbox clock for test ones).' }),
    ),
    lastRun: nullable(
      Type.Object({
        period: Type.String(),
        status: Type.String({ description: '`pending`, `finalized`, `generated` or `failed`.' }),
        invoiceId: nullable(Type.String()),
        error: nullable(Type.Object({ code: Type.String(), message: Type.String() })),
      }),
    ),
    invoicesGenerated: Type.Integer(),
    runsFailed: Type.Integer(),
    pausedAt: nullable(Type.String()),
    cancelledAt: nullable(Type.String()),
    created: Type.String(),
    updated: Type.String(),
  },
  { $id: 'RecurringInvoice' },
);

const tags = ['Recurring invoices'];

export async function recurringInvoiceRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const planOf = (request: Parameters<typeof authOf>[0]) => authOf(request).company.plan;

  app.post(
    '/recurring-invoices',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Create a recurring invoice',
        description:
          'A template (`customerId` or `buyer`, lines, tax source, terms, notes) and a schedule (`interval`, `dayOfMonth`, `startDate`, `endDate` or `count`). Each period makes a draft invoice (`mode: draft`) or finalizes one on a fresh tax decision (`mode: auto_finalize`, Essential and Pro; `autoSend` then sends it): `recurring_invoice.generated`, or `recurring_invoice.failed` with the refusal.',
        body: recurringCreateBody,
        response: { 201: Type.Ref('RecurringInvoice') },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createRecurringInvoice(deps, callContext(request), planOf(request), request.body)),
  );

  app.get(
    '/recurring-invoices',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'List recurring invoices, newest first',
        querystring: Type.Object(
          {
            ...paginationQuery,
            status: Type.Optional(Type.Union(recurringStatuses.map((status) => Type.Literal(status)))),
            customerId: Type.Optional(Type.String({ maxLength: 255 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('RecurringInvoice')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, status, customerId } = request.query;
      return listRecurringInvoices(
        deps,
        authOf(request).scope,
        { limit, startingAfter: starting_after },
        { status, customerId },
      );
    },
  );

  app.get(
    '/recurring-invoices/:id',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'Retrieve a recurring invoice',
        params: idParams,
        response: { 200: Type.Ref('RecurringInvoice') },
      },
    },
    async (request) => getRecurringInvoice(deps, authOf(request).scope, request.params.id),
  );

  app.post(
    '/recurring-invoices/:id',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Update a recurring invoice',
        description:
          'Not once cancelled. Absent fields are kept, null clears; the next run is placed again after the last one (never before today). Changes apply to the next runs.',
        params: idParams,
        body: recurringUpdateBody,
        response: { 200: Type.Ref('RecurringInvoice') },
      },
    },
    async (request) =>
      updateRecurringInvoice(deps, callContext(request), planOf(request), request.params.id, request.body),
  );

  for (const [move, summary] of [
    ['pause', 'Pause a recurring invoice: the periods that fall while it is paused are skipped'],
    ['resume', 'Resume a paused recurring invoice, from the next period on or after today'],
    ['cancel', 'Cancel a recurring invoice: no run any more'],
  ] as const) {
    app.post(
      `/recurring-invoices/:id/${move}`,
      {
        config: { access: 'invoices:write' },
        schema: { tags, summary, params: idParams, response: { 200: Type.Ref('RecurringInvoice') } },
      },
      async (request) => moveRecurringInvoice(deps, callContext(request), request.params.id, move),
    );
  }

  app.get(
    '/recurring-invoices/:id/invoices',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'The invoices a recurring invoice generated, newest first',
        params: idParams,
        querystring: Type.Object(paginationQuery, { additionalProperties: false }),
        response: { 200: listEnvelopeSchema(Type.Ref('Invoice')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after } = request.query;
      return listGeneratedInvoices(deps, authOf(request).scope, request.params.id, {
        limit,
        startingAfter: starting_after,
      });
    },
  );
}
