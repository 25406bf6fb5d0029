import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { verifyDocument, type ArchiveEntry, type VerificationCheck } from '../archive/service.js';
import { sha256Hex } from '../archive/entry-hash.js';
import type { DocumentKind } from './document-axes.js';
import { documentEventData, type DocumentRow } from './document-record.js';
import { getDocument } from './drafts.js';
import { fileContentTypes, fileKinds, fileNameOf, type FileKind } from './document-files.js';
import { allFileBytes, fileBytes, markFirstDownload, queueGeneration, type FilesSummary } from './files-store.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { recordEvent } from '../webhooks/service.js';
import { emailsOfDocument } from '../mail/service.js';

/**
 * `GET /v1/invoices/:id/files/:kind` and `GET /v1/invoices/:id/verify` (and the credit notes'):
 * the stored files of a finalized document, and the legal archive's verdict on it.
 */

/** Seconds a client waits before asking again for a file being generated. */
export const generationRetryAfterSeconds = 5;

const label = (kind: DocumentKind) => (kind === 'invoice' ? 'Invoice' : 'Credit note');

function noFilesForDraft(row: DocumentRow, kind: DocumentKind): ApiError {
  return refuse(
    'conflict',
    `${label(kind)} ${row.id} is ${row.documentStatus === 'cancelled' ? 'a deleted draft' : 'a draft'}: a draft has no file. Its files are generated once it is finalized.`,
    { param: 'id' },
  );
}

export function beingGenerated(row: DocumentRow, kind: DocumentKind): ApiError {
  return new ApiError('conflict', {
    values: {
      detail: `The files of ${label(kind).toLowerCase()} ${row.number} are being generated; retry in ${generationRetryAfterSeconds} seconds.`,
    },
    param: 'id',
    headers: { 'retry-after': String(generationRetryAfterSeconds) },
  });
}

export function generationFailed(row: DocumentRow, summary: FilesSummary): ApiError {
  const rules = summary.failure?.rules ?? [];
  return refuse(
    'schematron_validation_failed',
    `The files of ${row.number} failed validation and were never deposited${rules.length ? ` (rules ${rules.join(', ')})` : ''}: ${summary.failure?.message ?? 'generation failed'}`,
    // The rule ids stay in the message: the contract attaches `issues` to tax decisions only (rule 6).
    { param: 'id' },
  );
}

/** A finalized document without a generation row (finalized before files existed) gets one now. */
async function queueMissing(deps: Pick<Deps, 'db' | 'clock'>, scope: Scope, row: DocumentRow) {
  await queueGeneration(deps.db, scope, row.id, row.kind, deps.clock.now());
}

export interface DownloadedFile {
  bytes: Buffer;
  contentType: string;
  fileName: string;
  sha256: string;
}

export async function documentFile(
  deps: Pick<Deps, 'db' | 'clock'>,
  scope: Scope,
  kind: DocumentKind,
  id: string,
  fileKind: FileKind,
  /** A download by the seller (the API), not a view: the first one of a document outside e-invoicing is its sending. */
  download?: CallContext,
): Promise<DownloadedFile> {
  const row = await getDocument(deps, scope, kind, id);
  if (row.number === null) throw noFilesForDraft(row, kind);
  const stored = await fileBytes(deps.db, scope, id, fileKind);
  if (!stored) {
    await queueMissing(deps, scope, row);
    throw beingGenerated(row, kind);
  }
  if (stored.state === 'failed') throw generationFailed(row, stored);
  if (stored.state === 'ready' && stored.files && !stored.files[fileKind])
    throw refuse(
      'not_supported',
      `${row.number} was generated before UBL was issued: it has no UBL file (its Factur-X and CII are its files).`,
      { param: 'id' },
    );
  if (stored.state !== 'ready' || !stored.bytes || !stored.files) throw beingGenerated(row, kind);
  if (download && row.transmissionStatus === 'not_applicable') await recordManualSending(deps, download, row);
  return {
    bytes: stored.bytes,
    contentType: fileContentTypes[fileKind],
    fileName: fileNameOf(row.number, fileKind),
    sha256: stored.files[fileKind].sha256,
  };
}

