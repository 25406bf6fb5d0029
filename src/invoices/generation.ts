import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { documentFileGenerationDuration, documentFileGenerations } from '../kernel/metrics.js';
import { createClaimLoop, type ClaimLoop } from '../workers/claim-loop.js';
import { documentModelOf } from '../einvoice/document-model.js';
import { writeCii } from '../einvoice/cii-writer.js';
import { writeUbl } from '../einvoice/ubl-writer.js';
import { renderPdf } from '../einvoice/pdf-renderer.js';
import { buildFacturX } from '../einvoice/facturx.js';
import { inEinvoicingScope } from '../einvoice/draft-conformance.js';
import {
  officialStylesheets,
  ruleSetInForce,
  stylesheetsInScope,
  ublValidation,
  ValidationPools,
  validatorCacheDir,
  type ValidationReport,
} from '../einvoice/validation-pool.js';
import { queueCompanyEmail } from '../notifications/service.js';
import { appendEntry } from '../archive/service.js';
import { countStorage } from '../subscriptions/service.js';
import { sha256Hex } from '../archive/entry-hash.js';
import { attachmentContents } from './attachment-store.js';
import type { DocumentRow } from './document-record.js';
import { documentSourceOf } from './issue-conformance.js';
import type { FileFailure, FileKind, StoredFiles } from './document-files.js';
import {
  claimGenerations,
  renewGenerations,
  documentRow,
  filesChannel,
  settleFailure,
  storeFiles,
  type ClaimedGeneration,
} from './files-store.js';

/**
 * The file worker: claims the generations the finalizations queued (never inside their
 * transaction, which holds the series' lock), builds each document's CII from the frozen
 * document, runs the official validators on it (worker threads, outside any transaction),
 * renders the readable PDF and the Factur-X, writes the UBL (validated by its own validators), then
 * stores the four files with their SHA-256 and,
 * for a live document, appends its legal archive entry, in one short transaction. A document the
 * validators refuse is never deposited: its files are `failed` with the rule ids, and an
 * operational alert goes out (log, e-mail, metric). Any other error is retried; a worker that
 * dies leaves its lease to lapse, and another takes the row over: the lease is short and renewed
 * while the worker generates (db/lease-heartbeat.ts), so a document finalized just before a crash
 * has its files, then its deposit, within seconds of a restart.
 */

/** Attempts at generating one document's files before they are marked failed. */
export const maxGenerationAttempts = 5;
/** Renewed every third of it while the worker holds the row: a lapsed lease means the worker died. */
export const generationLeaseMs = 30_000;

/** Seconds before a failed attempt is tried again: 10, 60, 300, 1800. */
export function generationRetryDelayMs(attempts: number): number {
  return [10, 60, 300, 1800][Math.min(attempts, 4) - 1]! * 1000;
}

/** The validators refused the CII (or the document cannot be written): deterministic, never retried. */
class ValidationFailure extends Error {
  constructor(readonly failure: FileFailure) {
    super(failure.message);
  }
}

/** The validators' refusal of one of the document's XML files (`CII`, `UBL`), as a failure. */
function refusal(syntax: string, number: string | null, report: ValidationReport): ValidationFailure {
  return new ValidationFailure({
    rules: report.rules,
    message: `The official validators refused the ${syntax} of ${number}: ${report.failures
      .slice(0, 5)
      .map((failure) => `${failure.rule} (${failure.flag}): ${failure.text}`)
      .join(' | ')}`.slice(0, 2000),
  });
}

/** Another worker took the row over (the lease lapsed): this attempt's work is dropped. */
class LeaseLost extends Error {}

type FrozenDocument = DocumentRow & {
  number: string;
  issueDate: string;
  seller: NonNullable<DocumentRow['seller']>;
  buyer: NonNullable<DocumentRow['buyer']>;
  tax: NonNullable<DocumentRow['tax']>;
};

/**
 * The model of a finalized document: what its CII and PDF say (a credit note names its invoice),
 * read from what the finalization froze and from nothing that moves after it. The payments, refunds
 * and statuses recorded since are the resource's: a payment recorded before this worker runs leaves
 * the files as issued. BT-113 is what the document itself deducts, the deposits a final invoice
 * froze at finalization; never a payment. BT-72 without a delivery date is the operation date of the
 * decision frozen with the document.
 */
async function documentModel(deps: Pick<Deps, 'db'>, scope: Scope, row: FrozenDocument) {
  let preceding: { number: string; issueDate: string } | null = null;
  if (row.kind === 'credit_note' && row.relatedInvoiceId) {
    const invoice = await documentRow(deps.db, scope, row.relatedInvoiceId);
    if (invoice?.number && invoice.issueDate) preceding = { number: invoice.number, issueDate: invoice.issueDate };
  }
  return documentModelOf({
    ...documentSourceOf(row, preceding),
    operationDate: row.tax.date,
    attachments: await frozenAttachments(deps, scope, row),
  });
}

