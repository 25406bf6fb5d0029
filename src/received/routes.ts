import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { attachmentDisposition } from '../http/content-disposition.js';
import { authOf, callContext } from '../http/request-context.js';
import { idParams, nullable } from '../http/route-schemas.js';
import { refuse } from '../kernel/errors.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import {
  answerReceivedInvoice,
  getReceivedInvoice,
  ingestReceivedInvoice,
  listReceivedInvoices,
  receivedHistory,
  receivedOriginal,
  receivedPdf,
  type ReceivedFile,
} from './service.js';
import { keptValidationErrors } from './received-record.js';
import { receivedStatuses, refusalReasons } from './transitions.js';

const money = (description: string) => Type.Integer({ description: `${description}, in cents.` });

export const receivedInvoiceSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `rec_`.' }),
    object: Type.Literal('received_invoice'),
    livemode: Type.Boolean(),
    status: Type.Union(
      receivedStatuses.map((status) => Type.Literal(status)),
      { description: '`received` until the company answers; then the status of its last answer.' },
    ),
    paInvoiceId: Type.String({ description: 'Prefix `pa_`: the platform invoice reference.' }),
    flowId: Type.String({ description: "The platform's flow id: an invoice is ingested once per flow." }),
    establishmentId: Type.Union([Type.String(), Type.Null()], {
      description:
        "The establishment whose platform connection delivered it (its answers go back there); null: the sandbox's.",
    }),
    syntax: Type.String({ description: '`CII`, `UBL`, `Factur-X`, or `unknown` for a file that could not be read.' }),
    sender: Type.Object({
      siret: nullable(Type.String()),
      siren: nullable(Type.String()),
      name: nullable(Type.String()),
      vatNumber: nullable(Type.String()),
    }),
    buyer: Type.Object({ siret: nullable(Type.String()), siren: nullable(Type.String()), name: Type.String() }),
    number: Type.String(),
    typeCode: Type.String({ description: 'UNTDID 1001: `380` invoice, `381` credit note...' }),
    issueDate: nullable(Type.String()),
    dueDate: nullable(Type.String()),
    currency: Type.String(),
    lines: Type.Array(
      Type.Object({
        id: Type.String(),
        description: Type.String(),
        quantity: Type.String(),
        unitCode: Type.String(),
        unitPrice: Type.String(),
        netAmount: money('BT-131'),
        vatCode: Type.String(),
        vatRate: nullable(Type.String()),
      }),
    ),
    vatBreakdown: Type.Array(
      Type.Object({
        vatCode: Type.String(),
        vatRate: nullable(Type.String()),
        taxableAmount: money('BT-116'),
        taxAmount: money('BT-117'),
      }),
    ),
    totalHt: money('BT-109'),
    totalTva: money('BT-110'),
    totalTtc: money('BT-112'),
    amountDue: money('BT-115'),
    conformant: nullable(
      Type.Boolean({
        description:
          'The official validators’ verdict (warnings count: platforms reject on them). Null: not validated (an unreadable file is `false` with its reason).',
      }),
    ),
    validationErrors: Type.Array(
      Type.Object({
        rule: Type.String({ description: '`BR-CO-16`, `BR-FR-05_BT-22_PMT`, `XSD`, `UNREADABLE`...' }),
        flag: Type.String(),
        message: Type.String(),
        location: nullable(Type.String()),
      }),
    ),
    validationErrorCount: Type.Integer({
      description: `How many errors the validation found; \`validationErrors\` holds the first ${keptValidationErrors}.`,
    }),
    validators: Type.Array(Type.String()),
    ruleSet: nullable(
      Type.String({
        description:
          'The official rule set (FNFE-MPE version, e.g. `1.4.0.03`) in force on the date of receipt, which judged the file. Null when no validator judged it (unreadable).',
      }),
    ),
    receivedAt: Type.String(),
    created: Type.String(),
    updated: Type.String(),
  },
  { $id: 'ReceivedInvoice' },
);

const historySchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      object: Type.Literal('received_invoice_status'),
      status: Type.String({
        description: '`fr:203` at reception, then `fr:205`, `fr:210`, `fr:207`, `fr:208`, `fr:211`.',
      }),
      action: nullable(Type.String()),
      reasonCode: nullable(Type.String()),
      reason: nullable(Type.String()),
      messageId: nullable(Type.String({ description: 'The CDAR message id sent.' })),
      platformFlowId: nullable(Type.String()),
      at: Type.String(),
    }),
  ),
  has_more: Type.Boolean(),
  next_cursor: nullable(Type.String()),
  url: Type.String(),
});

const tags = ['Received invoices'];
const date = (description: string) => Type.Optional(Type.String({ format: 'date', description }));

function sendFile(reply: FastifyReply, file: ReceivedFile, ifNoneMatch: string | undefined) {
  const etag = `"${file.sha256}"`;
  reply
    .header('etag', etag)
    .header('content-disposition', attachmentDisposition(file.name))
    .header('repr-digest', `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`);
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*'))
    return reply.code(304).send();
  return reply
    .code(200)
    .header('content-type', file.contentType)
    .header('content-length', String(file.bytes.length))
    .send(file.bytes as unknown as string);
}

export async function receivedInvoiceRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/received-invoices',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'List received (purchase) invoices, newest first',
        querystring: Type.Object(
          {
            ...paginationQuery,
            sender: Type.Optional(Type.String({ pattern: '^\\d{14}$', description: "The sender's SIRET." })),
            status: Type.Optional(Type.Union(receivedStatuses.map((status) => Type.Literal(status)))),
            date_from: date('Invoice date on or after.'),
            date_to: date('Invoice date on or before.'),
          },
          { additionalProperties: false },
        ),
        response: { 200: listEnvelopeSchema(Type.Ref('ReceivedInvoice')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after, sender, status, date_from, date_to } = request.query;
      return listReceivedInvoices(
        deps,
        authOf(request).scope,
        { limit, startingAfter: starting_after },
        { senderSiret: sender, status, dateFrom: date_from, dateTo: date_to },
      );
    },
  );

  app.get(
    '/received-invoices/:id',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'Retrieve a received invoice',
        params: idParams,
        response: { 200: Type.Ref('ReceivedInvoice') },
      },
    },
    async (request) => getReceivedInvoice(deps, authOf(request).scope, request.params.id),
  );

  app.get(
    '/received-invoices/:id/files/original',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'The file as received, byte for byte',
        description:
          '`application/pdf` for a Factur-X, `application/xml` for a CII or UBL. `ETag` and `Repr-Digest` are its SHA-256; `If-None-Match` answers 304.',
        params: idParams,
        produces: ['application/pdf', 'application/xml'],
        response: { 200: Type.String({ description: 'The bytes of the file.' }), 304: Type.Null() },
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await receivedOriginal(deps, authOf(request).scope, request.params.id),
        request.headers['if-none-match'],
      ),
  );

  app.get(
    '/received-invoices/:id/files/pdf',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'The visual of a received invoice',
        description:
          'The Factur-X PDF as received, or a PDF drawn from the XML of a CII or UBL invoice (rendered once, then kept). A file that could not be read: `not_supported`.',
        params: idParams,
        produces: ['application/pdf'],
        response: { 200: Type.String({ description: 'The bytes of the PDF.' }), 304: Type.Null() },
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await receivedPdf(deps, authOf(request).scope, request.params.id),
        request.headers['if-none-match'],
      ),
  );

  app.get(
    '/received-invoices/:id/history',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'The statuses of a received invoice, oldest first',
        params: idParams,
        response: { 200: historySchema },
      },
    },
    async (request) => receivedHistory(deps, authOf(request).scope, request.params.id),
  );

  const reasonCode = Type.String({ maxLength: 40, description: 'A reason code of the reform (MDT-113).' });
  const reason = Type.String({ minLength: 1, maxLength: 1000, description: 'Free text sent with the status.' });
  for (const [action, summary, description, body] of [
    [
      'approve',
      'Approve a received invoice (status 205)',
      'From `received`, `disputed` or `suspended`.',
      Type.Object({ reason: Type.Optional(reason) }, { additionalProperties: false }),
    ],
    [
      'refuse',
      'Refuse a received invoice (status 210, final)',
      `From \`received\`, \`disputed\` or \`suspended\` (not after an approval: dispute it). \`reasonCode\` is required, one of ${refusalReasons.join(', ')}; \`reason\` explains it.`,
      Type.Object({ reasonCode, reason }, { additionalProperties: false }),
    ],
    [
      'dispute',
      'Dispute a received invoice (status 207)',
      'From `received`, `approved` or `suspended`. `reasonCode` (default `AUTRE`) among the 207 codes of the reform.',
      Type.Object(
        { reasonCode: Type.Optional(reasonCode), reason: Type.Optional(reason) },
        { additionalProperties: false },
      ),
    ],
    [
      'suspend',
      'Suspend a received invoice (status 208)',
      'From `received` or `disputed`: a piece is missing. `reasonCode` (default `JUSTIF_ABS`): `JUSTIF_ABS`, `CMD_ERR`, `REF_CT_ABSENT`, `COORD_BANC_ERR`.',
      Type.Object(
        { reasonCode: Type.Optional(reasonCode), reason: Type.Optional(reason) },
        { additionalProperties: false },
      ),
    ],
    [
      'payment-transmitted',
      'Tell the seller the payment was transmitted (status 211)',
      'From `received` or `approved`.',
      Type.Object({ reason: Type.Optional(reason) }, { additionalProperties: false }),
    ],
  ] as const) {
    app.post(
      `/received-invoices/:id/${action}`,
      {
        config: { access: 'invoices:write' },
        schema: {
          tags,
          summary,
          description: `${description} Sent as a CDAR status through the company's platform and kept in the history. Another state: \`invalid_status_transition\`. Live without a platform: \`pa_not_configured\`; a platform that does not take it: \`pa_unavailable\` (nothing changes).`,
          params: idParams,
          body,
          response: { 200: Type.Ref('ReceivedInvoice') },
        },
      },
      async (request) => {
        const input = (request.body ?? {}) as { reasonCode?: string; reason?: string };
        return answerReceivedInvoice(deps, callContext(request), request.params.id, action, input);
      },
    );
  }

  app.post(
    '/sandbox/received-invoices',
    {
      config: { access: 'invoices:write' },
      schema: {
        tags,
        summary: 'Receive an invoice in the sandbox',
        description:
          'As if the platform delivered it: `file` is the invoice file in base64 (a Factur-X PDF, a CII or a UBL XML), `flowId` the platform flow id (default a new one; the same one again returns the invoice already received, 200). Created: 201 and `invoice.incoming.received`. A live key gets `not_supported`.',
        body: Type.Object(
          {
            file: Type.String({ minLength: 1, contentEncoding: 'base64', description: 'The file, base64.' }),
            flowId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._:-]+$' })),
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('ReceivedInvoice'), 201: Type.Ref('ReceivedInvoice') },
      },
    },
    async (request, reply) => {
      const ctx = callContext(request);
      if (ctx.scope.livemode)
        throw refuse('not_supported', 'Invoices are received in the sandbox only with a `svc_test_` key.');
      const { file, flowId, name } = request.body;
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(file) || file.length % 4 !== 0)
        throw refuse('invalid_field_value', '`file` is not base64.', { param: 'file' });
      const result = await ingestReceivedInvoice(deps, ctx, {
        flowId: flowId ?? `sandbox-${randomUUID()}`,
        bytes: Buffer.from(file, 'base64'),
        name: name ?? null,
        refuseOverLimit: true,
      });
      return reply.code(result.created ? 201 : 200).send(result.invoice);
    },
  );
}