/**
 * The contract's `invoice.sent` on a "manual download": a document no platform carries (B2C,
 * international) is sent by the seller from its file, so its first download records the sending
 * (`invoice.sent`, or `credit_note.sent`), once whatever the number of downloads or nodes, and
 * not after an e-mail of it (`POST .../email`), whose leaving is its sending.
 */
async function recordManualSending(deps: Pick<Deps, 'db'>, ctx: CallContext, row: DocumentRow): Promise<void> {
  await inTransaction(deps.db, ctx, async (tx) => {
    if (!(await markFirstDownload(tx, ctx.scope, row.id, ctx.now))) return;
    // Sent by e-mail already (or on its way): that sending records the event, not a download after it.
    const emails = await emailsOfDocument(tx, ctx.scope, row.id);
    if (emails.some((email) => email.status !== 'bounced' && email.status !== 'failed')) return;
    const data = documentEventData(row, row.status);
    if (row.kind === 'invoice') await recordEvent(tx, ctx, 'invoice.sent', data, ctx.now);
    else
      await recordEvent(
        tx,
        ctx,
        'credit_note.sent',
        { ...data, paStatus: row.transmissionStatus, paInvoiceId: null },
        ctx.now,
      );
  });
}

export type VerificationStatus = 'intact' | 'altered' | 'not_archived' | 'pending';

export interface ArchiveVerification {
  object: 'archive_verification';
  documentId: string;
  documentNumber: string | null;
  livemode: boolean;
  status: VerificationStatus;
  /** Null when there is nothing to verify (not archived, or not yet). */
  intact: boolean | null;
  message: string;
  checks: VerificationCheck[];
  entry: ArchiveEntry | null;
  verifiedAt: string;
}

export async function verifyDocumentArchive(
  deps: Pick<Deps, 'db' | 'clock'>,
  scope: Scope,
  kind: DocumentKind,
  id: string,
): Promise<ArchiveVerification> {
  const row = await getDocument(deps, scope, kind, id);
  const base = {
    object: 'archive_verification' as const,
    documentId: id,
    documentNumber: row.number,
    livemode: scope.livemode,
    checks: [] as VerificationCheck[],
    entry: null,
    verifiedAt: deps.clock.now().toISOString(),
  };
  const notArchived = (message: string): ArchiveVerification => ({
    ...base,
    status: 'not_archived',
    intact: null,
    message,
  });
  if (!scope.livemode)
    return notArchived(
      `Test document: not archived. Test documents never enter the legal archive chain; only live finalized documents do.`,
    );
  if (row.number === null) return notArchived(`${label(kind)} ${id} is a draft: not archived (a draft has no number).`);
  const stored = await allFileBytes(deps.db, scope, id);
  if (!stored) await queueMissing(deps, scope, row);
  if (!stored || stored.state === 'pending' || stored.state === 'generating')
    return {
      ...base,
      status: 'pending',
      intact: null,
      message: `The files of ${row.number} are being generated: the document enters the archive once they are stored.`,
    };
  if (stored.state === 'failed')
    return notArchived(
      `The files of ${row.number} failed validation: not archived (never deposited). ${stored.failure?.message ?? ''}`.trim(),
    );
  const hashes: Record<string, string> = {};
  for (const fileKind of fileKinds) {
    const bytes = stored[fileKind];
    if (bytes) hashes[fileKind] = sha256Hex(bytes);
  }
  const verdict = await verifyDocument(deps.db, scope, id, hashes);
  return {
    ...base,
    status: verdict.intact ? 'intact' : 'altered',
    intact: verdict.intact,
    message: verdict.intact
      ? `${row.number} is archived and intact: its entry, the chain up to it and its stored files hash as recorded.`
      : `${row.number} is altered: ${verdict.checks
          .filter((check) => !check.ok)
          .map((check) => check.detail)
          .join(' ')}`,
    checks: verdict.checks,
    entry: verdict.entry,
  };
}
