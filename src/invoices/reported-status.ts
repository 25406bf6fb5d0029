import { isDeepStrictEqual } from 'node:util';
import type { Tx } from '../db/database.js';
import type { CallContext } from '../db/transaction.js';
import { recordEvent } from '../webhooks/service.js';
import type { DocumentKind } from './document-axes.js';
import {
  axesColumns,
  axesOf,
  documentEventData,
  obligationEventData,
  obligationOf,
  type DepositWait,
  type DocumentRow,
  type Einvoicing,
  type HistoryEntry,
} from './document-record.js';
import { applyLifecycleStatus, type LifecycleCode, type Rejection } from './lifecycle-status.js';
import { rejectionAfter } from './submission.js';
import { updateDocument } from './store.js';

/**
 * One status applied to a finalized, sent document, whoever reports it: the sandbox's simulate
 * route, the platform's life-cycle (polled or pushed), the platform's refusal of a deposit, or the
 * service's own local rejection (buyer not in the directory). It goes through the pure
 * `applyLifecycleStatus` (idempotent, never downgrades, only observed moves emit their event),
 * fills the rejection fields (LIFECYCLE.md), keeps the history, and records the event, or the
 * `<kind>.obligation_updated` of a move without one, in the caller's transaction.
 */
export interface ReportedStatus {
  code: LifecycleCode;
  reasonCode: string | null;
  /** The platform's or buyer's words, verbatim. */
  reason: string | null;
  notes: string[];
  /**
   * The rejection fields when the report classifies itself (an acknowledgement `Error`, an HTTP
   * refusal, the directory pre-check): they replace those the status code alone would give.
   */
  rejection?: Rejection;
  /** `einvoicing.paErrorCode` to record with that rejection (default: its code). */
  paErrorCode?: string | null;
  /** The history's label (default `fr:<code>`); null: not a status received, no history entry. */
  historyStatus?: string | null;
  /**
   * The document's deposit wait once this report rejects it: what the service does next
   * (einvoicing.ts), set with the rejection so that its event already tells the obligation;
   * absent, the wait is left as it is.
   */
  waitAfterRejection?: (rejected: Einvoicing) => DepositWait | null;
}

export async function applyReportedStatus(
  tx: Tx,
  ctx: CallContext,
  row: DocumentRow,
  status: ReportedStatus,
): Promise<DocumentRow> {
  const kind = row.kind as DocumentKind;
  // A document's events keep the order of its moves, whatever the clocks of the nodes reporting.
  const at = new Date(Math.max(ctx.now.getTime(), row.updated.getTime() + 2));
  const applied = applyLifecycleStatus(axesOf(row), kind, {
    code: status.code,
    reasonCode: status.reasonCode,
    reason: status.reason,
    notes: status.notes,
  });
  const rejection = applied.rejection && status.rejection ? status.rejection : applied.rejection;
  const historyStatus = status.historyStatus === undefined ? `fr:${status.code}` : status.historyStatus;
  const entry: HistoryEntry | null =
    historyStatus === null
      ? null
      : {
          status: historyStatus,
          reasonCode: status.reasonCode,
          reason: status.reason,
          notes: status.notes,
          receivedAt: ctx.now.toISOString(),
          applied: applied.changed,
          event: applied.event,
        };
  const history = entry ? [...row.history, entry] : row.history;
  if (!applied.changed) return entry ? updateDocument(tx, ctx.scope, row.id, { history }) : row;
  let einvoicing = rejectionAfter(row.einvoicing, applied.axes, rejection, status.code);
  if (rejection && status.paErrorCode !== undefined) einvoicing = { ...einvoicing, paErrorCode: status.paErrorCode };
  if (rejection && status.waitAfterRejection)
    einvoicing = { ...einvoicing, depositWait: status.waitAfterRejection(einvoicing) };
  const updated = await updateDocument(tx, ctx.scope, row.id, {
    ...axesColumns(applied.axes, kind),
    einvoicing,
    history,
    updated: at,
  });
  if (applied.event) await recordEvent(tx, ctx, applied.event, documentEventData(updated, row.status), at);
  else {
    // A move without an event of its own (a credit note rejected by the platform, or made
    // available) still tells a changed obligation: `<kind>.obligation_updated` (LIFECYCLE.md).
    const obligation = obligationOf(updated);
    if (obligation && !isDeepStrictEqual(obligation, obligationOf(row))) {
      await recordEvent(
        tx,
        ctx,
        `${kind}.obligation_updated`,
        obligationEventData(updated, obligation, status.reason),
        at,
      );
    }
  }
  return updated;
}
