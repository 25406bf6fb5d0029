import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { claimLeased, renewLeased } from '../db/leased-claim.js';
import { dueOnScopeClock, sandboxOffsetMs } from '../db/sandbox-clock.js';
import { documentFiles, invoices } from './schema.js';
import type { FileFailure, FileKind, StoredFiles } from './document-files.js';
import type { DocumentRow } from './document-record.js';
import { notifyOnCommit } from '../db/commit-notice.js';

export type DocumentFilesRow = typeof documentFiles.$inferSelect;
export type FilesSummary = Pick<DocumentFilesRow, 'state' | 'files' | 'failure' | 'attempts' | 'generatedAt'>;

/** Wakes the file workers of every node once a finalization that queued a generation commits. */
export const filesChannel = 'facteur_document_files';

/**
 * The generation's outbox row, as a data-modifying part of a bigger statement (the finalization's
 * numbering: its hot path counts its round trips): one row returned when it was queued. Its
 * notification is `queuedNotice` of that part.
 */
export function queueGenerationInsert(scope: Scope, documentId: string, kind: string, now: Date): SQL {
  const at = now.toISOString();
  return sql`insert into document_files (company_id, livemode, document_id, document_kind, state, attempts, next_attempt_at, created)
      values (${scope.companyId}, ${scope.livemode}, ${documentId}, ${kind}, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz)
      on conflict do nothing returning 1`;
}

/** Wakes the file workers after the commit (a generation was queued through `db`). */
export const generationQueued = (db: Executor) => notifyOnCommit(db, filesChannel);

export async function queueGeneration(db: Executor, scope: Scope, documentId: string, kind: string, now: Date) {
  const result = await db.execute(
    sql`with queued as (${queueGenerationInsert(scope, documentId, kind, now)}) select count(*)::int as queued from queued`,
  );
  if (Number(result.rows[0]?.queued) > 0) await generationQueued(db);
}

/** The generations of several documents at once (the sandbox fixtures), in the caller's transaction. */
export async function queueGenerations(
  db: Executor,
  scope: Scope,
  documents: readonly { id: string; kind: string }[],
  now: Date,
): Promise<void> {
  if (documents.length === 0) return;
  await db
    .insert(documentFiles)
    .values(
      documents.map((document) => ({
        ...scope,
        documentId: document.id,
        documentKind: document.kind,
        state: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        created: now,
      })),
    )
    .onConflictDoNothing();
  await generationQueued(db);
}

const summaryColumns = {
  documentId: documentFiles.documentId,
  state: documentFiles.state,
  files: documentFiles.files,
  ruleSet: documentFiles.ruleSet,
  failure: documentFiles.failure,
  attempts: documentFiles.attempts,
  generatedAt: documentFiles.generatedAt,
};

/** The files' state of these documents (never their bytes), by document id. */
export async function filesSummaries(
  db: Executor,
  scope: Scope,
  documentIds: readonly string[],
): Promise<Map<string, FilesSummary>> {
  if (documentIds.length === 0) return new Map();
  const rows = await db
    .select(summaryColumns)
    .from(documentFiles)
    .where(
      and(
        eq(documentFiles.companyId, scope.companyId),
        eq(documentFiles.livemode, scope.livemode),
        inArray(documentFiles.documentId, [...documentIds]),
      ),
    );
  return new Map(rows.map(({ documentId, ...summary }) => [documentId, summary]));
}

/** One stored file's bytes, with the state of the document's files. */
export async function fileBytes(
  db: Executor,
  scope: Scope,
  documentId: string,
  kind: FileKind,
): Promise<(FilesSummary & { bytes: Buffer | null }) | undefined> {
  const [row] = await db
    .select({ ...summaryColumns, bytes: documentFiles[kind] })
    .from(documentFiles)
    .where(
      and(
        eq(documentFiles.companyId, scope.companyId),
        eq(documentFiles.livemode, scope.livemode),
        eq(documentFiles.documentId, documentId),
      ),
    );
  return row;
}

