import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { later } from '../kernel/clock.js';
import { createClaimLoop, type ClaimLoop } from '../workers/claim-loop.js';
import { recordEvent } from '../webhooks/service.js';
import { accessOf, platformFieldsSql, type PlatformFields } from '../establishments/platform-access.js';
import type { DirectoryLookup, PlatformConnector, PlatformFailure, PlatformResult } from '../platform/connector.js';
import type { DocumentKind } from './document-axes.js';
import { obligationEventData, obligationOf, type DepositWait, type DocumentRow } from './document-record.js';
import { rejectionNoteFor, type Rejection } from './lifecycle-status.js';
import { rejectAttempt, resumeAttempt } from './einvoicing.js';
import { directoryRecheckMs, nextDirectoryRecheck, serviceMoves } from './rejection-follow-up.js';
import { findAnyDocument, updateDocument } from './store.js';
import {
  claimDeposits,
  depositsChannel,
  renewDeposits,
  settleDeposit,
  settleDepositedQuietly,
  type AcceptedDeposit,
  type ClaimedDeposit,
} from './deposit-store.js';

/**
 * The deposit worker: claims the deposit jobs the sends queued (leased, on the scope's clock),
 * and for each attempt of a document:
 *
 * 1. waits (reschedules) while its files are being generated; failed files reject it locally;
 * 2. the directory pre-check: no active address for the buyer (SIRET, else SIREN) rejects the
 *    document locally, without a platform call (`buyer_not_in_directory`, source `service`), and
 *    the job looks at the directory again every hour; when an address appears, a new attempt
 *    carries on (the rejection archived in `previousSubmissions`);
 * 3. deposits the Factur-X under the attempt's tracking id. A claim after the first (a worker that
 *    died, a lease that lapsed) first searches the platform for that tracking id: exactly one
 *    platform deposit per attempt. The platform's answer goes by what the service does for its
 *    category (rejection-follow-up.ts): `platform_unavailable` comes back at `retryAt` (durable
 *    backoff), `duplicate` searches the proof of reception, anything else rejects the document
 *    with the platform's classification (einvoicing.ts), and an addressing error or a buyer the
 *    platform does not find has the job watch the directory, as the pre-check's rejection does;
 * 4. a job watching the directory reads it again (never from the remembered answers) when due:
 *    an active address resumes the document with a new attempt; none, it looks again each hour.
 *
 * The statuses that follow the deposit come by polling or the platform's callback (platform-statuses.ts).
 */

/**
 * Renewed every third of it while the worker holds the job (db/lease-heartbeat.ts): a lapsed
 * lease means the worker died, and its job is taken over within this time.
 */
export const depositLeaseMs = 30_000;
/** Deposits a worker has in flight on the platforms at once. */
const depositsInFlight = 8;
/**
 * How long an active directory address found for a buyer is trusted before it is looked up again:
 * a company sends many invoices to the same buyers, and an address does not vanish between two of
 * them; a missing one is never remembered (the document waits for it, looked up every hour).
 */
export const directoryAnswerTtlMs = 60_000;
/** Answers `duplicate` without a proof of reception before the attempt is rejected as a duplicate. */
const maxUnprovenDuplicates = 3;

/** Waits of a durable retry when the platform gives no time of its own: 30 s, 1, 2, 5, 10, 30 min, then hourly. */
export function depositRetryDelayMs(tries: number): number {
  return [30, 60, 120, 300, 600, 1800, 3600][Math.min(Math.max(tries, 1), 7) - 1]! * 1000;
}

export interface DepositWorkerOptions {
  /** Only these companies' jobs (tests). */
  companyIds?: readonly string[];
  /** How long one platform call may wait between its attempts before the job comes back later (ms). */
  retryBudgetMs?: number;
  /** Test seam: runs once the platform accepted the deposit, before the service records it. */
  afterDeposit?: (claim: ClaimedDeposit) => Promise<void>;
  /** Waits while the files are generated (ms, default 2000). */
  filesWaitMs?: number;
  /**
   * How long an accepted deposit waits for others before they are recorded together (ms, default
   * 15): the platform's answers come a few milliseconds apart, and one statement records a batch.
   */
  recordGatherMs?: number;
  /** How long a job is leased, and renewed (ms, default `depositLeaseMs`; tests shorten it). */
  leaseMs?: number;
}

