import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { refuse, type ApiError } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import type { ReadDocument } from '../einvoice/cii-reader.js';
import { renderPdf } from '../einvoice/pdf-renderer.js';
import { buildCdarMessage } from '../platform/cdar.js';
import { getCompany } from '../companies/service.js';
import { countStorage, releaseStorage } from '../subscriptions/service.js';
import { recordEvent } from '../webhooks/service.js';
import { DocumentValidationError, ruleSetInForce } from '../einvoice/validation-pool.js';
import { dayOf } from '../kernel/calendar.js';
import { IncomingFileError, type IncomingFile } from './incoming-file.js';
import { readIncomingFileInThread } from './incoming-file-thread.js';
import { validateIncoming, type Verdict } from './official-validation.js';
import { flowConnector, platformAccess } from '../establishments/platform-access.js';
import type { FlowKind } from '../platform/flows.js';
import { deliverFlow, flowLeaseMs, flowUnderWay, queuePlatformFlow, type FlowOutcome } from '../platform/service.js';
import {
  incomingEventData,
  keptValidationErrors,
  toHistoryEntry,
  toReceivedInvoice,
  type HistoryEntry,
  type ReceivedInvoice,
  type ReceivedRow,
} from './received-record.js';
import {
  appendHistory,
  deleteScopeReceived,
  findFile,
  findReceived,
  findReceivedByFlow,
  historyOf,
  insertFile,
  insertReceivedOnce,
  pageReceived,
  updateReceived,
  type FileRow,
  type ReceivedFilters,
} from './store.js';
import { deleteScopeReaders } from './reader-store.js';
import { checkTransition, type ReceivedAction, type ReceivedStatus } from './transitions.js';
import { visualModelOf } from './visual.js';

/**
 * Received (purchase) invoices: ingestion of the invoice flows the platform delivers (once per
 * flow, however often it is pushed or polled), their files, and the company's answers sent back
 * as CDAR statuses.
 */

export type { ReceivedInvoice } from './received-record.js';
// What a buyer may answer, for the forms that offer it (the dashboard's inbox).
export {
  disputeReasons,
  receivedStatuses,
  refusalReasons,
  suspensionReasons,
  type ReceivedAction,
  type ReceivedStatus,
} from './transitions.js';