/** Marks the document's files downloaded, once: true for the download that marked them. */
export async function markFirstDownload(db: Executor, scope: Scope, documentId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(documentFiles)
    .set({ downloadedAt: at })
    .where(
      and(
        eq(documentFiles.companyId, scope.companyId),
        eq(documentFiles.livemode, scope.livemode),
        eq(documentFiles.documentId, documentId),
        isNull(documentFiles.downloadedAt),
      ),
    )
    .returning({ documentId: documentFiles.documentId });
  return rows.length > 0;
}

/**
 * What a deposit reads of its document, as columns of a statement on a row `t` naming it
 * (`company_id`, `livemode`, `document_id`): the deposit claim returns them with its jobs, so a
 * deposit makes no read of its own. Its number and buyer, its Factur-X with the state of its
 * files (null while none is queued), and `platformFields`: the establishment's platform, as the
 * establishments capability reads it (`platformFieldsSql`, given by the worker).
 */
export function depositSourceColumns(platformFields: SQL): SQL {
  return sql`
  (select jsonb_build_object('number', i.number, 'buyer', i.buyer) from invoices i
    where i.company_id = t.company_id and i.livemode = t.livemode and i.id = t.document_id) as source_document,
  (select jsonb_build_object('state', f.state, 'failure', f.failure) from document_files f
    where f.company_id = t.company_id and f.livemode = t.livemode and f.document_id = t.document_id) as source_files,
  (select f.facturx from document_files f
    where f.company_id = t.company_id and f.livemode = t.livemode and f.document_id = t.document_id) as source_facturx,
  ${platformFields} as source_platform`;
}

export interface DepositSource {
  number: string | null;
  buyer: DocumentRow['buyer'];
  fileState: DocumentFilesRow['state'] | null;
  failure: FileFailure | null;
  facturx: Buffer | null;
  /** The establishment's platform fields, as `platformFields` gave them (null: no establishment). */
  platform: unknown;
}

/** The source of a row returned with `depositSourceColumns`; null when the document is gone. */
export function depositSourceOf(raw: Record<string, unknown>): DepositSource | null {
  const document = raw.source_document as { number: string | null; buyer: DocumentRow['buyer'] } | null;
  if (!document) return null;
  const files = raw.source_files as { state: DocumentFilesRow['state']; failure: FileFailure | null } | null;
  return {
    number: document.number,
    buyer: document.buyer,
    fileState: files?.state ?? null,
    failure: files?.failure ?? null,
    facturx: (raw.source_facturx as Buffer | null) ?? null,
    platform: raw.source_platform ?? null,
  };
}

/**
 * A document's files as its deposit needs them: their state, failure, Factur-X and UBL (null for a
 * document generated before UBL was issued); undefined: none queued.
 */
export async function depositFileOf(db: Executor, scope: Scope, documentId: string) {
  const [row] = await db
    .select({
      state: documentFiles.state,
      failure: documentFiles.failure,
      facturx: documentFiles.facturx,
      ubl: documentFiles.ubl,
    })
    .from(documentFiles)
    .where(
      and(
        eq(documentFiles.companyId, scope.companyId),
        eq(documentFiles.livemode, scope.livemode),
        eq(documentFiles.documentId, documentId),
      ),
    );
  return row;
}

/** The stored files' bytes (verification); `ubl` is null for a document generated before UBL was issued. */
export async function allFileBytes(db: Executor, scope: Scope, documentId: string) {
  const [row] = await db
    .select({
      ...summaryColumns,
      facturx: documentFiles.facturx,
      xml: documentFiles.xml,
      pdf: documentFiles.pdf,
      ubl: documentFiles.ubl,
    })
    .from(documentFiles)
    .where(
      and(
        eq(documentFiles.companyId, scope.companyId),
        eq(documentFiles.livemode, scope.livemode),
        eq(documentFiles.documentId, documentId),
      ),
    );
  return row;
}

export interface ClaimedGeneration {
  companyId: string;
  livemode: boolean;
  documentId: string;
  documentKind: string;
  attempts: number;
  /** The scope's sandbox clock offset (0 live): a retry is due on that clock. */
  offsetMs: number;
  token: string;
}

const tenantRow = { companyId: sql.raw('t.company_id'), livemode: sql.raw('t.livemode') };

