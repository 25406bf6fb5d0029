import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { later } from '../kernel/clock.js';
import { recordEvent } from '../webhooks/service.js';
import { platformAccess } from '../establishments/platform-access.js';
import type { DirectoryLookup, PlatformConnector, PlatformFailure, PlatformResult } from '../platform/connector.js';
import type { FlowFailure, FlowKind, FlowPreparation, OutgoingFlow } from '../platform/flows.js';
import {
  latestPlatformFlow,
  queuePlatformFlow,
  reschedulePlatformFlow,
  withdrawPlatformFlows,
} from '../platform/service.js';
import type { DocumentKind } from './document-axes.js';
import { obligationEventData, obligationOf, type DepositWait, type DocumentRow } from './document-record.js';
import { rejectionNoteFor, type Rejection } from './lifecycle-status.js';
import { rejectAttempt, resumeAttempt } from './einvoicing.js';
import { directoryRecheckMs, nextDirectoryRecheck, serviceMoves } from './rejection-follow-up.js';
import { depositFileOf } from './files-store.js';
import { documentSyntaxOf, fileNameOf } from './document-files.js';
import { getEstablishment } from '../establishments/service.js';
import { ApiError } from '../kernel/errors.js';
import type { EinvoiceSyntax } from '../kernel/einvoice-syntax.js';
import { findAnyDocument, updateDocument } from './store.js';

/**
 * Invoice and credit-note deposits as a kind of the platform's outbox (platform/outbox.ts does
 * the lease, the search by tracking id after an earlier try, the deposit and its record). Here,
 * what is the invoices' own, for each attempt of a document:
 *
 * 1. `prepare`: waits while its files are generated (failed files reject it locally); the
 *    directory pre-check (no active address for the buyer, SIRET else SIREN, rejects it locally,
 *    `buyer_not_in_directory`, source `service`); an attempt whose rejection the service follows
 *    up reads the directory again when due, and an active address resumes the document with a
 *    new attempt (the rejection archived in `previousSubmissions`);
 * 2. `retryAt`: `platform_unavailable` comes back at the platform's time, else after a backoff;
 *    an unproven `duplicate` a few times;
 * 3. `failed` / `deposited`: what the platform's answer does to the document (einvoicing.ts); an
 *    addressing error or a buyer the platform does not find has the flow watch the directory.
 */

export const depositFlowKind = 'invoices.deposit';

/** What a deposit flow keeps of its attempt (`platform_flows.detail`). */
export interface DepositDetail {
  attempt: number;
  documentKind: string;
  /** The connection the attempt was queued for: the key of the directory's remembered answers. */
  connectionKey: string;
}

export const depositDetailOf = (flow: Pick<OutgoingFlow, 'detail'>): DepositDetail =>
  flow.detail as unknown as DepositDetail;

/** The tracking id of a document's attempt: stable, so a deposit run again finds the first one. */
export const trackingIdOf = (documentId: string, attempt: number) => `${documentId}-a${attempt}`;

/** Deposits in flight on the platforms at once, and claimed ahead (a freed slot deposits the next at once). */
const depositsInFlight = 8;
/**
 * How long an active directory address found for a buyer is trusted before it is looked up again:
 * a company sends many invoices to the same buyers, and an address does not vanish between two of
 * them; a missing one is never remembered (the document waits for it, looked up every hour).
 */
export const directoryAnswerTtlMs = 60_000;
/** Answers `duplicate` without a proof of reception before the attempt is rejected as a duplicate. */
const maxUnprovenDuplicates = 3;

export interface DepositFlowOptions {
  /** How long one platform call may wait between its attempts before the flow comes back later (ms). */
  retryBudgetMs?: number;
  /** Waits while the files are generated (ms, default 2000). */
  filesWaitMs?: number;
}

/** Waits of a durable retry when the platform gives no time of its own: 30 s, 1, 2, 5, 10, 30 min, then hourly. */
export function depositRetryDelayMs(tries: number): number {
  return [30, 60, 120, 300, 600, 1800, 3600][Math.min(Math.max(tries, 1), 7) - 1]! * 1000;
}

/**
 * A new attempt's deposit flow, in the send's transaction: the attempt after the last one; the
 * earlier attempt's pending flow is withdrawn (a resubmission replaces a deposit that waits for
 * the directory). Returns the attempt's tracking id.
 */