function notFound(id: string): ApiError {
  return refuse('not_found', `No received invoice ${id}.`, { param: 'id' });
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What a file that cannot be read at all is kept as: nothing invented, the reason flagged. */
function unreadDocument(): ReadDocument {
  return {
    typeCode: '',
    number: '',
    issueDate: '',
    dueDate: null,
    deliveryDate: null,
    currency: '',
    precedingInvoice: null,
    billingFrame: null,
    vatOnDebits: false,
    processing: null,
    paymentTerms: null,
    paymentMeansCode: null,
    notes: [],
    seller: {
      legalName: '',
      tradeName: null,
      legalForm: null,
      shareCapital: null,
      siren: null,
      siret: null,
      vatNumber: null,
      registration: null,
      address: null,
      electronicAddress: null,
      contact: null,
      iban: null,
      bic: null,
    },
    buyer: {
      type: 'company',
      name: '',
      siren: null,
      siret: null,
      vatNumber: null,
      electronicAddress: null,
      routingCode: null,
      email: null,
      address: null,
      deliveryAddress: null,
    },
    lines: [],
    vatBreakdown: [],
    totals: { net: 0, vat: 0, gross: 0, paid: 0, due: 0, taxBasis: 0, allowances: 0, charges: 0, rounding: 0 },
    guideline: null,
    sellerLegalInformation: null,
    sellerEndpoint: null,
    buyerEndpoint: null,
    warnings: [],
  };
}

/** The verdict on a file that could not be read (`UNREADABLE`) or judged (`UNVALIDATED`): the reason, kept. */
const refusedVerdict = (rule: string, message: string): Verdict => ({
  conformant: false,
  validationErrors: [{ rule, flag: 'fatal', message, location: null }],
  validators: [],
  ruleSet: null,
});

export interface IncomingDelivery {
  /** The platform's flow id: the key of "each once". */
  flowId: string;
  bytes: Uint8Array;
  /** The flow's file name, as the platform gave it. */
  name: string | null;
  /** The establishment whose platform delivered it; null for the sandbox's uploads. */
  establishmentId?: string | null;
  /**
   * A file over a reading limit (a decompression bomb) is refused (`payload_too_large`) rather
   * than kept flagged: for a caller there to hear it (the sandbox upload). What a platform
   * delivered is kept, flagged, whatever it is: nobody else would tell the company of it.
   */
  refuseOverLimit?: boolean;
  /**
   * Why the platform's file could not be taken at all (over the connector's download bound, gone):
   * the flow is kept flagged unreadable, with no bytes, so that it holds back no flow after it.
   */
  notTaken?: string;
}

export interface Ingestion {
  invoice: ReceivedInvoice;
  /** False when the flow had been ingested already (pushed twice, or pushed and polled). */
  created: boolean;
}

/**
 * Ingests one invoice flow: read (CII, UBL, Factur-X), validated by the official validators, kept
 * whatever the verdict (a non-conformant or unreadable file is flagged, never dropped), with its
 * original bytes, its first history line (`fr:203`, made available) and `invoice.incoming.received`
 * in one transaction. A flow already ingested is answered as it stands, with no second event.
 */
export async function ingestReceivedInvoice(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  delivery: IncomingDelivery,
): Promise<Ingestion> {
  const earlier = await findReceivedByFlow(deps.db, ctx.scope, delivery.flowId);
  if (earlier) return { invoice: toReceivedInvoice(earlier), created: false };

  let file: IncomingFile | null = null;
  let verdict: Verdict;
  try {
    if (delivery.notTaken !== undefined) throw new IncomingFileError(delivery.notTaken, 'too_large');
    file = await readIncomingFileInThread(delivery.bytes);
    // Judged by the rules in force on the day it is received.
    verdict = await validateIncoming(file, deps.config.dataDir, ruleSetInForce(dayOf(ctx.now)).id);
  } catch (error) {
    if (error instanceof IncomingFileError && error.reason === 'too_large' && delivery.refuseOverLimit)
      throw refuse('payload_too_large', `The file cannot be taken: ${error.message}.`, { param: 'file' });
    // A file that cannot be read or judged is kept with the reason, never left to fail again:
    // a platform's flow that failed would hold its establishment's intake (the cursor) forever.
    if (error instanceof IncomingFileError) verdict = refusedVerdict('UNREADABLE', error.message);
    else if (error instanceof DocumentValidationError) verdict = refusedVerdict('UNVALIDATED', error.message);
    else throw error;
  }
  const document = file?.document ?? unreadDocument();
  const isPdf = Buffer.from(delivery.bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
  const contentType = file?.contentType ?? (isPdf ? 'application/pdf' : 'application/octet-stream');
  const row: ReceivedRow = {
    ...ctx.scope,
    id: newId('receivedInvoice', ctx.now),
    flowId: delivery.flowId,
    establishmentId: delivery.establishmentId ?? null,
    paInvoiceId: newId('platformInvoice', ctx.now),
    status: 'received',
    syntax: file?.syntax ?? 'unknown',
    senderSiret: document.seller.siret,
    senderSiren: document.seller.siren,
    senderName: document.seller.legalName || null,
    number: document.number,
    issueDate: document.issueDate || null,
    document,
    conformant: verdict.conformant,
    validationErrors: verdict.validationErrors.slice(0, keptValidationErrors),
    validationErrorCount: verdict.validationErrors.length,
    validators: verdict.validators,
    ruleSet: verdict.ruleSet,
    receivedAt: ctx.now,
    created: ctx.now,
    updated: ctx.now,
  };
  const bytes = Buffer.from(delivery.bytes);
  const extension = contentType === 'application/pdf' ? 'pdf' : 'xml';
  return inTransaction(deps.db, ctx, async (tx) => {
    if (!(await insertReceivedOnce(tx, row))) {
      // Another push or poll of the same flow committed first.
      const winner = await findReceivedByFlow(tx, ctx.scope, delivery.flowId);
      return { invoice: toReceivedInvoice(winner!), created: false };
    }
    // A flow whose file was never taken keeps no empty "original": its download says why instead.
    if (delivery.notTaken === undefined)
      await insertFile(tx, {
        ...ctx.scope,
        receivedInvoiceId: row.id,
        kind: 'original',
        contentType,
        // As the platform gave it (the download's header makes it safe), less what PostgreSQL cannot hold.
        name: delivery.name?.replace(/\u0000/g, '') || `${row.number || row.id}.${extension}`,
        sha256: sha256(bytes),
        size: bytes.length,
        bytes,
        created: ctx.now,
      });
    // The original counts against the plan's storage, never refused: the company must keep the
    // invoices delivered to it; a full storage refuses its finalizations and exports instead.
    await countStorage(tx, ctx.scope, bytes.length);
    await appendHistory(tx, {
      ...ctx.scope,
      receivedInvoiceId: row.id,
      status: 'fr:203',
      action: null,
      reasonCode: null,
      reason: null,
      messageId: null,
      platformFlowId: delivery.flowId,
      at: ctx.now,
    });
    await recordEvent(tx, ctx, 'invoice.incoming.received', incomingEventData(row), ctx.now);
    return { invoice: toReceivedInvoice(row), created: true };
  });
}

/** Whether the flow was ingested already (checked before fetching its file again). */
export async function receivedFlowKnown(deps: Pick<Deps, 'db'>, scope: Scope, flowId: string): Promise<boolean> {
  return (await findReceivedByFlow(deps.db, scope, flowId)) !== undefined;
}

export async function getReceivedInvoice(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<ReceivedInvoice> {
  const row = await findReceived(deps.db, scope, id);
  if (!row) throw notFound(id);
  return toReceivedInvoice(row);
}

export async function listReceivedInvoices(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  filters: ReceivedFilters,
): Promise<ListEnvelope<ReceivedInvoice>> {
  if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo)
    throw refuse('invalid_field_value', '`date_from` is after `date_to`.', { param: 'date_from' });
  const rows = await pageReceived(deps.db, scope, page, filters);
  return toListEnvelope(rows, page, '/v1/received-invoices', (row) => row.id, toReceivedInvoice);
}

export interface ReceivedFile {
  contentType: string;
  name: string;
  sha256: string;
  bytes: Buffer;
}

/** The file as received, byte for byte. */
export async function receivedOriginal(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<ReceivedFile> {
  const row = await findReceived(deps.db, scope, id);
  if (!row) throw notFound(id);
  const file = await findFile(deps.db, scope, id, 'original');
  if (!file)
    throw refuse(
      'not_supported',
      "The platform's file of this invoice could not be taken (see `validationErrors`): there is no original to download.",
      { param: 'id' },
    );
  return fileOf(file);
}

const fileOf = (file: FileRow): ReceivedFile => ({
  contentType: file.contentType,
  name: file.name,
  sha256: file.sha256,
  bytes: file.bytes,
});

/**
 * The invoice's visual: the Factur-X PDF itself when it came as one, else a PDF drawn from its XML
 * (rendered on first request and kept). A file that could not be read has no visual.
 */
export async function receivedPdf(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<ReceivedFile> {
  const row = await findReceived(deps.db, scope, id);
  if (!row) throw notFound(id);
  const original = await findFile(deps.db, scope, id, 'original');
  if (original?.contentType === 'application/pdf') return fileOf(original);
  const rendered = await findFile(deps.db, scope, id, 'pdf');
  if (rendered) return fileOf(rendered);
  if (row.syntax === 'unknown')
    throw refuse('not_supported', 'The file received could not be read: it has no visual to render.', { param: 'id' });
  const bytes = await renderPdf(visualModelOf(row.document), { creationDate: row.receivedAt });
  const file: FileRow = {
    ...scope,
    receivedInvoiceId: id,
    kind: 'pdf',
    contentType: 'application/pdf',
    name: `${row.number || row.id}.pdf`,
    sha256: sha256(bytes),
    size: bytes.length,
    bytes,
    created: row.receivedAt,
  };
  await inTransaction(
    deps.db,
    { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now: row.receivedAt },
    async (tx) => {
      // Counted once: a request that rendered it at the same time and stored it first counted it.
      if (await insertFile(tx, file)) await countStorage(tx, scope, file.size);
    },
  );
  return fileOf(file);
}

export interface HistoryList {
  object: 'list';
  data: HistoryEntry[];
  has_more: false;
  next_cursor: null;
  url: string;
}

export async function receivedHistory(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<HistoryList> {
  const row = await findReceived(deps.db, scope, id);
  if (!row) throw notFound(id);
  const rows = await historyOf(deps.db, scope, id);
  return {
    object: 'list',
    data: rows.map(toHistoryEntry),
    has_more: false,
    next_cursor: null,
    url: `/v1/received-invoices/${id}/history`,
  };
}

export interface AnswerInput {
  reasonCode?: string | undefined;
  reason?: string | undefined;
}

/** An answer's platform call retries within this budget (ms): the request waits meanwhile. */
const answerRetryBudgetMs = 20_000;

type Checked = Extract<ReturnType<typeof checkTransition>, { ok: true }>;

/** The transition from `status`, or the refusal the contract gives. */
function checkedAnswer(status: string, action: ReceivedAction, input: AnswerInput): Checked {
  const checked = checkTransition(status as ReceivedStatus, action, input.reasonCode);
  if (!checked.ok) {
    if (checked.problem === 'transition') throw refuse('invalid_status_transition', checked.detail);
    if (checked.problem === 'reason_missing') throw refuse('missing_required_field', '', { param: 'reasonCode' });
    throw refuse('invalid_field_value', checked.detail, { param: 'reasonCode' });
  }
  if (action === 'refuse' && !input.reason?.trim()) throw refuse('missing_required_field', '', { param: 'reason' });
  return checked;
}

/** What an answer keeps with its flow: enough to record it without its request (a holder that died). */
interface AnswerDetail {
  action: ReceivedAction;
  to: ReceivedStatus;
  statusCode: Checked['rule']['statusCode'];
  reasonCode: string | null;
  reason: string | null;
  messageId: string;
}

/** The answer sent: the invoice's new status and its history line (in the transaction of the record). */
async function recordAnswer(
  tx: Executor,
  scope: Scope,
  id: string,
  detail: AnswerDetail,
  platformFlowId: string | null,
  now: Date,
): Promise<ReceivedRow> {
  const updated = await updateReceived(tx, scope, id, { status: detail.to, updated: now });
  await appendHistory(tx, {
    ...scope,
    receivedInvoiceId: id,
    status: `fr:${detail.statusCode}`,
    action: detail.action,
    reasonCode: detail.reasonCode,
    reason: detail.reason,
    messageId: detail.messageId,
    platformFlowId,
    at: now,
  });
  return updated;
}

/**
 * The answer to a received invoice as a kind of the outbox's flows. A request that died while its
 * answer was on the way is not sent later on its own: found on the platform, it is recorded;
 * not found, it is abandoned and the invoice stays as it was (the company may answer again).
 */
export const answerFlow: FlowKind = {
  kind: 'received.answer',
  afterLapse: 'abandon',
  call: { retryBudgetMs: answerRetryBudgetMs },
  connector: (deps, scope, flow) =>
    flowConnector(deps, scope, flow.establishmentId ? { establishmentId: flow.establishmentId } : { siret: null }),
  deposited: async (_deps, tx, flow, receipt, now) => {
    const scope: Scope = { companyId: flow.companyId, livemode: flow.livemode };
    await recordAnswer(tx, scope, flow.ownerId, flow.detail as unknown as AnswerDetail, receipt.flowId, now);
  },
  // The status did not leave: the invoice stays as it was, the request says why.
  failed: async () => undefined,
};

/** How long an answer waits for another one on its way to the platform before it is refused. */
const answerQueueWaitMs = 30_000;

/**
 * The company answers a received invoice: the transition is checked (`invalid_status_transition`),
 * the CDAR status built (issuer: the buyer, addressed to the seller), queued in the outbox with
 * the lease of this request, deposited outside any transaction, and the status and its history
 * line committed with the deposit's record. A platform that refuses the deposit leaves the
 * invoice as it was (`pa_unavailable`); a live company without a platform gets `pa_not_configured`;
 * a test one without a connection has its answers recorded without a platform.
 *
 * Two answers at once (a double click, a retry under another key): the second waits, without a
 * lock, for the first's flow to be recorded, then is checked against its result before anything
 * leaves. A status sent to the seller cannot be taken back, so it never leaves twice.
 */
export async function answerReceivedInvoice(
  deps: Deps,
  ctx: CallContext,
  id: string,
  action: ReceivedAction,
  input: AnswerInput,
): Promise<ReceivedInvoice> {
  // Read first: what can be refused is, before anything is queued.
  const row = await findReceived(deps.db, ctx.scope, id);
  if (!row) throw notFound(id);
  checkedAnswer(row.status, action, input);
  // The answer goes back through the platform that delivered the invoice (else the establishment
  // the buyer named, else the default one); a test one without a connection is the sandbox's.
  const access = await platformAccess(
    deps,
    deps.db,
    ctx.scope,
    row.establishmentId ? { establishmentId: row.establishmentId } : { siret: row.document.buyer.siret },
  );
  if (access.state === 'not_configured') throw refuse('pa_not_configured', '');
  // The company is the buyer who answers: its own SIREN signs the status, whatever the file says.
  const company = await getCompany(deps, ctx.scope.companyId);
  const token = randomUUID();
  const startedAt = Date.now();

  for (;;) {
    const prepared = await inTransaction(
      deps.db,
      access.state === 'connected' ? { ...ctx, markEffect: undefined } : ctx,
      async (tx) => {
        const current = await findReceived(tx, ctx.scope, id, true);
        if (!current) throw notFound(id);
        if (await flowUnderWay(tx, ctx.scope, answerFlow.kind, id)) return { step: 'busy' as const };
        const checked = checkedAnswer(current.status, action, input);
        const messageId = `${current.id}-${checked.rule.statusCode}-${ctx.now.getTime()}`;
        const detail: AnswerDetail = {
          action,
          to: checked.rule.to,
          statusCode: checked.rule.statusCode,
          reasonCode: checked.reasonCode,
          reason: input.reason?.trim() || null,
          messageId,
        };
        const cdar = answerMessage(current, company, detail, input, ctx.now);
        if (access.state !== 'connected')
          return {
            step: 'recorded' as const,
            invoice: toReceivedInvoice(await recordAnswer(tx, ctx.scope, id, detail, null, ctx.now)),
          };
        const flow = await queuePlatformFlow(
          tx,
          ctx.scope,
          {
            kind: answerFlow.kind,
            ownerId: id,
            trackingId: messageId.slice(0, 64),
            establishmentId: access.establishmentId,
            file: Buffer.from(cdar),
            name: `${messageId}.xml`,
            syntax: 'CDAR',
            detail: { ...detail },
          },
          ctx.now,
          { token, until: new Date(deps.clock.now().getTime() + flowLeaseMs) },
        );
        if (!flow) throw new Error(`answer ${messageId} queued twice`);
        return { step: 'queued' as const, flow };
      },
    );
    if (prepared.step === 'recorded') return prepared.invoice;
    if (prepared.step === 'queued')
      return answerDelivered(deps, ctx, id, await deliverFlow(deps, answerFlow, prepared.flow, { ctx }));
    if (Date.now() - startedAt > answerQueueWaitMs)
      throw refuse('conflict', 'Another answer to this invoice is on its way to the platform: try again in a minute.');
    await delay(100);
  }
}

/** The route's answer once its flow is recorded: the invoice as it now is, or why nothing left. */
async function answerDelivered(
  deps: Deps,
  ctx: CallContext,
  id: string,
  outcome: FlowOutcome,
): Promise<ReceivedInvoice> {
  if (outcome.state === 'failed')
    // Whatever the platform's reason, the status did not leave: the company may answer again later.
    throw refuse('pa_unavailable', outcome.failure.message);
  if (outcome.state !== 'deposited')
    throw refuse(
      'pa_unavailable',
      'The answer could not be recorded in time: look at the invoice before answering again.',
    );
  const row = await findReceived(deps.db, ctx.scope, id);
  if (!row) throw notFound(id);
  return toReceivedInvoice(row);
}

/** The CDAR status of an answer: issued by the buyer (the company), addressed to the seller. */
function answerMessage(
  current: ReceivedRow,
  company: { siren: string | null; name: string },
  detail: AnswerDetail,
  input: AnswerInput,
  now: Date,
): string {
  const doc = current.document;
  const reason = detail.reasonCode ? { code: detail.reasonCode, text: detail.reason } : null;
  try {
    return buildCdarMessage({
      messageId: detail.messageId,
      issuedAt: now,
      status: detail.statusCode,
      invoice: {
        number: current.number,
        issueDate: current.issueDate ?? '',
        typeCode: doc.typeCode || '380',
        sellerSiren: current.senderSiren ?? '',
      },
      issuer: { role: 'BY', siren: company.siren ?? doc.buyer.siren, name: company.name || doc.buyer.name || null },
      recipient: {
        siren: current.senderSiren ?? '',
        electronicAddress: doc.seller.electronicAddress ?? doc.sellerEndpoint?.value ?? current.senderSiren ?? '',
        name: current.senderName,
      },
      reason,
      notes: input.reason && !reason ? [input.reason] : [],
    });
  } catch (error) {
    throw refuse('invalid_status_transition', `The status cannot be written: ${(error as Error).message}`);
  }
}

export async function purgeTestReceived(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live received invoices');
  const removed = await deleteScopeReceived(tx, scope);
  await deleteScopeReaders(tx, scope);
  await releaseStorage(tx, scope, removed.bytes);
  return removed.invoices;
}

/** A call context for work no request made (a callback, a polling pass). */
export function platformContext(scope: Scope, now: Date): CallContext {
  return { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now };
}

// The accounting exports: the period's received invoices in the order of the books.
export {
  accountingReceivedCount,
  accountingReceivedPage,
  type AccountingReceived,
  type ReceivedKey,
  type ReceivedPeriod,
} from './accounting.js';
