import type { ExportRow } from './store.js';

/** The export resource (`exp_`, `object: "export"`), as the API shows it. */

export type ExportKind = 'fec' | 'data';
/** `pending` while its job runs, `ready` to download, `failed` when its job gave up. */
export type ExportStatus = 'pending' | 'ready' | 'failed';

export interface ExportResource {
  id: string;
  object: 'export';
  livemode: boolean;
  kind: ExportKind;
  status: ExportStatus;
  jobId: string;
  /** The FEC's period (calendar days, inclusive); null for a data export. */
  period: { from: string; to: string } | null;
  /** FEC entries (EcritureNum), or records of a data export; so far while pending. */
  count: number;
  fileName: string;
  contentType: string;
  /** Bytes; so far while pending. */
  size: number;
  sha256: string | null;
  downloadUrl: string | null;
  created: string;
  completedAt: string | null;
  expiresAt: string;
}

export function toExport(row: ExportRow, jobFailed = false): ExportResource {
  const status: ExportStatus = row.status === 'ready' ? 'ready' : jobFailed ? 'failed' : 'pending';
  return {
    id: row.id,
    object: 'export',
    livemode: row.livemode,
    kind: row.kind as ExportKind,
    status,
    jobId: row.jobId,
    period: row.periodFrom && row.periodTo ? { from: row.periodFrom, to: row.periodTo } : null,
    count: row.count,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    sha256: row.sha256,
    downloadUrl: status === 'ready' ? `/v1/exports/${row.id}/download` : null,
    created: row.created.toISOString(),
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
    expiresAt: row.expiresAt.toISOString(),
  };
}
