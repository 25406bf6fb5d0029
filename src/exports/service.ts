import { Readable } from 'node:stream';
import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { enqueueJob, getJob, type Job } from '../jobs/service.js';
import { dataJobKind, startDataCursor } from './data-job.js';
import type { DataExportRecord } from './data-source.js';
import { toExport, type ExportKind, type ExportResource } from './export-record.js';
import { fecContentType, fecFileName } from './fec-format.js';
import { fecJobKind, startCursor } from './fec-job.js';
import { fecOptionsOf, type FecRequest } from './fec-request.js';
import { readChunks } from './file-chunks.js';
import { releaseExportStorage } from './storage-usage.js';
import {
  deleteExport,
  deleteScopeExports,
  expiredExports,
  exportsAfter,
  findExport,
  insertExport,
  pageExports,
  type ExportRow,
} from './store.js';

/**
 * Exports: `POST /v1/exports/fec` and `POST /v1/exports/data` queue a job and answer it; the
 * job writes the file into PostgreSQL chunk by chunk (fec-job.ts, data-job.ts); the file is
 * then listed, read and downloaded from any node until it expires.
 */

export type { ExportResource } from './export-record.js';
export type { FecRequest } from './fec-request.js';

/** How long a file is kept for download after its request. */
export const exportRetentionMs = 7 * 86_400_000;

export interface ExportRequested {
  export: ExportResource;
  job: Job;
}

async function queueExport(
  deps: Pick<Deps, 'db' | 'clock'>,
  ctx: CallContext,
  fields: Pick<ExportRow, 'kind' | 'periodFrom' | 'periodTo' | 'options' | 'cursor' | 'fileName' | 'contentType'>,
  jobKind: string,
): Promise<Job> {
  const id = newId('export', ctx.now);
  return inTransaction(deps.db, ctx, async (tx) => {
    const job = await enqueueJob(tx, ctx, deps.clock.now(), { kind: jobKind, input: { exportId: id }, total: 0 });
    const row: ExportRow = {
      ...ctx.scope,
      ...fields,
      id,
      status: 'pending',
      jobId: job.id,
      count: 0,
      size: 0,
      chunks: 0,
      sha256: null,
      created: ctx.now,
      completedAt: null,
      expiresAt: new Date(ctx.now.getTime() + exportRetentionMs),
    };
    await insertExport(tx, row);
    return { ...job, result: toExport(row) as unknown as Record<string, unknown> };
  });
}

/** `POST /v1/exports/fec`: the job that writes the period's FEC; its result is the export. */
export async function requestFecExport(
  deps: Pick<Deps, 'db' | 'clock'>,
  ctx: CallContext,
  seller: { siren: string },
  body: FecRequest,
): Promise<Job> {
  const options = fecOptionsOf(body);
  return queueExport(
    deps,
    ctx,
    {
      kind: 'fec',
      periodFrom: body.from,
      periodTo: body.to,
      options: options as unknown as Record<string, unknown>,
      cursor: startCursor(options.chart) as unknown as Record<string, unknown>,
      fileName: fecFileName(seller.siren, body.to),
      contentType: fecContentType,
    },
    fecJobKind,
  );
}

/** `POST /v1/exports/data`: the job that gathers everything the company holds in this environment. */
export async function requestDataExport(
  deps: Pick<Deps, 'db' | 'clock'>,
  ctx: CallContext,
  seller: { siren: string },
): Promise<Job> {
  const day = ctx.now.toISOString().slice(0, 10).replaceAll('-', '');
  return queueExport(
    deps,
    ctx,
    {
      kind: 'data',
      periodFrom: null,
      periodTo: null,
      options: {},
      cursor: startDataCursor() as unknown as Record<string, unknown>,
      fileName: `${seller.siren}-donnees-${ctx.scope.livemode ? 'live' : 'test'}-${day}.zip`,
      contentType: 'application/zip',
    },
    dataJobKind,
  );
}

function notFound(id: string) {
  return refuse('not_found', `No export ${id}.`, { param: 'id' });
}

/** The resource, `failed` when its job gave up before the file was whole. */
async function resourceOf(deps: Pick<Deps, 'db'>, scope: Scope, row: ExportRow): Promise<ExportResource> {
  if (row.status === 'ready') return toExport(row);
  const job = await getJob(deps, scope, row.jobId).catch(() => null);
  return toExport(row, job?.status === 'failed');
}

export async function getExport(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  id: string,
  kinds?: readonly ExportKind[],
): Promise<ExportResource> {
  const row = await findExport(deps.db, scope, id);
  if (!row || (kinds && !kinds.includes(row.kind as ExportKind))) throw notFound(id);
  return resourceOf(deps, scope, row);
}

export async function listExports(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
): Promise<ListEnvelope<ExportResource>> {
  const rows = await pageExports(deps.db, scope, page);
  const envelope = toListEnvelope(
    rows,
    page,
    '/v1/exports',
    (row) => row.id,
    (row) => row,
  );
  return { ...envelope, data: await Promise.all(envelope.data.map((row) => resourceOf(deps, scope, row))) };
}

export interface ExportDownload {
  export: ExportResource;
  /** The file's bytes, read chunk by chunk as the response is written. */
  stream: Readable;
}

/** `GET /v1/exports/:id/download`: a ready file, streamed from its chunks. */
export async function downloadExport(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  id: string,
  kinds: readonly ExportKind[],
): Promise<ExportDownload> {
  const resource = await getExport(deps, scope, id, kinds);
  if (resource.status !== 'ready')
    throw refuse(
      'invalid_status_transition',
      `Export ${id} is ${resource.status}: its file can be downloaded once it is ready (\`export.ready\`).`,
      { param: 'id' },
    );
  const row = (await findExport(deps.db, scope, id))!;
  return { export: resource, stream: Readable.from(readChunks(deps.db, scope, id, '', row.chunks)) };
}

/** Drops the files whose time is up (and their storage), a few at a time. */
export async function purgeExpiredExports(deps: Pick<Deps, 'db' | 'clock'>, companyIds?: string[]): Promise<number> {
  if (companyIds && companyIds.length === 0) return 0;
  let purged = 0;
  for (;;) {
    const expired = await expiredExports(deps.db, deps.clock.now(), 100, companyIds);
    for (const row of expired) {
      const scope = { companyId: row.companyId, livemode: row.livemode };
      await inTransaction(deps.db, null, async (tx) => {
        await releaseExportStorage(tx, scope, { exportId: row.id, bytes: row.size });
        await deleteExport(tx, scope, row.id);
      });
    }
    purged += expired.length;
    if (expired.length < 100) return purged;
  }
}

/** Sandbox reset: the company's test exports and their files go. */
export async function purgeTestExports(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live exports');
  return deleteScopeExports(tx, scope);
}

/** The data-protection export's own source: the exports of the company (their records, not their files). */
export async function exportRecordsPage(
  tx: Tx,
  scope: Scope,
  after: string | null,
  limit: number,
): Promise<DataExportRecord[]> {
  const rows = await exportsAfter(tx, scope, after, limit);
  return rows.map((row) => ({ key: row.id, record: toExport(row) }));
}