export interface DepositWorker extends ClaimLoop {
  /** Handles one claimed job (tests drive it directly to simulate a crash). */
  handle(claim: ClaimedDeposit, lease?: AbortSignal): Promise<void>;
  /** Claims the due jobs now (tests). */
  claim(limit?: number): Promise<ClaimedDeposit[]>;
}

type DepositDeps = Pick<Deps, 'db' | 'fast' | 'pool' | 'log' | 'clock' | 'config'>;

const contextOf = (scope: Scope, now: Date): CallContext => ({
  scope,
  requestId: null,
  idempotencyKey: null,
  apiVersion: currentVersion,
  now,
});

/** Another worker took the job over (its lease lapsed): this one's outcome is dropped. */
class LeaseLost extends Error {}

export function buyerLookup(row: Pick<DocumentRow, 'buyer'>): DirectoryLookup | null {
  const buyer = row.buyer;
  if (buyer?.siret) return { by: 'siret', siret: buyer.siret };
  if (buyer?.siren) return { by: 'siren', siren: buyer.siren };
  return null;
}

/** The rejection fields of a failure the platform answered to a deposit (no life-cycle status). */
function platformRefusal(failure: PlatformFailure): Rejection {
  const reason = failure.message.slice(0, 2000);
  return {
    rejectionReason: reason,
    rejectionNote: rejectionNoteFor(failure.category, reason, []),
    rejectionCode:
      failure.errorCode ?? (failure.httpStatus !== null ? String(failure.httpStatus) : failure.paErrorCode),
    rejectionSource: 'platform',
    rejectionCategory: failure.category,
  };
}