/** The attachments frozen with the document (its `attachments`), with their bytes. */
async function frozenAttachments(deps: Pick<Deps, 'db'>, scope: Scope, row: FrozenDocument) {
  if (row.attachments.length === 0) return [];
  const contents = await attachmentContents(deps.db, scope, row.id);
  return row.attachments.map((attachment) => {
    const content = contents.get(attachment.id);
    if (!content) throw new Error(`attachment ${attachment.id} of ${row.id} has no bytes`);
    return {
      filename: attachment.filename,
      mimeCode: attachment.contentType,
      code: attachment.code,
      description: attachment.description,
      content,
    };
  });
}

/**
 * The CII of a finalized document as the generation job writes it, without the official
 * validation: the sandbox's platform reads it. Null for a document without its frozen content.
 */
export async function ciiOfDocument(deps: Pick<Deps, 'db'>, scope: Scope, row: DocumentRow): Promise<string | null> {
  const { number, issueDate, seller, buyer, tax } = row;
  if (number === null || issueDate === null || seller === null || buyer === null || tax === null) return null;
  return writeCii(await documentModel(deps, scope, { ...row, number, issueDate, seller, buyer, tax }));
}

export interface FileWorkerOptions {
  /** Where the compiled stylesheets are cached; default `<dataDir>/cache`. */
  cacheDir?: string;
  /** Validation worker threads; default one per core beyond the first, at most two. */
  validators?: number;
  /** Only these companies' generations (tests). */
  companyIds?: readonly string[];
  /** Test seam: runs once the files are built, before they are stored. */
  beforeStore?: (claim: ClaimedGeneration) => Promise<void>;
}

export interface FileWorker extends ClaimLoop {
  /** Generates one claimed row (tests drive it directly to simulate a crash). */
  generate(claim: ClaimedGeneration): Promise<void>;
}

type GenerationDeps = Pick<Deps, 'db' | 'pool' | 'log' | 'clock' | 'config' | 'mailer'>;

const contextOf = (scope: Scope, now: Date): CallContext => ({
  scope,
  requestId: null,
  idempotencyKey: null,
  apiVersion: currentVersion,
  now,
});

