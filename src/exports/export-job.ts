import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import type { BatchOutcome } from '../jobs/job-kind.js';

import { recordEvent } from '../webhooks/service.js';
import { toExport } from './export-record.js';
import { countExportStorage } from './storage-usage.js';
import { findExport, updateExport, type ExportRow } from './store.js';

/** What the two export jobs share: their input, their result, and the end of an export. */

export interface ExportJobInput {
  exportId: string;
}

export async function lockExportOfJob(tx: Tx, scope: Scope, input: ExportJobInput): Promise<ExportRow> {
  const row = await findExport(tx, scope, input.exportId);
  if (!row) throw new Error(`export ${input.exportId} of the job is gone`);
  return row;
}

/** The job's result is the export as it stands. */
export function exportJobResult(row: ExportRow, progress: BatchOutcome['progress'], done: boolean): BatchOutcome {
  return { progress, result: toExport(row) as unknown as Record<string, unknown>, done };
}

/**
 * The file is whole: the export is ready, its storage counted and `export.ready` recorded, in
 * the transaction of its last batch.
 */
export async function completeExport(tx: Tx, ctx: CallContext, row: ExportRow, sha256: string): Promise<ExportRow> {
  await countExportStorage(tx, ctx, { exportId: row.id, bytes: row.size });
  const ready = await updateExport(tx, ctx.scope, row.id, {
    status: 'ready',
    sha256,
    completedAt: ctx.now,
  });
  await recordEvent(tx, ctx, 'export.ready', { id: ready.id, object: 'export', count: ready.count }, ctx.now);
  return ready;
}
