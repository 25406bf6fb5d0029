import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import {
  deleteDocumentDraft,
  documentEmails,
  documentHistory,
  emailDocumentToBuyer,
  getInvoiceDocument,
  listDocuments,
  sendToPlatform,
} from './service.js';
import { documentListQuery, documentEmailListSchema, historySchema } from './resource-schema.js';
import { sellerOf } from './request-seller.js';
import {
  createCreditNote,
  creditNoteCreateBody,
  creditNoteUpdateBody,
  finalizeCreditNote,
  listRefunds,
  refundBody,
  refundCreditNote,
  updateCreditNote,
} from './credit-notes.js';
import { nullable, idParams } from '../http/route-schemas.js';

export const refundSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `ref_`.' }),
    object: Type.Literal('refund'),
    livemode: Type.Boolean(),
    creditNoteId: Type.String(),
    invoiceId: Type.String(),
    amount: Type.Integer({ description: 'Cents.' }),
    currency: Type.String(),
    method: Type.String(),
    reference: nullable(Type.String()),
    refundedAt: Type.String(),
    fr212: nullable(Type.Ref('Fr212')),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    created: Type.String(),
  },
  { $id: 'Refund' },
);

const tags = ['Credit notes'];

export async function creditNoteRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/credit-notes',
    {
      config: { access: 'credit_notes:write' },
      schema: {
        tags,
        summary: 'Create a draft credit note',
        description:
          'With `relatedInvoiceId`, it corrects that finalized invoice (same buyer; `relatedInvoiceNumber` is frozen now); without `lines` it credits the whole invoice, with `lines` a part of it. It is finalized on its own tax decision, in its own number series. `credit_note.created`.',
        body: creditNoteCreateBody,
        response: { 201: Type.Ref('CreditNote') },
      },
    },
    async (request, reply) => reply.code(201).send(await createCreditNote(deps, callContext(request), request.body)),
  );

  app.get(
    '/credit-notes',
    {
      config: { access: 'credit_notes:read' },
      schema: {
        tags,
        summary: 'List credit notes, newest first',
        querystring: Type.Object(
          { ...documentListQuery, relatedInvoiceId: Type.Optional(Type.String({ maxLength: 255 })) },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('CreditNote')) },
      },
    },
    async (request) => {
      const {
        limit = 25,
        starting_after,
        status,
        customerId,
        date_from,
        date_to,
        number,
        relatedInvoiceId,
      } = request.query;
      return listDocuments(
        deps,
        authOf(request).scope,
        'credit_note',
        { limit, startingAfter: starting_after },
        { status, customerId, dateFrom: date_from, dateTo: date_to, number, relatedInvoiceId },
        '/v1/credit-notes',
      );
    },
  );

  app.get(
    '/credit-notes/:id',
    {
      config: { access: 'credit_notes:read' },
      schema: {
        tags,
        summary: 'Retrieve a credit note, with its `einvoicing` block',
        params: idParams,
        response: { 200: Type.Ref('CreditNote') },
      },
    },
    async (request) => getInvoiceDocument(deps, authOf(request).scope, 'credit_note', request.params.id),
  );

  app.post(
    '/credit-notes/:id',
    {
      config: { access: 'credit_notes:write' },
      schema: {
        tags,
        summary: 'Edit a draft credit note',
        description: 'A finalized credit note answers `invoice_not_editable`.',
        params: idParams,
        body: creditNoteUpdateBody,
        response: { 200: Type.Ref('CreditNote') },
      },
    },
    async (request) => updateCreditNote(deps, callContext(request), request.params.id, request.body),
  );

  app.delete(
    '/credit-notes/:id',
    {
      config: { access: 'credit_notes:write' },
      schema: {
        tags,
        summary: 'Delete a draft credit note (`documentStatus: cancelled`)',
        params: idParams,
        response: { 200: Type.Ref('CreditNote') },
      },
    },
    async (request) => deleteDocumentDraft(deps, callContext(request), 'credit_note', request.params.id),
  );

  app.post(
    '/credit-notes/:id/finalize',
    {
      config: { access: 'credit_notes:write', routeLimit: { name: 'credit-notes-finalize', max: 10, per: 'minute' } },
      schema: {
        tags,
        summary: 'Finalize a credit note: number it in its own series',
        description:
          "The same checks as an invoice's finalization (its own tax decision, buyer identity, issuer). What the buyer owes on the related invoice goes down in the same transaction; the credit notes of an invoice never credit more than its total. Live: 10 per minute per key, and the monthly quota. `credit_note.finalized`.",
        params: idParams,
        response: { 200: Type.Ref('CreditNote') },
      },
    },
    async (request) => finalizeCreditNote(deps, callContext(request), request.params.id, sellerOf(request)),
  );

  app.post(
    '/credit-notes/:id/send',
    {
      config: { access: 'credit_notes:write' },
      schema: {
        tags,
        summary: 'Send a finalized credit note through the approved platform',
        description:
          'As for invoices: `credit_note.sent` (with `paStatus`, and `paInvoiceId` null: the platform has not received it yet; `einvoicing.paFlowId` names it once deposited). Deposited through the connected platform of the establishment; a test establishment without one uses the simulated platform; live without one: `pa_not_configured`.',
        params: idParams,
        response: { 200: Type.Ref('CreditNote') },
      },
    },
    async (request) => sendToPlatform(deps, callContext(request), 'credit_note', request.params.id),
  );

  app.post(
    '/credit-notes/:id/email',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'E-mail a finalized credit note to its buyer',
        description:
          "The credit note's Factur-X (the file as issued, a PDF any reader opens) e-mailed to the buyer's address frozen at finalization, through the operator's SMTP server (`FACTEUR_SMTP_URL`), as a durable job (retried on a 4xx or a lost connection; a 5xx is recorded as a bounce). Outside e-invoicing (B2C, international: `send` answers `not_einvoicing_channel`) this is how the credit note is sent: `credit_note.sent` once the e-mail leaves; within e-invoicing it is a copy (the contract's fallback while the buyer has no directory address) and no event. Test mode: logged, never sent; the event at once. While the files are being generated: 409 `conflict` with `Retry-After`. Refused with `missing_required_field` (`buyer.email`) when the buyer has no e-mail address, `not_supported` in live without an SMTP server, `invalid_status_transition` for a draft.",
        params: idParams,
        response: { 200: Type.Ref('CreditNote') },
      },
    },
    async (request) => emailDocumentToBuyer(deps, callContext(request), 'credit_note', request.params.id),
  );

  app.get(
    '/credit-notes/:id/emails',
    {
      config: { access: 'credit_notes:read' },
      schema: {
        tags,
        summary: 'The e-mails of a credit note',
        description:
          'Every e-mail of the document (`POST .../email`), oldest first: to whom, its state (`sent` with the time the SMTP server accepted it, `pending` and retried, `bounced`, or `logged` and never sent, with why), its attempts and Message-ID. A document never e-mailed has an empty list.',
        params: idParams,
        response: { 200: documentEmailListSchema },
      },
    },
    async (request) => documentEmails(deps, authOf(request).scope, 'credit_note', request.params.id),
  );

  app.get(
    '/credit-notes/:id/history',
    {
      config: { access: 'credit_notes:read' },
      schema: {
        tags,
        summary: 'The life-cycle statuses received for a credit note',
        params: idParams,
        response: { 200: historySchema },
      },
    },
    async (request) => documentHistory(deps, authOf(request).scope, 'credit_note', request.params.id),
  );

  app.post(
    '/credit-notes/:id/refunds',
    {
      config: { access: 'credit_notes:write' },
      schema: {
        tags,
        summary: 'Refund (part of) a finalized credit note',
        description:
          "Records money given back to the buyer: the related invoice's `paymentStatus` moves to `partially_refunded` or `refunded` and `payment.received` reports the (negative) variation of the total collected. On a domestic B2B e-invoice whose VAT is due on collection, the refund owes a negative payment statement (status 212): its `fr212`, sent by the same pass as the payments'. Refused with `credit_note_not_refundable` (not finalized, or fully refunded), `invalid_refund_amount` (zero, negative or malformed), `refund_exceeds_credit_note` (above what is left: the credit note's remainder, and never more than was paid on the invoice), `related_invoice_not_found`.",
        params: idParams,
        body: refundBody,
        response: { 201: Type.Ref('Refund') },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await refundCreditNote(deps, callContext(request), request.params.id, request.body)),
  );

  app.get(
    '/credit-notes/:id/refunds',
    {
      config: { access: 'credit_notes:read' },
      schema: {
        tags,
        summary: 'The refunds of a credit note, newest first',
        params: idParams,
        querystring: Type.Object(paginationQuery, { additionalProperties: false }),
        response: { 200: listEnvelopeSchema(Type.Ref('Refund')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after } = request.query;
      return listRefunds(deps, authOf(request).scope, request.params.id, { limit, startingAfter: starting_after });
    },
  );
}
