import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Tx } from '../db/database.js';
import type { CallContext } from '../db/transaction.js';
import type { JobKind } from '../jobs/job-kind.js';
import type { DataExportSource } from './data-source.js';
import { ChunkWriter, OneAtATime, readChunks } from './file-chunks.js';
import { completeExport, exportJobResult, lockExportOfJob, type ExportJobInput } from './export-job.js';
import { deleteChunks, updateExport, type ExportRow } from './store.js';

/**
 * The data-protection export: everything the company holds in the key's environment, as JSON
 * lines, one file per source (`customers.jsonl`, `invoices.jsonl`...), in a zip. Two phases:
 *
 *   rows   batch by batch, each capability's records are read through its source (keyset pages,
 *          see data-source.ts) and staged as chunks under the source's name, committed with the
 *          cursor (the source, its last key): a crash resumes after the last committed batch.
 *   zip    one batch streams the staged parts through the zip library into the file's chunks,
 *          hashing them as they go, then drops the staged parts and marks the export ready; a
 *          crash rolls that batch back whole and it runs again.
 */

export const dataJobKind = 'exports.data';
/** Records read per batch. */
export const defaultDataBatchRecords = 5_000;
const pageRecords = 1_000;

export interface DataCursor {
  /** The source being read (its index), and its last key committed. */
  source: number;
  after: string | null;
  /** Records and staged chunks per source name. */
  records: Record<string, number>;
  staged: Record<string, number>;
}

export const startDataCursor = (): DataCursor => ({ source: 0, after: null, records: {}, staged: {} });

async function stageRecords(
  tx: Tx,
  ctx: CallContext,
  row: ExportRow,
  sources: readonly DataExportSource[],
  batchRecords: number,
  publicUrl: string,
) {
  const cursor = structuredClone(row.cursor as unknown as DataCursor);
  let budget = batchRecords;
  let count = row.count;
  while (budget > 0 && cursor.source < sources.length) {
    const source = sources[cursor.source]!;
    const writer = new ChunkWriter(tx, ctx.scope, row.id, source.name, cursor.staged[source.name] ?? 0, 0, null);
    let finished = false;
    while (budget > 0) {
      const limit = Math.min(budget, pageRecords);
      const records = await source.page(tx, ctx.scope, cursor.after, limit, publicUrl);
      let text = '';
      for (const { record } of records) text += `${JSON.stringify(record)}\n`;
      await writer.writeText(text);
      budget -= records.length;
      count += records.length;
      cursor.records[source.name] = (cursor.records[source.name] ?? 0) + records.length;
      if (records.length > 0) cursor.after = records[records.length - 1]!.key;
      if (records.length < limit) {
        finished = true;
        break;
      }
    }
    await writer.flush();
    cursor.staged[source.name] = writer.seq;
    if (finished) {
      cursor.source += 1;
      cursor.after = null;
    }
  }
  return updateExport(tx, ctx.scope, row.id, { cursor: cursor as unknown as Record<string, unknown>, count });
}

async function zipStaged(tx: Tx, ctx: CallContext, row: ExportRow, sources: readonly DataExportSource[]) {
  const cursor = row.cursor as unknown as DataCursor;
  const zip = new yazl.ZipFile();
  // Every entry dated by the export: the same staged data gives the same archive.
  const mtime = row.created;
  const manifest = {
    object: 'data_export',
    exportId: row.id,
    companyId: row.companyId,
    livemode: row.livemode,
    created: row.created.toISOString(),
    files: sources.map((source) => ({ name: `${source.name}.jsonl`, records: cursor.records[source.name] ?? 0 })),
  };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', { mtime, compress: true });
  const serial = new OneAtATime();
  for (const source of sources) {
    const chunks = readChunks(tx, ctx.scope, row.id, source.name, cursor.staged[source.name] ?? 0, serial);
    zip.addReadStream(Readable.from(chunks, { objectMode: false }), `${source.name}.jsonl`, { mtime, compress: true });
  }
  zip.end();
  const hash = createHash('sha256');
  const writer = new ChunkWriter(tx, ctx.scope, row.id, '', 0, 0, hash, 'utf8', serial);
  for await (const bytes of zip.outputStream as AsyncIterable<Buffer>) await writer.writeBytes(bytes);
  await writer.flush();
  for (const source of sources) await deleteChunks(tx, ctx.scope, row.id, source.name);
  const written = await updateExport(tx, ctx.scope, row.id, { chunks: writer.seq, size: writer.size });
  return completeExport(tx, ctx, written, hash.digest('hex'));
}

/** The job kind; `batchRecords` is the records read per batch (small in tests, to cross batches). */
export function dataExportJobOf(options: { batchRecords?: number } = {}): JobKind {
  const batchRecords = options.batchRecords ?? defaultDataBatchRecords;
  return {
    kind: dataJobKind,
    readAccess: 'full_access',
    async runBatch(tx, job, ctx, { registry, config }) {
      const sources = registry.dataExport;
      if (sources.length === 0) throw new Error('the job worker was given no data-export sources (its registry)');
      let row = await lockExportOfJob(tx, ctx.scope, job.input as ExportJobInput);
      const total = sources.length + 1;
      if (row.status === 'ready') return exportJobResult(row, { total, processed: total }, true);
      if ((row.cursor as unknown as DataCursor).source < sources.length) {
        row = await stageRecords(tx, ctx, row, sources, batchRecords, config.publicUrl);
        const processed = (row.cursor as unknown as DataCursor).source;
        return exportJobResult(row, { total, processed }, false);
      }
      row = await zipStaged(tx, ctx, row, sources);
      return exportJobResult(row, { total, processed: total }, true);
    },
  };
}

export const dataExportJob = dataExportJobOf();
