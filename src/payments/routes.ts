import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { getPayment, listInvoicePayments, listPayments, paymentCreateBody, recordPayment } from './service.js';
import { nullable, idParams } from '../http/route-schemas.js';

/** The contract's `fr212` object: where a payment statement (status 212) stands. */
export const fr212Schema = Type.Object(
  {
    state: Type.String({
      description:
        '`awaiting_deposit` (the invoice is not on the platform yet), `pending` (the statement is due) or `sent`.',
    }),
    sentAt: nullable(Type.String()),
    lastErrorCode: nullable(
      Type.String({
        description:
          "`awaiting_pa_deposit`, `pa_lifecycle_not_ready`, the platform's code of the last failed attempt, or null.",
      }),
    ),
    lastErrorReason: Type.Optional(Type.String()),
    updatedAt: Type.String(),
  },
  {
    $id: 'Fr212',
    description:
      'The payment statement (status 212, collected amounts per VAT rate; negative for a refund) owed on a domestic B2B e-invoice whose VAT is due on collection (services without the debit option); null when none is owed.',
  },
);

export const paymentSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `pay_`.' }),
    object: Type.Literal('payment'),
    livemode: Type.Boolean(),
    invoiceId: Type.String(),
    amount: Type.Integer({ description: 'Cents.' }),
    currency: Type.String(),
    method: Type.String(),
    reference: nullable(Type.String()),
    paidAt: Type.String(),
    recorded_by: Type.String({
      description: "`api` (recorded through the API) or `stripe` (a card payment reported by Stripe's webhook).",
    }),
    fr212: nullable(Type.Ref('Fr212')),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    created: Type.String(),
  },
  { $id: 'Payment' },
);

const tags = ['Payments'];

export async function paymentRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/payments',
    {
      config: { access: 'payments:write' },
      schema: {
        tags,
        summary: 'Record a payment on an invoice',
        description:
          "Moves the invoice's `paymentStatus` and summary (paid before approval stays paid; a rejected invoice paid in full is `paid`, its transmission stays `rejected`). Events: `payment.created`, `payment.received` (amounts in euros), and `invoice.paid` or `invoice.partially_paid`.",
        body: paymentCreateBody,
        response: { 201: Type.Ref('Payment') },
      },
    },
    async (request, reply) => reply.code(201).send(await recordPayment(deps, callContext(request), request.body)),
  );

  app.get(
    '/payments',
    {
      config: { access: 'payments:read' },
      schema: {
        tags,
        summary: 'List payments, newest first',
        querystring: Type.Object(
          { ...paginationQuery, invoiceId: Type.Optional(Type.String({ maxLength: 255 })) },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('Payment')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, invoiceId } = request.query;
      return listPayments(deps, authOf(request).scope, { limit, startingAfter: starting_after }, { invoiceId });
    },
  );

  app.get(
    '/payments/:id',
    {
      config: { access: 'payments:read' },
      schema: { tags, summary: 'Retrieve a payment', params: idParams, response: { 200: Type.Ref('Payment') } },
    },
    async (request) => getPayment(deps, authOf(request).scope, request.params.id),
  );

  app.get(
    '/invoices/:id/payments',
    {
      config: { access: 'payments:read' },
      schema: {
        tags,
        summary: 'The payments of an invoice, newest first, each with its current `fr212`',
        params: idParams,
        querystring: Type.Object(paginationQuery, { additionalProperties: false }),
        response: { 200: listEnvelopeSchema(Type.Ref('Payment')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after } = request.query;
      return listInvoicePayments(deps, authOf(request).scope, request.params.id, {
        limit,
        startingAfter: starting_after,
      });
    },
  );
}
