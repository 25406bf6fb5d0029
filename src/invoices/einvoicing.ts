import type { Tx } from '../db/database.js';
import type { CallContext } from '../db/transaction.js';
import { recordEvent } from '../webhooks/service.js';
import type { LifecycleEvent } from '../platform/connector.js';
import type { DocumentKind } from './document-axes.js';
import {
  axesColumns,
  axesOf,
  documentEventData,
  obligationEventData,
  obligationOf,
  type DocumentRow,
} from './document-record.js';
import { lifecycleCodes, rejectionNoteFor, type LifecycleCode } from './lifecycle-status.js';
import { applyReportedStatus, type ReportedStatus } from './reported-status.js';
import { followUpOf } from './rejection-follow-up.js';
import { archiveAttempt } from './submission.js';
import { updateDocument } from './store.js';
import type { OutgoingFlow } from '../platform/flows.js';
import { endPlatformFlow, reschedulePlatformFlow } from '../platform/service.js';
import { queueDeposit } from './deposit-flow.js';

/**
 * What the platform's word does to an invoice or a credit note, in the caller's transaction (the
 * document locked by it): a rejection of the current attempt, applied with what the service does
 * next (the table of rejection-follow-up.ts); a new attempt the service starts by itself once the
 * directory answers; an event read back from the platform applied. The deposit flows
 * (deposit-flow.ts: the outbox's kind, its directory pre-check) and the statuses read back
 * (platform-statuses.ts: polling, callback, once per event) come here for the document's part.
 */

/** The deposit job's next state after the rejection of its attempt: watching the directory from `nextAttemptAt`, or ended. */
export interface JobAfterRejection {
  state: 'rejected' | 'waiting_directory';
  nextAttemptAt: Date | null;
}

const isRejectedAttempt = (row: Pick<DocumentRow, 'transmissionStatus' | 'transmissionDetail'>) =>
  row.transmissionStatus === 'rejected' && row.transmissionDetail === null;

/**
 * A report that rejects the document's current attempt (the platform's, or the service's own
 * pre-check), applied with what the service does next: when it reads the directory again, the
 * document's `depositWait` says when, set with the rejection so that its event already tells the
 * obligation. Answers the document and its deposit job's next state, for the caller to write (the
 * worker under its lease); no job state when the report rejected nothing (a late word).
 */
export async function rejectAttempt(
  tx: Tx,
  ctx: CallContext,
  row: DocumentRow,
  report: ReportedStatus,
): Promise<{ row: DocumentRow; job: JobAfterRejection | null }> {
  const updated = await applyReportedStatus(tx, ctx, row, {
    ...report,
    waitAfterRejection: (rejected) => {
      const followUp = followUpOf(rejected, ctx.now);
      return followUp.kind === 'watch' ? followUp.wait : null;
    },
  });
  if (isRejectedAttempt(row) || !isRejectedAttempt(updated)) return { row: updated, job: null };
  const followUp = followUpOf(updated.einvoicing, ctx.now);
  return {
    row: updated,
    job:
      followUp.kind === 'watch'
        ? { state: 'waiting_directory', nextAttemptAt: followUp.at }
        : { state: 'rejected', nextAttemptAt: null },
  };
}

/**
 * A new attempt the service starts by itself on the attempt it watched (the directory gave an
 * active address): the rejection archived in `previousSubmissions` as a resubmission's, the
 * document `sending` again under the new attempt's tracking id (`invoice.sending`; a credit note's
 * `credit_note.obligation_updated`), its deposit job queued. Nothing when the document moved on
 * meanwhile (sent again by the client, no longer waiting on the service).
 */
export async function resumeAttempt(
  tx: Tx,
  ctx: CallContext,
  row: DocumentRow,
  watched: { trackingId: string; establishmentId: string; connectionKey: string },
): Promise<void> {
  if (!isRejectedAttempt(row) || row.einvoicing.paTrackingId !== watched.trackingId || !row.einvoicing.depositWait)
    return;
  const { scope, now } = ctx;
  const kind = row.kind as DocumentKind;
  const before = axesOf(row);
  // After the rejection it resumes from, whatever the clocks.
  const at = new Date(Math.max(now.getTime(), row.updated.getTime() + 2));
  const job = await queueDeposit(
    tx,
    scope,
    {
      documentId: row.id,
      documentKind: row.kind,
      establishmentId: watched.establishmentId,
      connectionKey: watched.connectionKey,
    },
    now,
  );
  const sending = await updateDocument(tx, scope, row.id, {
    ...axesColumns({ ...before, transmissionStatus: 'sending', transmissionDetail: null }, kind),
    einvoicing: { ...archiveAttempt(row.einvoicing, before, now), paFlowId: null, paTrackingId: job.trackingId },
    updated: at,
  });
  if (kind === 'invoice') {
    await recordEvent(tx, ctx, 'invoice.sending', documentEventData(sending, row.status), at);
    return;
  }
  const obligation = obligationOf(sending);
  if (obligation)
    await recordEvent(tx, ctx, 'credit_note.obligation_updated', obligationEventData(sending, obligation, null), now);
}