export function createDepositWorker(deps: DepositDeps, options: DepositWorkerOptions = {}): DepositWorker {
  const scopeNow = (claim: ClaimedDeposit) => new Date(deps.clock.now().getTime() + claim.offsetMs);
  const retryBudgetMs = options.retryBudgetMs ?? 10_000;
  const leaseMs = options.leaseMs ?? depositLeaseMs;
  /** Buyers found in the directory, per connection: until when they are trusted (real time). */
  const foundInDirectory = new Map<string, number>();

  /**
   * The pre-check: has the buyer an active address? A recent positive answer stands, unless the
   * directory is to be read again (`fresh`: a watch, where a remembered answer is the stale one).
   */
  async function inDirectory(
    connector: PlatformConnector,
    connectionKey: string,
    lookup: DirectoryLookup,
    fresh = false,
  ): Promise<PlatformResult<boolean>> {
    const key = `${connectionKey}|${JSON.stringify(lookup)}`;
    const now = deps.clock.now().getTime();
    if (!fresh && (foundInDirectory.get(key) ?? 0) > now) return { ok: true, value: true, attempts: 0 };
    const answer = await connector.lookupDirectory(lookup, { retryBudgetMs });
    if (!answer.ok) return answer;
    const active = answer.value.address?.active === true;
    if (active) {
      if (foundInDirectory.size > 10_000) foundInDirectory.clear();
      foundInDirectory.set(key, now + directoryAnswerTtlMs);
    } else foundInDirectory.delete(key);
    return { ok: true, value: active, attempts: answer.attempts };
  }

  /** The job comes back at `at` (the scope's clock). */
  async function reschedule(claim: ClaimedDeposit, at: Date, lastError: string | null, extra = {}) {
    await settleDeposit(deps.db, claim, { nextAttemptAt: at, lastError, ...extra }, scopeNow(claim));
  }

  /**
   * The job comes back at `at`, and the document's obligation says why and when (`depositWait`),
   * with `<kind>.obligation_updated` when that is news (`reason`: the platform's words).
   */
  async function holdBack(claim: ClaimedDeposit, at: Date, lastError: string, wait: DepositWait, reason: string) {
    const scope: Scope = { companyId: claim.companyId, livemode: claim.livemode };
    const now = scopeNow(claim);
    await inTransaction(deps.db, contextOf(scope, now), async (tx) => {
      if (!(await settleDeposit(tx, claim, { nextAttemptAt: at, lastError }, now))) throw new LeaseLost();
      const row = await findAnyDocument(tx, scope, claim.documentId, true);
      if (!row || row.einvoicing.paTrackingId !== claim.trackingId) return;
      await changeWait(tx, contextOf(scope, now), row, wait, { reason });
    });
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

  /**
   * The document rejected for this attempt, in one transaction with the job's end: the platform's
   * refusal of the deposit, or the service's own (buyer not in the directory, failed files). What
   * follows is the rejection's (einvoicing.ts): the job watches the directory, or ends `rejected`.
   */
  async function reject(claim: ClaimedDeposit, rejection: Rejection, paErrorCode: string) {
    const scope: Scope = { companyId: claim.companyId, livemode: claim.livemode };
    const now = scopeNow(claim);
    const ctx = contextOf(scope, now);
    await inTransaction(deps.db, ctx, async (tx) => {
      const row = await findAnyDocument(tx, scope, claim.documentId, true);
      const onAttempt = row && row.transmissionStatus === 'sending' && row.einvoicing.paTrackingId === claim.trackingId;
      const { job } = onAttempt
        ? await rejectAttempt(tx, ctx, row, {
            code: '213',
            reasonCode: rejection.rejectionCode,
            reason: rejection.rejectionReason,
            notes: [],
            rejection,
            paErrorCode,
            // Not a status the platform reported: the rejection fields say it, the history does not.
            historyStatus: null,
          })
        : { job: null };
      const end = job ?? { state: 'rejected' as const, nextAttemptAt: null };
      if (!(await settleDeposit(tx, claim, { ...end, lastError: rejection.rejectionCode }, now))) throw new LeaseLost();
    });
  }

  async function notInDirectory(claim: ClaimedDeposit) {
    await reject(
      claim,
      {
        rejectionReason: 'No active directory address was found for the buyer.',
        rejectionNote: null,
        rejectionCode: 'buyer_not_in_directory',
        rejectionSource: 'service',
        rejectionCategory: 'buyer_not_in_directory',
      },
      'buyer_not_in_directory',
    );
  }

  /** The directory answered at last: the rejection is archived and a new attempt carries on (einvoicing.ts). */
  async function resume(claim: ClaimedDeposit, connectionKey: string) {
    const scope: Scope = { companyId: claim.companyId, livemode: claim.livemode };
    const ctx = contextOf(scope, scopeNow(claim));
    await inTransaction(deps.db, ctx, async (tx) => {
      const row = await findAnyDocument(tx, scope, claim.documentId, true);
      if (!(await settleDeposit(tx, claim, { state: 'resumed', nextAttemptAt: null, lastError: null }, ctx.now)))
        throw new LeaseLost();
      if (row)
        await resumeAttempt(tx, ctx, row, {
          trackingId: claim.trackingId,
          establishmentId: claim.establishmentId,
          connectionKey,
        });
    });
  }

  /** Still no active address: the watch looks again at `at`, the document's wait moved silently. */
  async function lookAgainAt(claim: ClaimedDeposit, at: Date, lastError: string) {
    const scope: Scope = { companyId: claim.companyId, livemode: claim.livemode };
    const ctx = contextOf(scope, scopeNow(claim));
    await inTransaction(deps.db, ctx, async (tx) => {
      if (!(await settleDeposit(tx, claim, { nextAttemptAt: at, lastError }, ctx.now))) throw new LeaseLost();
      const row = await findAnyDocument(tx, scope, claim.documentId, true);
      const wait = row?.einvoicing.depositWait;
      if (!row || !wait || row.einvoicing.paTrackingId !== claim.trackingId) return;
      await changeWait(tx, ctx, row, { ...wait, nextAttemptAt: at.toISOString() }, null);
    });
  }

  /**
   * Deposits the platform accepted wait here to be recorded together: those answered while a
   * statement runs go in the next one, so a burst of answers costs a few statements.
   */
  const accepted: { deposit: AcceptedDeposit; done: (settled: boolean) => void; failed: (error: unknown) => void }[] =
    [];
  const recordGatherMs = options.recordGatherMs ?? 15;
  /** A batch as large as the deposits in flight is recorded without waiting for more. */
  const maxGathered = depositsInFlight;
  let settling = false;
  function settleQuietly(deposit: AcceptedDeposit): Promise<boolean> {
    return new Promise((done, failed) => {
      accepted.push({ deposit, done, failed });
      void settleAccepted();
    });
  }
  async function settleAccepted(): Promise<void> {
    if (settling) return;
    settling = true;
    // Gathered for a moment: measured in the deposit bench, 300 deposits went by 226 statements
    // recorded at once, by 92 gathered for 15 ms (the slot is already free: no deposit waits).
    if (accepted.length < maxGathered) await new Promise((resolve) => setTimeout(resolve, recordGatherMs));
    while (accepted.length > 0) {
      const batch = accepted.splice(0, 100);
      try {
        const settled = await settleDepositedQuietly(
          deps.fast.pool,
          batch.map(({ deposit }) => deposit),
        );
        for (const { deposit, done } of batch) done(settled.has(deposit));
      } catch (error) {
        for (const { failed } of batch) failed(error);
      }
    }
    settling = false;
  }

  /** The platform holds the flow: its references on the job and the document. */
  async function deposited(claim: ClaimedDeposit, flowId: string) {
    const scope: Scope = { companyId: claim.companyId, livemode: claim.livemode };
    const now = scopeNow(claim);
    // Committed without waiting for the disk: a result lost with the database's last instants
    // leaves the job leased, and its next claim finds the flow by its tracking id (as after a
    // worker's crash between the platform's answer and this commit).
    if (await settleQuietly({ claim, flowId, at: now })) return;
    await inTransaction(deps.db, contextOf(scope, now), async (tx) => {
      if (!(await settleDeposit(tx, claim, { state: 'deposited', flowId, nextAttemptAt: null, lastError: null }, now)))
        throw new LeaseLost();
      const row = await findAnyDocument(tx, scope, claim.documentId, true);
      if (!row || row.einvoicing.paTrackingId !== claim.trackingId) return;
      const withFlow = await updateDocument(tx, scope, row.id, { einvoicing: { ...row.einvoicing, paFlowId: flowId } });
      // Rejected meanwhile (its acknowledgement read first), the document's wait is its rejection's.
      if (withFlow.transmissionStatus === 'sending')
        await changeWait(tx, contextOf(scope, now), withFlow, null, { reason: null });
    });
  }

  /** The platform did not take the deposit: what the service does for the answer's category (rejection-follow-up.ts). */
  async function failed(claim: ClaimedDeposit, connector: PlatformConnector, failure: PlatformFailure) {
    const now = scopeNow(claim);
    const move = serviceMoves[failure.category];
    if (move === 'retry') {
      // The platform's own time (Retry-After, the retry table), else the job's backoff; on the scope's clock.
      // (`retryAt` is on the connector's clock, real time.)
      const wait = failure.retryAt
        ? Math.max(0, failure.retryAt.getTime() - Date.now())
        : depositRetryDelayMs(claim.tries);
      const at = later(now, wait);
      return holdBack(
        claim,
        at,
        `${failure.paErrorCode}: ${failure.message}`.slice(0, 500),
        {
          reasonCode:
            failure.errorCode ?? (failure.httpStatus !== null ? String(failure.httpStatus) : failure.paErrorCode),
          reasonSource: 'platform',
          nextAttemptAt: at.toISOString(),
        },
        failure.message.slice(0, 2000),
      );
    }
    if (move === 'search_proof_of_reception') {
      const proof = await connector.findDeposit(claim.trackingId, { retryBudgetMs });
      if (proof.ok && proof.value && proof.value.ackStatus !== 'Error') return deposited(claim, proof.value.flowId);
      if (claim.duplicates + 1 < maxUnprovenDuplicates)
        return reschedule(claim, later(now, depositRetryDelayMs(claim.duplicates + 1)), failure.paErrorCode, {
          duplicates: claim.duplicates + 1,
        });
    }
    return reject(claim, platformRefusal(failure), failure.paErrorCode);
  }

  async function handle(claim: ClaimedDeposit, lease?: AbortSignal): Promise<void> {
    const scope: Scope = { companyId: claim.companyId, livemode: claim.livemode };
    try {
      const row = claim.source;
      if (!row || row.number === null) throw new Error(`document ${claim.documentId} is not finalized`);
      const access = accessOf(deps, scope, row.platform as PlatformFields | null);
      if (access.state !== 'connected') {
        // The connection was removed meanwhile: the job waits for it to come back.
        return reschedule(claim, later(scopeNow(claim), directoryRecheckMs), 'pa_not_configured');
      }
      const connector = access.connector;
      const lookup = buyerLookup(row);

      if (claim.state === 'waiting_directory') {
        if (!lookup) return resume(claim, access.connectionKey);
        const answer = await inDirectory(connector, access.connectionKey, lookup, true);
        if (answer.ok && answer.value) return resume(claim, access.connectionKey);
        return lookAgainAt(
          claim,
          nextDirectoryRecheck(scopeNow(claim)),
          answer.ok ? 'buyer_not_in_directory' : answer.paErrorCode,
        );
      }

      if (row.fileState === 'failed')
        return reject(
          claim,
          {
            rejectionReason: row.failure?.message ?? 'The files failed validation.',
            rejectionNote: null,
            rejectionCode: 'schematron_validation_failed',
            rejectionSource: 'service',
            rejectionCategory: 'format_invalid',
          },
          'schematron_validation_failed',
        );
      if (!row.facturx || row.fileState !== 'ready')
        return reschedule(claim, later(scopeNow(claim), options.filesWaitMs ?? 2000), 'files_pending');

      if (lookup) {
        const answer = await inDirectory(connector, access.connectionKey, lookup);
        if (!answer.ok) return failed(claim, connector, answer);
        if (!answer.value) return notInDirectory(claim);
      }

      // A try after the first may follow a deposit whose answer was never recorded: look for it first.
      if (claim.tries > 1) {
        const found = await connector.findDeposit(claim.trackingId, { retryBudgetMs });
        if (!found.ok) return failed(claim, connector, found);
        if (found.value) return deposited(claim, found.value.flowId);
      }
      // The lease lost meanwhile: the worker that took the job over deposits it.
      if (lease?.aborted) throw new LeaseLost();
      const result = await connector.deposit(
        { file: row.facturx, name: `${row.number}.pdf`, syntax: 'Factur-X', trackingId: claim.trackingId },
        { retryBudgetMs },
      );
      if (!result.ok) return failed(claim, connector, result);
      await options.afterDeposit?.(claim);
      return recordLater(claim, result.value.flowId);
    } catch (error) {
      await recover(claim, error);
    }
  }

  /** A step that failed: the job comes back after a backoff (nothing to do when the lease was lost). */
  async function recover(claim: ClaimedDeposit, error: unknown): Promise<void> {
    if (error instanceof LeaseLost) return;
    deps.log.warn({ err: error, document: claim.documentId, attempt: claim.attempt }, 'deposit not done yet');
    // The lease lapses on its own when the worker died; an error here comes back after a backoff.
    await reschedule(
      claim,
      later(scopeNow(claim), depositRetryDelayMs(claim.tries)),
      String(error).slice(0, 500),
    ).catch(() => undefined);
  }

  /**
   * The platform's acceptance recorded without holding a slot: the slot bounds the calls in flight
   * on the platforms, and a freed slot starts the next deposit while this one commits (the job
   * stays leased until then, so no other claim deposits it meanwhile). At most `maxRecording` wait;
   * beyond, the slot waits for the database.
   */
  const recording = new Set<Promise<void>>();
  const maxRecording = 16;
  async function recordLater(claim: ClaimedDeposit, flowId: string): Promise<void> {
    const work: Promise<void> = deposited(claim, flowId)
      .catch((error: unknown) => recover(claim, error))
      .finally(() => recording.delete(work));
    recording.add(work);
    while (recording.size >= maxRecording) await Promise.race(recording);
  }
  async function recorded(): Promise<void> {
    while (recording.size > 0) await Promise.allSettled([...recording]);
  }

  const claim = (limit = 10) =>
    // A lease, not a result (the fast pool): lost, it is merely free again. One statement, atomic on
    // its own: no transaction around it (a round trip for BEGIN and one for COMMIT saved).
    claimDeposits(
      deps.fast.db,
      { now: deps.clock.now(), limit, leaseMs, token: randomUUID() },
      platformFieldsSql,
      options.companyIds,
    );

  const loop = createClaimLoop<ClaimedDeposit>({
    pool: deps.pool,
    channel: depositsChannel,
    log: deps.log,
    // Eight deposits in flight on the platforms, and six more claimed ahead (with their
    // documents): a freed slot deposits the next one at once, the claim's round trips happen
    // while eight are in flight.
    concurrency: depositsInFlight,
    prefetch: 6,
    refillAt: 8,
    pollMs: 1000,
    claim,
    handle,
    // One statement renews every job in hand (no round trip per deposit). A job whose slot freed
    // while its acceptance is recorded is renewed no more: the record takes far less than the lease.
    lease: { leaseMs, renew: (claims) => renewDeposits(deps.fast.db, claims, { now: deps.clock.now(), leaseMs }) },
    describe: (item) => ({ document: item.documentId, attempt: item.attempt }),
  });
  return {
    ...loop,
    // Tests see a job once its outcome is recorded.
    handle: async (claimed, lease) => {
      await handle(claimed, lease);
      await recorded();
    },
    claim,
    async drain() {
      const handled = await loop.drain();
      await recorded();
      return handled;
    },
    async stop() {
      await loop.stop();
      await recorded();
    },
  };
}