export async function queueDeposit(
  tx: Executor,
  scope: Scope,
  job: { documentId: string; documentKind: string; establishmentId: string; connectionKey: string },
  now: Date,
): Promise<{ trackingId: string; attempt: number }> {
  await withdrawPlatformFlows(tx, scope, depositFlowKind, job.documentId, now);
  const last = await latestPlatformFlow(tx, scope, depositFlowKind, job.documentId);
  const attempt = (last ? depositDetailOf(last).attempt : 0) + 1;
  const trackingId = trackingIdOf(job.documentId, attempt);
  const detail: DepositDetail = { attempt, documentKind: job.documentKind, connectionKey: job.connectionKey };
  await queuePlatformFlow(
    tx,
    scope,
    {
      kind: depositFlowKind,
      ownerId: job.documentId,
      trackingId,
      establishmentId: job.establishmentId,
      // Made lazily: the files may still be generating (`prepare` reads them before each try).
      file: Buffer.alloc(0),
      name: '',
      syntax: 'Factur-X',
      detail: { ...detail },
    },
    now,
  );
  return { trackingId, attempt };
}

export function buyerLookup(row: Pick<DocumentRow, 'buyer'>): DirectoryLookup | null {
  const buyer = row.buyer;
  if (buyer?.siret) return { by: 'siret', siret: buyer.siret };
  if (buyer?.siren) return { by: 'siren', siren: buyer.siren };
  return null;
}

const scopeOf = (flow: OutgoingFlow): Scope => ({ companyId: flow.companyId, livemode: flow.livemode });
const scopeNow = (deps: Pick<Deps, 'clock'>, flow: OutgoingFlow) =>
  new Date(deps.clock.now().getTime() + flow.clockOffsetMs);
const contextOf = (scope: Scope, now: Date): CallContext => ({
  scope,
  requestId: null,
  idempotencyKey: null,
  apiVersion: currentVersion,
  now,
});

/** The active addresses found, per connection and buyer, until when they are trusted (real time). */
const foundInDirectory = new Map<string, number>();

async function inDirectory(
  deps: Pick<Deps, 'clock'>,
  connector: PlatformConnector,
  connectionKey: string,
  lookup: DirectoryLookup,
  fresh: boolean,
  options: DepositFlowOptions,
): Promise<PlatformResult<boolean>> {
  const key = `${connectionKey}|${JSON.stringify(lookup)}`;
  const now = deps.clock.now().getTime();
  if (!fresh && (foundInDirectory.get(key) ?? 0) > now) return { ok: true, value: true, attempts: 0 };
  const answer = await connector.lookupDirectory(lookup, callOf(options));
  if (!answer.ok) return answer;
  const active = answer.value.address?.active === true;
  if (active) {
    if (foundInDirectory.size > 10_000) foundInDirectory.clear();
    foundInDirectory.set(key, now + directoryAnswerTtlMs);
  } else foundInDirectory.delete(key);
  return { ok: true, value: active, attempts: answer.attempts };
}

const callOf = (options: DepositFlowOptions) =>
  options.retryBudgetMs === undefined ? {} : { retryBudgetMs: options.retryBudgetMs };

const serviceRefusal = (code: string, message: string): FlowFailure => ({ code, message, platform: null });

/**
 * The attempt watched the directory (its rejection is followed up): an active address resumes
 * the document with a new attempt (which withdraws this flow: its try records nothing); none, the
 * watch looks again in an hour, the document's wait moved silently.
 */
async function watchDirectory(
  deps: Deps,
  flow: OutgoingFlow,
  row: DocumentRow,
  connector: PlatformConnector,
  options: DepositFlowOptions,
): Promise<FlowPreparation> {
  const scope = scopeOf(flow);
  const { connectionKey } = depositDetailOf(flow);
  const lookup = buyerLookup(row);
  const answer = lookup ? await inDirectory(deps, connector, connectionKey, lookup, true, options) : null;
  const now = scopeNow(deps, flow);
  const ctx = contextOf(scope, now);
  if (!answer || (answer.ok && answer.value)) {
    await inTransaction(deps.db, ctx, async (tx) => {
      const locked = await findAnyDocument(tx, scope, flow.ownerId, true);
      if (locked)
        await resumeAttempt(tx, ctx, locked, {
          trackingId: flow.trackingId,
          establishmentId: flow.establishmentId!,
          connectionKey,
        });
    });
    return { state: 'later', at: nextDirectoryRecheck(now), reason: 'resumed' };
  }
  const at = nextDirectoryRecheck(now);
  await inTransaction(deps.db, ctx, async (tx) => {
    const locked = await findAnyDocument(tx, scope, flow.ownerId, true);
    const wait = locked?.einvoicing.depositWait;
    if (!locked || !wait || locked.einvoicing.paTrackingId !== flow.trackingId) return;
    await changeWait(tx, ctx, locked, { ...wait, nextAttemptAt: at.toISOString() }, null);
  });
  return { state: 'later', at, reason: answer.ok ? 'buyer_not_in_directory' : answer.paErrorCode };
}