const isLifecycleCode = (code: string): code is LifecycleCode => (lifecycleCodes as readonly string[]).includes(code);

/** The report an event of the platform makes: an acknowledgement `Error` classified, or a life-cycle status. */
function reportOf(event: LifecycleEvent): ReportedStatus | null {
  if (event.kind === 'acknowledgement') {
    const rejection = event.rejection;
    if (event.flow.ackStatus !== 'Error' || !rejection) return null;
    return {
      code: '213',
      reasonCode: rejection.code,
      reason: rejection.reason,
      notes: rejection.notes,
      rejection: {
        rejectionReason: rejection.reason,
        rejectionNote: rejectionNoteFor(rejection.category, rejection.reason, rejection.notes),
        rejectionCode: rejection.code,
        rejectionSource: rejection.source,
        rejectionCategory: rejection.category,
      },
      paErrorCode: rejection.code,
      // The acknowledgement is not a life-cycle status: the rejection fields carry it.
      historyStatus: null,
    };
  }
  const code = event.status.statusCode;
  if (!isLifecycleCode(code)) return null;
  const reason = event.status.reasons[0] ?? null;
  return { code, reasonCode: reason?.code ?? null, reason: reason?.text ?? null, notes: event.status.notes };
}

/**
 * One event of the platform applied to its document (the caller has made sure it is applied
 * once): an acknowledgement `Error` rejects the attempt with its classified reason, a life-cycle
 * status moves the axes. With the attempt's deposit job (`deposit`; the sandbox's platform has
 * none, nothing follows there), a rejection the service follows up sets the job watching the
 * directory (the workers woken when the look is due at once); an acknowledgement `Error` the
 * service does not follow up ends the job `rejected`.
 */
export async function applyPlatformWord(
  tx: Tx,
  ctx: CallContext,
  row: DocumentRow,
  event: LifecycleEvent,
  deposit: OutgoingFlow | null,
): Promise<{ row: DocumentRow; changed: boolean }> {
  if (row.documentStatus !== 'finalized' || row.transmissionStatus === 'pending') return { row, changed: false };
  const report = reportOf(event);
  if (!report) return { row, changed: false };
  // The attempt's flow watching the directory already (its rejection followed up).
  const watching =
    isRejectedAttempt(row) && !!row.einvoicing.depositWait && row.einvoicing.paTrackingId === deposit?.trackingId;
  const { row: updated, job } = deposit
    ? await rejectAttempt(tx, ctx, row, report)
    : { row: await applyReportedStatus(tx, ctx, row, report), job: null };
  if (deposit && job?.state === 'waiting_directory' && job.nextAttemptAt) {
    const flowId = event.kind === 'acknowledgement' ? event.flow.flowId : undefined;
    await reschedulePlatformFlow(tx, ctx.scope, deposit.trackingId, job.nextAttemptAt, ctx.now, flowId);
  } else if (deposit && event.kind === 'acknowledgement' && !watching) {
    const flowId = event.flow.flowId;
    await endPlatformFlow(
      tx,
      ctx.scope,
      deposit.trackingId,
      { state: 'failed', lastError: report.paErrorCode ?? 'rejected', flowId },
      ctx.now,
    );
  }
  // The platform's flow on the document, whoever records the deposit (its holder's record is dropped).
  if (
    deposit &&
    event.kind === 'acknowledgement' &&
    !updated.einvoicing.paFlowId &&
    updated.einvoicing.paTrackingId === deposit.trackingId
  ) {
    const withFlow = await updateDocument(tx, ctx.scope, updated.id, {
      einvoicing: { ...updated.einvoicing, paFlowId: event.flow.flowId },
    });
    return { row: withFlow, changed: true };
  }
  const changed =
    event.kind === 'acknowledgement'
      ? updated !== row
      : updated.status !== row.status || updated.transmissionDetail !== row.transmissionDetail;
  return { row: updated, changed };
}
