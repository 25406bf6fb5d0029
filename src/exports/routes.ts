import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
import { authOf, callContext } from '../http/request-context.js';
import { idParams, nullable } from '../http/route-schemas.js';
import { ApiError } from '../kernel/errors.js';
import { listEnvelopeSchema, paginationQuery } from '../kernel/pagination.js';
import { grants } from '../kernel/scopes.js';
import { fecRequestBody } from './fec-request.js';
import type { ExportKind } from './export-record.js';
import { downloadExport, getExport, listExports, requestDataExport, requestFecExport } from './service.js';

export const exportSchema = Type.Object(
  {
    id: Type.String({ description: 'Prefix `exp_`.' }),
    object: Type.Literal('export'),
    livemode: Type.Boolean(),
    kind: Type.Union([Type.Literal('fec'), Type.Literal('data')], {
      description: '`fec`: the accounting file of a period; `data`: everything the company holds (data protection).',
    }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('ready'), Type.Literal('failed')], {
      description: '`pending` while its job runs, `ready` to download, `failed` when its job gave up.',
    }),
    jobId: Type.String({ description: 'The job that writes it (`GET /v1/jobs/:id`).' }),
    period: nullable(Type.Object({ from: Type.String(), to: Type.String() })),
    count: Type.Integer({
      description: 'FEC entries (EcritureNum), or records of a data export; so far while pending.',
    }),
    fileName: Type.String({ description: 'A FEC is named `<SIREN>FEC<YYYYMMDD>.txt`, the date being `to`.' }),
    contentType: Type.String(),
    size: Type.Integer({ description: 'Bytes; so far while pending.' }),
    sha256: nullable(Type.String({ description: 'SHA-256 of the file, hex, once ready.' })),
    downloadUrl: nullable(Type.String()),
    created: Type.String(),
    completedAt: nullable(Type.String()),
    expiresAt: Type.String({ description: 'The file is deleted then (7 days after the request).' }),
  },
  { $id: 'Export' },
);

const tags = ['Exports'];

/** The kinds a key may download: a data export holds everything, so it needs a key without scopes. */
function downloadableKinds(scopes: readonly string[] | null): ExportKind[] {
  return grants(scopes, 'full_access') ? ['fec', 'data'] : ['fec'];
}

export async function exportRoutes(parent: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/exports/fec',
    {
      // Exports stay open while the subscription is paused or cancelled: the company's data remains its own.
      config: {
        access: 'invoices:write',
        routeLimit: { name: 'exports-fec', max: 5, per: 'day' },
        openWhenPaused: true,
      },
      schema: {
        tags,
        summary: 'Export the accounting entries of a period (FEC)',
        description:
          'Answers `202` with a job (`GET /v1/jobs/:id`, its `result` the export); `export.ready` follows with `{id, object, count}`. The file: the 18 fields of article A47 A-1 of the LPF, sales journal from finalized invoices and credit notes, bank journal from payments and refunds, every entry balanced, entries numbered in chronological order. Live: 5 per day per key.',
        body: fecRequestBody,
        response: { 202: Type.Ref('Job') },
      },
    },
    async (request, reply) => {
      const job = await requestFecExport(deps, callContext(request), authOf(request).company, request.body);
      return reply.code(202).send(job);
    },
  );

  app.post(
    '/exports/data',
    {
      config: { access: 'full_access', openWhenPaused: true },
      schema: {
        tags,
        summary: 'Export everything the company holds in this environment (data protection)',
        description:
          'Answers `202` with a job; the file is a zip of JSON lines, one file per kind of record, with a `manifest.json`. Needs a key without scopes.',
        response: { 202: Type.Ref('Job') },
      },
    },
    async (request, reply) => {
      const job = await requestDataExport(deps, callContext(request), authOf(request).company);
      return reply.code(202).send(job);
    },
  );

  app.get(
    '/exports',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: 'List exports, newest first',
        querystring: Type.Object({ ...paginationQuery }, { additionalProperties: false }),
        response: { 200: listEnvelopeSchema(Type.Ref('Export')) },
      },
    },
    async (request) => {
      const { limit = 25, starting_after } = request.query;
      return listExports(deps, authOf(request).scope, { limit, startingAfter: starting_after });
    },
  );

  app.get(
    '/exports/:id',
    {
      config: { access: 'invoices:read' },
      schema: { tags, summary: 'Retrieve an export', params: idParams, response: { 200: Type.Ref('Export') } },
    },
    async (request) => getExport(deps, authOf(request).scope, request.params.id),
  );

  app.get(
    '/exports/:id/download',
    {
      config: { access: 'invoices:read' },
      schema: {
        tags,
        summary: "Download an export's file",
        description:
          'The file, streamed, with its `Content-Type`, `Content-Length`, `Content-Disposition` (its name) and `Repr-Digest` (its SHA-256). A data export needs a key without scopes. Not ready yet: `invalid_status_transition`.',
        params: idParams,
        produces: ['text/plain', 'application/zip'],
        response: { 200: Type.String({ description: 'The bytes of the file.' }) },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const kinds = downloadableKinds(auth.key.scopes);
      const { export: file, stream } = await downloadExport(deps, auth.scope, request.params.id, kinds).catch(
        async (error: unknown) => {
          // A data export read with a scoped key: the scope is what is missing, not the export.
          if (error instanceof ApiError && error.code === 'not_found' && kinds.length === 1) {
            const found = await getExport(deps, auth.scope, request.params.id).catch(() => null);
            if (found?.kind === 'data') throw new ApiError('scope_insufficient', { values: { scope: 'full access' } });
          }
          throw error;
        },
      );
      return (
        reply
          .code(200)
          .header('content-type', file.contentType)
          .header('content-length', String(file.size))
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('repr-digest', `sha-256=:${Buffer.from(file.sha256!, 'hex').toString('base64')}:`)
          .header('etag', `"${file.sha256}"`)
          // The schema describes the bytes for the OpenAPI document; a stream is sent as is, never serialized.
          .send(stream as unknown as string)
      );
    },
  );
}