export function createFileWorker(deps: GenerationDeps, options: FileWorkerOptions = {}): FileWorker {
  const cacheDir = options.cacheDir ?? validatorCacheDir(deps.config.dataDir);
  // One pool per rule set, opened on the first document it judges.
  const ciiPools = new ValidationPools<string>((ruleSet) => ({
    cacheDir,
    ruleSet,
    size: options.validators ?? Math.max(1, Math.min(2, availableParallelism() - 1)),
  }));
  // The UBL's own validators (UBL XSD, EN 16931 UBL, BR-FR UBL): one thread beside the CII's.
  const ublPools = new ValidationPools<string>((ruleSet) => ({ cacheDir, ruleSet, size: 1, ...ublValidation }));

  /** The files, and the rule set that validated them. */
  async function build(row: DocumentRow, scope: Scope): Promise<{ files: Record<FileKind, Buffer>; ruleSet: string }> {
    const { number, issueDate, seller, buyer, tax } = row;
    // Frozen at finalization: a document without its seller block cannot be written, whatever the retries.
    if (number === null || issueDate === null || seller === null || buyer === null || tax === null)
      throw new ValidationFailure({
        rules: [],
        message: `Document ${row.id} has no frozen ${seller === null ? 'seller block' : 'content'}: its files cannot be written.`,
      });
    const model = await documentModel(deps, scope, { ...row, number, issueDate, seller, buyer, tax });
    const xml = writeCii(model);
    const ubl = writeUbl(model);
    // Outside e-invoicing (e-reporting or nothing) the BR-FR rules do not bind the document; the
    // rules are those in force on its issue date.
    const inScope = inEinvoicingScope(model);
    const ruleSet = ruleSetInForce(issueDate).id;
    const [report, ublReport] = await Promise.all([
      ciiPools.get(ruleSet).then((pool) => pool.validate(xml, stylesheetsInScope(officialStylesheets, inScope))),
      ublPools.get(ruleSet).then((pool) => pool.validate(ubl, stylesheetsInScope(ublValidation.stylesheets, inScope))),
    ]);
    if (!report.valid) throw refusal('CII', row.number, report);
    if (!ublReport.valid) throw refusal('UBL', row.number, ublReport);
    if (report.ruleSet !== ruleSet || ublReport.ruleSet !== ruleSet)
      throw new Error(
        `validated by ${report.ruleSet} and ${ublReport.ruleSet}, not ${ruleSet} in force on ${issueDate}`,
      );
    // Dated by the finalization: a generation run again after a crash gives the same bytes.
    const creationDate = row.finalizedAt ?? deps.clock.now();
    // A test document carries the specimen mark on every page; a live one never.
    const options = { creationDate, specimen: !row.livemode };
    const [pdf, facturx] = await Promise.all([renderPdf(model, options), buildFacturX(model, xml, options)]);
    // What the archive and the files resource name: the set that judged them.
    return {
      files: { facturx, xml: Buffer.from(xml, 'utf8'), pdf, ubl: Buffer.from(ubl, 'utf8') },
      ruleSet: report.ruleSet,
    };
  }

  async function alert(claim: ClaimedGeneration, row: DocumentRow | undefined, failure: FileFailure, now: Date) {
    const scope = { companyId: claim.companyId, livemode: claim.livemode };
    const name = row?.number ?? claim.documentId;
    deps.log.error(
      {
        companyId: claim.companyId,
        livemode: claim.livemode,
        document: claim.documentId,
        number: row?.number ?? null,
        rules: failure.rules,
        attempts: claim.attempts,
      },
      `files of ${name} failed: never deposited`,
    );
    documentFileGenerations.inc({ outcome: 'failed' });
    return {
      subject: `The files of ${claim.documentKind === 'credit_note' ? 'credit note' : 'invoice'} ${name} could not be generated`,
      body: `${failure.message}\n\nThe document (${claim.documentId}) keeps its number but has no file and will not be deposited${failure.rules.length ? `; failed rules: ${failure.rules.join(', ')}` : ''}. Correct it with a credit note and a new invoice.`,
      scope,
    };
  }

  async function generate(claim: ClaimedGeneration): Promise<void> {
    const scope: Scope = { companyId: claim.companyId, livemode: claim.livemode };
    const stopTimer = documentFileGenerationDuration.startTimer();
    let row: DocumentRow | undefined;
    try {
      row = await documentRow(deps.db, scope, claim.documentId);
      if (!row || row.number === null) throw new Error(`document ${claim.documentId} is not finalized`);
      const { files, ruleSet } = await build(row, scope);
      await options.beforeStore?.(claim);
      const hashes = Object.fromEntries(
        Object.entries(files).map(([kind, bytes]) => [kind, { sha256: sha256Hex(bytes), size: bytes.length }]),
      ) as StoredFiles;
      const now = deps.clock.now();
      const document = row;
      await inTransaction(deps.db, contextOf(scope, now), async (tx) => {
        if (!(await storeFiles(tx, claim, files, hashes, ruleSet, now))) throw new LeaseLost();
        // The files count against the plan's storage, never refused: a numbered document gets its
        // legal files; a full storage refuses the next finalization instead.
        await countStorage(
          tx,
          scope,
          Object.values(files).reduce((total, bytes) => total + bytes.length, 0),
        );
        if (scope.livemode)
          await appendEntry(
            tx,
            scope,
            {
              documentId: document.id,
              documentKind: document.kind,
              documentNumber: document.number!,
              fileHashes: Object.fromEntries(Object.entries(hashes).map(([kind, file]) => [kind, file.sha256])),
              ruleSet,
            },
            now,
          );
      });
      documentFileGenerations.inc({ outcome: 'ready' });
    } catch (error) {
      if (error instanceof LeaseLost) return;
      const now = deps.clock.now();
      const validation = error instanceof ValidationFailure;
      const last = validation || claim.attempts >= maxGenerationAttempts;
      const failure: FileFailure = validation
        ? error.failure
        : { rules: [], message: `Generation failed: ${(error as Error).message}`.slice(0, 2000) };
      if (!last) {
        deps.log.warn({ err: error, document: claim.documentId, attempts: claim.attempts }, 'files not generated yet');
        documentFileGenerations.inc({ outcome: 'retry' });
        const retryAt = now.getTime() + claim.offsetMs + generationRetryDelayMs(claim.attempts);
        await settleFailure(deps.db, claim, failure, new Date(retryAt));
        return;
      }
      const message = await alert(claim, row, failure, now);
      await inTransaction(deps.db, contextOf(scope, now), async (tx) => {
        if (!(await settleFailure(tx, claim, failure, null))) return;
        await queueCompanyEmail(tx, message.scope, message, now, deps.mailer !== null);
      });
    } finally {
      stopTimer();
    }
  }

  const loop = createClaimLoop<ClaimedGeneration>({
    pool: deps.pool,
    channel: filesChannel,
    log: deps.log,
    concurrency: 2,
    refillAt: 1,
    pollMs: 2000,
    claim: (limit) =>
      inTransaction(deps.db, null, (tx) =>
        claimGenerations(
          tx,
          { now: deps.clock.now(), limit, leaseMs: generationLeaseMs, token: randomUUID() },
          options.companyIds,
        ),
      ),
    lease: {
      leaseMs: generationLeaseMs,
      renew: (claims) => renewGenerations(deps.db, claims, { now: deps.clock.now(), leaseMs: generationLeaseMs }),
    },
    handle: generate,
    describe: (claim) => ({ document: claim.documentId }),
  });

  return {
    ...loop,
    generate,
    async stop() {
      await loop.stop();
      await Promise.all([ciiPools.close(), ublPools.close()]);
    },
  };
}