/** Before each try: the document's files, the directory's word on its buyer (see the file's comment). */
async function prepareDeposit(
  deps: Deps,
  flow: OutgoingFlow,
  connector: PlatformConnector,
  options: DepositFlowOptions,
): Promise<FlowPreparation> {
  const scope = scopeOf(flow);
  const row = await findAnyDocument(deps.db, scope, flow.ownerId, false);
  if (!row || row.number === null) throw new Error(`document ${flow.ownerId} is not finalized`);
  if (
    row.transmissionStatus === 'rejected' &&
    row.einvoicing.depositWait &&
    row.einvoicing.paTrackingId === flow.trackingId
  )
    return watchDirectory(deps, flow, row, connector, options);
  const files = await depositFileOf(deps.db, scope, flow.ownerId);
  if (files?.state === 'failed')
    return {
      state: 'refused',
      failure: serviceRefusal('schematron_validation_failed', files.failure?.message ?? 'The files failed validation.'),
    };
  if (!files?.facturx || files.state !== 'ready')
    return { state: 'later', at: later(scopeNow(deps, flow), options.filesWaitMs ?? 2000), reason: 'files_pending' };
  const lookup = buyerLookup(row);
  if (lookup) {
    const answer = await inDirectory(deps, connector, depositDetailOf(flow).connectionKey, lookup, false, options);
    if (!answer.ok)
      return { state: 'refused', failure: { code: answer.paErrorCode, message: answer.message, platform: answer } };
    if (!answer.value)
      return {
        state: 'refused',
        failure: serviceRefusal('buyer_not_in_directory', 'No active directory address was found for the buyer.'),
      };
  }
  const syntax = documentSyntaxOf({
    customer: row.buyer?.einvoiceSyntax ?? null,
    establishment: await establishmentSyntax(deps, scope, flow.establishmentId),
  });
  // A document generated before UBL was issued has only its Factur-X.
  const kind = syntax.fileKind === 'ubl' && files.ubl ? 'ubl' : 'facturx';
  return {
    state: 'ready',
    file: {
      file: kind === 'ubl' ? files.ubl! : files.facturx,
      name: fileNameOf(row.number, kind),
      syntax: kind === 'ubl' ? 'UBL' : 'Factur-X',
    },
  };
}

