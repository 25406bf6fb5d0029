import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { nullable } from '../http/route-schemas.js';
import { documentFile, verifyDocumentArchive } from './service.js';
import type { DocumentKind } from './document-axes.js';
import { fileKinds, type FileKind } from './document-files.js';

const verificationSchema = Type.Object(
  {
    object: Type.Literal('archive_verification'),
    documentId: Type.String(),
    documentNumber: nullable(Type.String()),
    livemode: Type.Boolean(),
    status: Type.Union(
      ['intact', 'altered', 'not_archived', 'pending'].map((value) => Type.Literal(value)),
      {
        description:
          '`intact`: the entry, the chain up to it and the stored files hash as recorded; `altered`: one of them does not (see `checks`); `not_archived`: a test document, a draft, or files the validators refused; `pending`: the files are being generated.',
      },
    ),
    intact: nullable(Type.Boolean({ description: 'Null when there is nothing to verify.' })),
    message: Type.String(),
    checks: Type.Array(
      Type.Object({
        check: Type.Union(['entry', 'entry_hash', 'chain', 'files'].map((value) => Type.Literal(value))),
        ok: Type.Boolean(),
        detail: Type.String(),
      }),
    ),
    entry: nullable(
      Type.Object({
        sequence: Type.Integer(),
        documentId: Type.String(),
        documentKind: Type.String(),
        documentNumber: Type.String(),
        fileHashes: Type.Record(Type.String(), Type.String()),
        ruleSet: nullable(
          Type.String({
            description:
              'The rule set (FNFE-MPE version, e.g. `1.4.0.03`) in force on the issue date, which validated the files; null in an entry made before it was recorded.',
          }),
        ),
        archivedAt: Type.String(),
        previousHash: Type.String(),
        entryHash: Type.String(),
      }),
    ),
    verifiedAt: Type.String(),
  },
  { $id: 'ArchiveVerification' },
);

export const archiveVerificationSchema = verificationSchema;

const paths: Record<DocumentKind, { prefix: string; tags: string[]; scope: string; label: string }> = {
  invoice: { prefix: '/invoices', tags: ['Invoices'], scope: 'invoices:read', label: 'an invoice' },
  credit_note: { prefix: '/credit-notes', tags: ['Credit notes'], scope: 'credit_notes:read', label: 'a credit note' },
};

const fileDescriptions: Record<FileKind, string> = {
  facturx:
    'The Factur-X (EN 16931 profile): the readable PDF/A-3b carrying its CII as `factur-x.xml`, named `<number>.pdf`. This is the invoice the platform receives.',
  xml: 'The CII (UN/CEFACT Cross Industry Invoice, Factur-X EN 16931) alone, `<number>.xml`: byte-identical to the attachment of the Factur-X.',
  pdf: 'The readable PDF without attachment, `<number>-visual.pdf`.',
  ubl: 'The UBL 2.1 Invoice (or CreditNote for a credit note), EN 16931, `<number>-ubl.xml`: the same document as the CII, in the other syntax the platforms accept, validated by the OASIS UBL 2.1 XSD, the EN 16931 UBL schematron and the BR-FR rules for UBL. A document generated before UBL was issued has none: 400 `not_supported`.',
};

const fileTitles: Record<FileKind, string> = {
  facturx: 'Factur-X',
  xml: 'CII XML',
  pdf: 'readable PDF',
  ubl: 'UBL XML',
};

/** The files and the archive verification of invoices and credit notes. */
export async function documentFileRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  for (const kind of ['invoice', 'credit_note'] as const) {
    const { prefix, tags, scope, label } = paths[kind];
    for (const fileKind of fileKinds) {
      app.get(
        `${prefix}/:id/files/${fileKind}`,
        {
          config: { access: scope as 'invoices:read' },
          schema: {
            tags,
            summary: `Download the ${fileTitles[fileKind]} of ${label}`,
            description: `${fileDescriptions[fileKind]} With \`ETag\` (its SHA-256, quoted; \`If-None-Match\` answers 304) and \`Content-Disposition\`. While the files are being generated (right after the finalization): 409 \`conflict\` with \`Retry-After\`. A draft has no file: 409 \`conflict\`. Files the official validators refused: \`schematron_validation_failed\` naming the failed rule ids in its message. The first download of a document outside e-invoicing (B2C, international) is its manual sending: \`invoice.sent\` (\`credit_note.sent\`), once.`,
            params: Type.Object({ id: Type.String({ maxLength: 255 }) }),
            produces: [fileKind === 'xml' || fileKind === 'ubl' ? 'application/xml' : 'application/pdf'],
            response: {
              200: Type.String({ description: 'The bytes of the file.' }),
              304: Type.Null({ description: 'Not modified: `If-None-Match` named its ETag.' }),
            },
          },
        },
        async (request, reply) => {
          const ctx = callContext(request);
          const file = await documentFile(deps, ctx.scope, kind, request.params.id, fileKind, ctx);
          const etag = `"${file.sha256}"`;
          reply.header('etag', etag).header('cache-control', 'private, max-age=0, must-revalidate');
          const asked = request.headers['if-none-match'];
          if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))
            return reply.code(304).send(null);
          return (
            reply
              .code(200)
              .header('content-type', file.contentType)
              .header('content-length', String(file.bytes.length))
              .header('content-disposition', `attachment; filename="${file.fileName}"`)
              .header('repr-digest', `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`)
              // Bytes are sent as they are, never serialized.
              .send(file.bytes as unknown as string)
          );
        },
      );
    }

    app.get(
      `${prefix}/:id/verify`,
      {
        schema: {
          tags,
          summary: `Verify ${label} against the legal archive`,
          description:
            "Recomputes the document's archive entry, the company's hash chain up to it and the SHA-256 of its stored files, and says whether all are intact and, if not, why (`checks`). Test documents never enter the archive: `status: not_archived` (`not archived`). Any key.",
          params: Type.Object({ id: Type.String({ maxLength: 255 }) }),
          response: { 200: Type.Ref('ArchiveVerification') },
        },
      },
      async (request) => verifyDocumentArchive(deps, authOf(request).scope, kind, request.params.id),
    );
  }
}
