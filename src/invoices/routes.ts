import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { listEnvelopeSchema } from '../kernel/pagination.js';
import { invoiceCreateBody, invoiceUpdateBody } from './drafts.js';
import {
  createInvoice,
  deleteDocumentDraft,
  documentEmails,
  documentHistory,
  finalize,
  getInvoiceDocument,
  listDocuments,
  paymentLink,
  sendToPlatform,
  emailDocumentToBuyer,
  simulateBody,
  simulateReportedStatus,
  updateDocumentDraft,
} from './service.js';
import { idParams } from '../http/route-schemas.js';

import { documentListQuery, documentEmailListSchema, historySchema } from './resource-schema.js';
import { sellerOf } from './request-seller.js';

const tags = ['Invoices'];

/** The seller as the authenticated key's company gives it. */

export async function invoiceRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/invoices',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Create a draft invoice',
        description:
          'With `customerId` or an inline `buyer`, and lines from products (`productId`) or free (description, quantity, unit price, unit, nature). Nothing is numbered: `invoice.created`.',
        body: invoiceCreateBody,
        response: { 201: Type.Ref('Invoice') },
      },
    },
    async (request, reply) => reply.code(201).send(await createInvoice(deps, callContext(request), request.body)),
  );

  app.get(
    '/invoices',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'List invoices, newest first',
        querystring: Type.Object(documentListQuery, { additionalProperties: false }),
        response: { 200: listEnvelopeSchema(Type.Ref('Invoice')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, status, customerId, date_from, date_to, number } = request.query;
      return listDocuments(
        deps,
        authOf(request).scope,
        'invoice',
        { limit, startingAfter: starting_after },
        { status, customerId, dateFrom: date_from, dateTo: date_to, number },
        '/v1/invoices',
      );
    },
  );

  app.get(
    '/invoices/:id',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'Retrieve an invoice, with its `einvoicing` block',
        params: idParams,
        response: { 200: Type.Ref('Invoice') },
      },
    },
    async (request) => getInvoiceDocument(deps, authOf(request).scope, 'invoice', request.params.id),
  );

  app.post(
    '/invoices/:id',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Edit a draft invoice',
        description:
          'Absent fields are kept, null clears, `lines` and `metadata` are replaced whole. A finalized invoice answers `invoice_not_editable`: issue a credit note.',
        params: idParams,
        body: invoiceUpdateBody,
        response: { 200: Type.Ref('Invoice') },
      },
    },
    async (request) => updateDocumentDraft(deps, callContext(request), 'invoice', request.params.id, request.body),
  );

  app.delete(
    '/invoices/:id',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Delete a draft invoice',
        description:
          'Drafts only: sets `documentStatus: cancelled` (it never had a number). A finalized invoice answers `invoice_not_editable`.',
        params: idParams,
        response: { 200: Type.Ref('Invoice') },
      },
    },
    async (request) => deleteDocumentDraft(deps, callContext(request), 'invoice', request.params.id),
  );

  app.post(
    '/invoices/:id/finalize',
    {
      config: { access: 'invoices:write', routeLimit: { name: 'invoices-finalize', max: 10, per: 'minute' } },
      schema: {
        tags,
        summary: 'Finalize an invoice: number it',
        description:
          "Backed by its tax decision (final, unexpired, backing no other document, matching customer, currency, lines and totals: the `tax_decision_*` codes). A buyer whose identity the registry keeps from publication is refused with `buyer_identity_not_disclosed` before anything is numbered or reserved; an invoice to the issuer's own SIREN with `self_invoicing_not_allowed`. The number is taken atomically: consecutive per company, series and environment. Live: 10 per minute per key, and the monthly quota. `invoice.finalized`.",
        params: idParams,
        response: { 200: Type.Ref('Invoice') },
      },
    },
    async (request) => finalize(deps, callContext(request), 'invoice', request.params.id, sellerOf(request)),
  );

  app.post(
    '/invoices/:id/send',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Send a finalized invoice through the approved platform',
        description:
          'The invoice goes to the platform (`sending`; `invoice.sent` and `invoice.sending`). After a rejection by the platform, sending again is a resubmission: the rejection fields move into `einvoicing.previousSubmissions` and reset to null. Refused with `not_einvoicing_channel` when the tax decision routes the invoice outside e-invoicing (B2C, international), `invalid_status_transition` for a draft, a document already on its way or refused by the buyer. When the seller establishment is connected to its platform (live, or a test establishment pointed at a `pa-simulator`), a durable deposit job carries the Factur-X there (directory pre-check, exactly one deposit per attempt) and the statuses of the platform come back by polling and callback; `einvoicing.paTrackingId` and, once deposited, `paFlowId` name it. Refused with `pa_not_configured` (live, no platform), `deposit_not_enabled`, `schematron_validation_failed` (files that failed validation). A test establishment without a connection uses the simulated platform (drive its answers with `POST /v1/sandbox/invoices/:id/simulate`).',
        params: idParams,
        response: { 200: Type.Ref('Invoice') },
      },
    },
    async (request) => sendToPlatform(deps, callContext(request), 'invoice', request.params.id),
  );

  app.post(
    '/invoices/:id/email',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'E-mail a finalized invoice to its buyer',
        description:
          "The invoice's Factur-X (the file as issued, a PDF any reader opens) e-mailed to the buyer's address frozen at finalization, through the operator's SMTP server (`FACTEUR_SMTP_URL`), as a durable job (retried on a 4xx or a lost connection; a 5xx is recorded as a bounce). Outside e-invoicing (B2C, international: `send` answers `not_einvoicing_channel`) this is how the invoice is sent: `invoice.sent` once the e-mail leaves; within e-invoicing it is a copy (the contract's fallback while the buyer has no directory address) and no event. Test mode: logged, never sent; the event at once. While the files are being generated: 409 `conflict` with `Retry-After`. Refused with `missing_required_field` (`buyer.email`) when the buyer has no e-mail address, `not_supported` in live without an SMTP server, `invalid_status_transition` for a draft.",
        params: idParams,
        response: { 200: Type.Ref('Invoice') },
      },
    },
    async (request) => emailDocumentToBuyer(deps, callContext(request), 'invoice', request.params.id),
  );

  app.get(
    '/invoices/:id/emails',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'The e-mails of an invoice',
        description:
          'Every e-mail of the document (`POST .../email`), oldest first: to whom, its state (`sent` with the time the SMTP server accepted it, `pending` and retried, `bounced`, or `logged` and never sent, with why), its attempts and Message-ID. A document never e-mailed has an empty list.',
        params: idParams,
        response: { 200: documentEmailListSchema },
      },
    },
    async (request) => documentEmails(deps, authOf(request).scope, 'invoice', request.params.id),
  );

  app.get(
    '/invoices/:id/history',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'The life-cycle statuses received for an invoice',
        description:
          'Every status the platform or the buyer reported, oldest first, with whether it changed the invoice (a repeat, a late status or `fr:211` does not).',
        params: idParams,
        response: { 200: historySchema },
      },
    },
    async (request) => documentHistory(deps, authOf(request).scope, 'invoice', request.params.id),
  );

  app.post(
    '/invoices/:id/payment-link',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'An online payment link for a live invoice',
        description:
          'The public payment page of the invoice. Test invoices: 422 `sandbox_payment_unavailable` (test the flow with a live key on a live invoice). A draft, or an invoice with nothing due: `invalid_status_transition`.',
        params: idParams,
        response: {
          200: Type.Object({
            object: Type.Literal('payment_link'),
            livemode: Type.Boolean(),
            invoiceId: Type.String(),
            url: Type.String(),
            amountDue: Type.Integer({ description: 'Cents.' }),
            currency: Type.String(),
          }),
        },
      },
    },
    async (request) => paymentLink(deps, callContext(request), request.params.id),
  );

  app.post(
    '/sandbox/invoices/:id/simulate',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags: ['Sandbox'],
        summary: 'Simulate a status reported by the platform or the buyer (test keys only)',
        description:
          "The sandbox's platform or the buyer reports a life-cycle status (`fr:200` deposited ... `fr:205` approved, `fr:210` refused, `fr:213` rejected, `fr:211` payment transmitted...) on a sent invoice or credit note, with its `reasonCode`, `reason` and `notes`. It takes the live path: the submission is deposited on the pa-simulator the service runs in process (its first status), the status comes back as a CDAR message read over HTTPS, and is applied as a real one: only observed moves emit their event, nothing downgrades, a repeat changes nothing; every status is kept in the history. A status or reason no platform sends is refused (`missing_required_field`, `invalid_field_value`, `param: reasonCode`); a `fr:213` with a code no life-cycle message carries (`REJ_XSD`...) as the first status of a submission is the platform refusing its deposit. A live key, or a document whose establishment is connected to a platform, gets `not_supported`.",
        params: idParams,
        body: simulateBody,
        response: { 200: Type.Union([Type.Ref('Invoice'), Type.Ref('CreditNote')]) },
      },
    },
    async (request) => simulateReportedStatus(deps, callContext(request), request.params.id, request.body),
  );
}