/** The default syntax of the establishment that deposits (the Factur-X when it is gone). */
async function establishmentSyntax(
  deps: Deps,
  scope: Scope,
  establishmentId: string | null,
): Promise<EinvoiceSyntax | null> {
  if (!establishmentId) return null;
  try {
    return (await getEstablishment(deps, scope, establishmentId)).einvoiceSyntax;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
}

/** The retry times answered by `retryAt`, for `failed` to tell the document the same time. */
const retryTimes = new WeakMap<FlowFailure, Date>();

function depositRetryAt(flow: OutgoingFlow, failure: FlowFailure, now: Date): Date | null {
  let at: Date | null = null;
  if (failure.code === 'pa_not_configured' && !failure.platform) at = later(now, directoryRecheckMs);
  const move = failure.platform ? serviceMoves[failure.platform.category] : 'none';
  if (move === 'retry') {
    // The platform's own time (Retry-After, the retry table; on the connector's clock, real time), else the backoff.
    const retryAt = failure.platform!.retryAt;
    at = later(now, retryAt ? Math.max(0, retryAt.getTime() - Date.now()) : depositRetryDelayMs(flow.tries));
  }
  // The outbox searched the proof of reception once already: a few more tries before the rejection.
  if (move === 'search_proof_of_reception' && flow.tries < maxUnprovenDuplicates)
    at = later(now, depositRetryDelayMs(flow.tries));
  if (at) retryTimes.set(failure, at);
  return at;
}

/** The document's `depositWait` set (or cleared), its obligation event written when announced and changed. */
async function changeWait(
  tx: Executor,
  ctx: CallContext,
  row: DocumentRow,
  wait: DepositWait | null,
  announce: { reason: string | null } | null,
) {
  if (isDeepStrictEqual(row.einvoicing.depositWait ?? null, wait)) return;
  const updated = await updateDocument(tx, ctx.scope, row.id, {
    einvoicing: { ...row.einvoicing, depositWait: wait },
  });
  const obligation = obligationOf(updated);
  if (!announce || !obligation || isDeepStrictEqual(obligation, obligationOf(row))) return;
  await recordEvent(
    tx,
    ctx,
    `${row.kind as DocumentKind}.obligation_updated`,
    obligationEventData(updated, obligation, announce.reason),
    ctx.now,
  );
}

const reasonCodeOf = (failure: PlatformFailure) =>
  failure.errorCode ?? (failure.httpStatus !== null ? String(failure.httpStatus) : failure.paErrorCode);

/** The rejection fields of a refusal: the platform's answer to the deposit, or the service's own. */
function rejectionOf(failure: FlowFailure): Rejection {
  if (!failure.platform) {
    return {
      rejectionReason: failure.message,
      rejectionNote: null,
      rejectionCode: failure.code,
      rejectionSource: 'service',
      rejectionCategory: failure.code === 'buyer_not_in_directory' ? 'buyer_not_in_directory' : 'format_invalid',
    };
  }
  const reason = failure.platform.message.slice(0, 2000);
  return {
    rejectionReason: reason,
    rejectionNote: rejectionNoteFor(failure.platform.category, reason, []),
    rejectionCode: reasonCodeOf(failure.platform),
    rejectionSource: 'platform',
    rejectionCategory: failure.platform.category,
  };
}

/**
 * The platform did not take the deposit (or the service refused it), in the transaction that
 * records the flow: tried again, the document's obligation says why and when (`depositWait`);
 * else the document rejected for this attempt, and a rejection the service follows up has the
 * flow watch the directory (einvoicing.ts).
 */
async function depositFailed(deps: Deps, tx: Tx, flow: OutgoingFlow, failure: FlowFailure, now: Date): Promise<void> {
  const scope = scopeOf(flow);
  const ctx = contextOf(scope, now);
  const retryAt = retryTimes.get(failure);
  if (failure.code === 'pa_not_configured' && !failure.platform) return;
  const row = await findAnyDocument(tx, scope, flow.ownerId, true);
  if (!row || row.einvoicing.paTrackingId !== flow.trackingId) return;
  if (retryAt && failure.platform && serviceMoves[failure.platform.category] === 'retry') {
    const wait: DepositWait = {
      reasonCode: reasonCodeOf(failure.platform),
      reasonSource: 'platform',
      nextAttemptAt: retryAt.toISOString(),
    };
    return changeWait(tx, ctx, row, wait, { reason: failure.platform.message.slice(0, 2000) });
  }
  if (retryAt || row.transmissionStatus !== 'sending') return;
  const rejection = rejectionOf(failure);
  const { job } = await rejectAttempt(tx, ctx, row, {
    code: '213',
    reasonCode: rejection.rejectionCode,
    reason: rejection.rejectionReason,
    notes: [],
    rejection,
    paErrorCode: failure.code,
    // Not a status the platform reported: the rejection fields say it, the history does not.
    historyStatus: null,
  });
  if (job?.state === 'waiting_directory' && job.nextAttemptAt)
    await reschedulePlatformFlow(tx, scope, flow.trackingId, job.nextAttemptAt, now);
}

/** The platform holds the flow: its id on the document, and the document's wait ended. */
async function depositDone(tx: Tx, flow: OutgoingFlow, flowId: string, now: Date): Promise<void> {
  const scope = scopeOf(flow);
  const row = await findAnyDocument(tx, scope, flow.ownerId, true);
  if (!row || row.einvoicing.paTrackingId !== flow.trackingId) return;
  const withFlow = await updateDocument(tx, scope, row.id, { einvoicing: { ...row.einvoicing, paFlowId: flowId } });
  // Rejected meanwhile (its acknowledgement read first), the document's wait is its rejection's.
  if (withFlow.transmissionStatus === 'sending')
    await changeWait(tx, contextOf(scope, now), withFlow, null, { reason: null });
}

/** The kind (tests shorten its waits); the capability's descriptor declares `depositFlow`. */
export const depositFlowOf = (options: DepositFlowOptions = {}): FlowKind => ({
  kind: depositFlowKind,
  // Nobody waits on the request that queued it: a lapsed deposit is deposited (searched first).
  afterLapse: 'deposit',
  call: callOf(options),
  // Claimed again once the hand falls to its size (as before the outbox): the platform never waits on a claim.
  worker: { concurrency: depositsInFlight, prefetch: 6, refillAt: depositsInFlight },
  async connector(deps, scope, flow) {
    if (!flow.establishmentId) return null;
    const access = await platformAccess(deps, deps.db, scope, { establishmentId: flow.establishmentId });
    return access.state === 'connected' ? access.connector : null;
  },
  prepare: (deps, flow, connector) => prepareDeposit(deps, flow, connector, options),
  // An e-invoice in scope (domestic B2B), EN 16931 with the French rules: the CIUS profile.
  processingRule: () => 'B2B',
  flowProfile: () => 'CIUS',
  retryAt: depositRetryAt,
  deposited: (_deps, tx, flow, receipt, now) => depositDone(tx, flow, receipt.flowId, now),
  failed: depositFailed,
});

export const depositFlow: FlowKind = depositFlowOf();