/** Pending generations due now (and those whose worker died), leased to `token`; each claim is an attempt. */
export async function claimGenerations(
  db: Executor,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
  companyIds?: readonly string[],
): Promise<ClaimedGeneration[]> {
  const rows = await claimLeased(
    db,
    {
      table: 'document_files',
      key: ['company_id', 'document_id'],
      // Queued on the scope's clock (the finalization's time: the sandbox clock for test documents).
      due: sql`t.state in ('pending', 'generating') and ${dueOnScopeClock(sql.raw('t.next_attempt_at'), tenantRow, lease.now)}`,
      order: sql`t.next_attempt_at`,
      set: sql`attempts = t.attempts + 1, state = 'generating'`,
      returning: sql`t.company_id, t.livemode, t.document_id, t.document_kind, t.attempts, ${sandboxOffsetMs(tenantRow)} as offset_ms`,
      companyIds,
    },
    lease,
  );
  return rows.map((row) => ({
    companyId: row.company_id as string,
    livemode: row.livemode as boolean,
    documentId: row.document_id as string,
    documentKind: row.document_kind as string,
    attempts: Number(row.attempts),
    offsetMs: Number(row.offset_ms),
    token: lease.token,
  }));
}

/** The frozen document a generation reads (any kind: the row names it). */
export async function documentRow(db: Executor, scope: Scope, id: string): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, scope.companyId), eq(invoices.livemode, scope.livemode), eq(invoices.id, id)));
  return row;
}

/** The leases of generations in hand, renewed in one statement; returns those still held. */
export const renewGenerations = (
  db: Executor,
  claims: readonly ClaimedGeneration[],
  lease: { now: Date; leaseMs: number },
) =>
  renewLeased(
    db,
    { table: 'document_files', key: ['company_id', 'document_id'] },
    claims,
    (claim) => ({ key: [claim.companyId, claim.documentId], token: claim.token }),
    lease,
  );

const ofClaim = (claim: ClaimedGeneration) =>
  and(
    eq(documentFiles.companyId, claim.companyId),
    eq(documentFiles.livemode, claim.livemode),
    eq(documentFiles.documentId, claim.documentId),
    eq(documentFiles.lockToken, claim.token),
  );

/** Stores the files, `ready`; false when the lease was lost (another worker took the row over). */
export async function storeFiles(
  db: Executor,
  claim: ClaimedGeneration,
  files: Record<FileKind, Buffer>,
  hashes: StoredFiles,
  ruleSet: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(documentFiles)
    .set({
      state: 'ready',
      ...files,
      files: hashes,
      ruleSet,
      failure: null,
      generatedAt: now,
      nextAttemptAt: null,
      lockedUntil: null,
      lockToken: null,
    })
    .where(ofClaim(claim))
    .returning({ id: documentFiles.documentId });
  return rows.length > 0;
}

/** Ends an attempt without files: `failed` for good, or `pending` again at `retryAt`. */
export async function settleFailure(
  db: Executor,
  claim: ClaimedGeneration,
  failure: FileFailure,
  retryAt: Date | null,
): Promise<boolean> {
  const rows = await db
    .update(documentFiles)
    .set({
      state: retryAt ? 'pending' : 'failed',
      failure,
      nextAttemptAt: retryAt,
      lockedUntil: null,
      lockToken: null,
    })
    .where(ofClaim(claim))
    .returning({ id: documentFiles.documentId });
  return rows.length > 0;
}

/** Sandbox reset: the scope's generated files go with its documents; the bytes they held. */
export async function deleteScopeFiles(db: Executor, scope: Scope): Promise<{ documents: number; bytes: number }> {
  const rows = await db
    .delete(documentFiles)
    .where(and(eq(documentFiles.companyId, scope.companyId), eq(documentFiles.livemode, scope.livemode)))
    .returning({
      id: documentFiles.documentId,
      bytes: sql<string>`coalesce(octet_length(${documentFiles.facturx}), 0) + coalesce(octet_length(${documentFiles.xml}), 0) + coalesce(octet_length(${documentFiles.pdf}), 0) + coalesce(octet_length(${documentFiles.ubl}), 0)`,
    });
  return { documents: rows.length, bytes: rows.reduce((total, row) => total + Number(row.bytes), 0) };
}
