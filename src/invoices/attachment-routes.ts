import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { nullable } from '../http/route-schemas.js';
import { listEnvelopeSchema } from '../kernel/pagination.js';
import {
  attachmentBodyLimit,
  attachmentCodes,
  attachmentContentTypes,
  contentDisposition,
  maxAttachmentBytes,
  maxAttachmentsPerDocument,
  maxDocumentAttachmentBytes,
} from './attachment-rules.js';
import { addAttachment, attachmentFile, deleteAttachment, getAttachment, listAttachments } from './attachments.js';

/** The `Attachment` component: what the document lists (`attachments`) and the attachment routes answer. */
export const attachmentSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `att_`.' }),
    object: Type.Literal('attachment'),
    filename: Type.String({ description: 'BT-125 `filename`, BT-122, and the name of the file in the Factur-X.' }),
    contentType: Type.String({ description: `BT-125 \`mimeCode\`: ${attachmentContentTypes.join(', ')}.` }),
    size: Type.Integer({ description: 'Bytes (decoded).' }),
    sha256: Type.String({ description: 'SHA-256 of the bytes (hex): the ETag of its content.' }),
    description: nullable(Type.String({ description: 'Free text; in the Factur-X, the embedded file’s description.' })),
    code: Type.String({ description: `BT-123, a BR-FR-17 code: ${attachmentCodes.join(', ')}.` }),
    created: Type.String(),
  },
  { $id: 'Attachment' },
);

const attachmentBody = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 200, description: 'Without path; unique in the document.' }),
    contentType: Type.String({ maxLength: 100, description: attachmentContentTypes.join(', ') }),
    content: Type.String({
      description: `The bytes in base64 (RFC 4648, padded); at most ${maxAttachmentBytes} bytes decoded.`,
    }),
    description: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
    code: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'BT-123 (BR-FR-17); default `PJA`. `LISIBLE` at most once per document.',
      }),
    ),
  },
  { additionalProperties: false },
);

const documentParams = Type.Object({ id: Type.String({ maxLength: 255 }) });
const attachmentParams = Type.Object({
  id: Type.String({ maxLength: 255 }),
  attachmentId: Type.String({ maxLength: 255 }),
});

const paths = {
  invoice: {
    prefix: '/invoices',
    tags: ['Invoices'],
    read: 'invoices:read',
    write: 'invoices:write',
    label: 'invoice',
  },
  credit_note: {
    prefix: '/credit-notes',
    tags: ['Credit notes'],
    read: 'credit_notes:read',
    write: 'credit_notes:write',
    label: 'credit note',
  },
} as const;

export async function attachmentRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  for (const kind of ['invoice', 'credit_note'] as const) {
    const { prefix, tags, read, write, label } = paths[kind];
    app.post(
      `${prefix}/:id/attachments`,
      {
        config: { access: write },
        bodyLimit: attachmentBodyLimit,
        schema: {
          tags,
          summary: `Attach a supporting document to a draft ${label}`,
          description: `BG-24, carried by the files generated at finalization (base64 in the CII and the UBL, an embedded file with AFRelationship \`Supplement\` in the Factur-X). On a draft only: a finalized ${label} answers \`invoice_not_editable\`. Types: ${attachmentContentTypes.join(', ')}; the bytes must match the type (\`invalid_field_value\`, param \`content\`). At most ${maxAttachmentBytes} bytes decoded (a bigger body: \`payload_too_large\`), ${maxAttachmentsPerDocument} attachments and ${maxDocumentAttachmentBytes} bytes per document. Counted in the plan's storage: \`storage_quota_exceeded\` past it.`,
          params: documentParams,
          body: attachmentBody,
          response: { 201: Type.Ref('Attachment') },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await addAttachment(deps, callContext(request), kind, request.params.id, request.body)),
    );

    app.get(
      `${prefix}/:id/attachments`,
      {
        config: { access: read },
        schema: {
          tags,
          summary: `List the attachments of ${label === 'invoice' ? 'an invoice' : 'a credit note'}`,
          description: `In the order they were added; at most ${maxAttachmentsPerDocument}, one page.`,
          params: documentParams,
          response: { 200: listEnvelopeSchema(Type.Ref('Attachment')) },
        },
      },
      async (request) =>
        listAttachments(
          deps,
          authOf(request).scope,
          kind,
          request.params.id,
          `/v1${prefix}/${request.params.id}/attachments`,
        ),
    );

    app.get(
      `${prefix}/:id/attachments/:attachmentId`,
      {
        config: { access: read },
        schema: {
          tags,
          summary: `Retrieve an attachment of ${label === 'invoice' ? 'an invoice' : 'a credit note'}`,
          params: attachmentParams,
          response: { 200: Type.Ref('Attachment') },
        },
      },
      async (request) =>
        getAttachment(deps, authOf(request).scope, kind, request.params.id, request.params.attachmentId),
    );

    app.get(
      `${prefix}/:id/attachments/:attachmentId/content`,
      {
        config: { access: read },
        schema: {
          tags,
          summary: `Download an attachment of ${label === 'invoice' ? 'an invoice' : 'a credit note'}`,
          description:
            'The bytes as uploaded, with their `Content-Type`, `ETag` (their SHA-256, quoted; `If-None-Match` answers 304) and `Content-Disposition` naming the file.',
          params: attachmentParams,
          produces: [...attachmentContentTypes],
          response: {
            200: Type.String({ description: 'The bytes of the file.' }),
            304: Type.Null({ description: 'Not modified: `If-None-Match` named its ETag.' }),
          },
        },
      },
      async (request, reply) => {
        const { record, bytes } = await attachmentFile(
          deps,
          authOf(request).scope,
          kind,
          request.params.id,
          request.params.attachmentId,
        );
        const etag = `"${record.sha256}"`;
        reply.header('etag', etag).header('cache-control', 'private, max-age=0, must-revalidate');
        const asked = request.headers['if-none-match'];
        if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))
          return reply.code(304).send(null);
        return (
          reply
            .code(200)
            .header('content-type', record.contentType)
            .header('content-length', String(bytes.length))
            .header('content-disposition', contentDisposition(record.filename))
            .header('x-content-type-options', 'nosniff')
            // Bytes are sent as they are, never serialized.
            .send(bytes as unknown as string)
        );
      },
    );

    app.delete(
      `${prefix}/:id/attachments/:attachmentId`,
      {
        config: { access: write },
        schema: {
          tags,
          summary: `Delete an attachment of a draft ${label}`,
          description: `Releases its storage. A finalized ${label} answers \`invoice_not_editable\`: its attachments are frozen with it.`,
          params: attachmentParams,
          response: {
            200: Type.Object({ id: Type.String(), object: Type.Literal('attachment'), deleted: Type.Literal(true) }),
          },
        },
      },
      async (request) =>
        deleteAttachment(deps, callContext(request), kind, request.params.id, request.params.attachmentId),
    );
  }
}
