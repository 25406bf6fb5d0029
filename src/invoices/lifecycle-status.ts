import type { Axes, DocumentKind, TransmissionStatus } from './document-axes.js';
import { rejectionCategory, type RejectionCategory } from '../platform/rejection-classification.js';

/** Life-cycle statuses the platform or the buyer reports (LIFECYCLE.md; `fr:` codes of the reform). */
export const lifecycleCodes = [
  '200',
  '201',
  '202',
  '203',
  '204',
  '205',
  '206',
  '207',
  '208',
  '209',
  '210',
  '211',
  '213',
  '221',
  '501',
] as const;
export type LifecycleCode = (typeof lifecycleCodes)[number];

export interface IncomingStatus {
  code: LifecycleCode;
  reasonCode?: string | null;
  /** The platform's or buyer's words, kept verbatim. */
  reason?: string | null;
  /** The notes that came with the status (free texts of the rejection, refusal or suspension). */
  notes?: readonly string[] | null;
}

export interface Rejection {
  rejectionReason: string | null;
  /** The notes, one per line (contract: "notes separated by line breaks"); null when there were none. */
  rejectionNote: string | null;
  rejectionCode: string | null;
  rejectionSource: 'platform' | 'buyer' | 'service';
  rejectionCategory: RejectionCategory;
}

export interface Applied {
  axes: Axes;
  /** The event of the move, or null: only observed transitions emit one. */
  event: string | null;
  /** Rejection fields to record with the move (refusal, rejection, suspension), or null. */
  rejection: Rejection | null;
  /** False when the status changed nothing (a repeat, a downgrade, 211): a history mention at most. */
  changed: boolean;
}

// The transmission axis only moves forward; `approved` and `rejected` are final.
const rank: Record<TransmissionStatus, number> = {
  not_applicable: 0,
  pending: 0,
  sending: 1,
  deposited: 2,
  transmitted: 3,
  approved: 4,
  rejected: 5,
};
const final = (status: TransmissionStatus) => status === 'approved' || status === 'rejected';

function eventName(kind: DocumentKind, invoiceEvent: string, creditNoteEvent: string | null): string | null {
  return kind === 'invoice' ? `invoice.${invoiceEvent}` : creditNoteEvent && `credit_note.${creditNoteEvent}`;
}

/** The notes of a status as `rejectionNote`: each kept verbatim, blank ones dropped, joined by line breaks; null when none. */
export function rejectionNoteOf(notes: readonly string[] | null | undefined): string | null {
  const kept = (notes ?? []).filter((note) => note.trim() !== '');
  return kept.length === 0 ? null : kept.join('\n');
}

/**
 * The `rejectionNote` of a rejection of this category: its notes; for an uncodified reason (`other`,
 * `AUTRE`) that came without notes, the platform's words, its only explanation (contract: "`other`
 * (explanation in `rejectionNote`)"). An acknowledgement `Error` carries no notes, only those words.
 */
export function rejectionNoteFor(
  category: RejectionCategory,
  reason: string | null | undefined,
  notes: readonly string[] | null | undefined,
): string | null {
  const noted = rejectionNoteOf(notes);
  if (noted !== null || category !== 'other') return noted;
  return reason && reason.trim() !== '' ? reason : null;
}

function rejectionOf(status: IncomingStatus, source: Rejection['rejectionSource']): Rejection {
  const category = rejectionCategory({ reasonCode: status.reasonCode ?? null, statusCode: status.code });
  return {
    rejectionReason: status.reason ?? null,
    rejectionNote: rejectionNoteFor(category, status.reason, status.notes),
    rejectionCode: status.reasonCode ?? null,
    rejectionSource: source,
    rejectionCategory: category,
  };
}

const unchanged = (axes: Axes): Applied => ({ axes, event: null, rejection: null, changed: false });

/**
 * What a reported status does to a finalized document (LIFECYCLE.md, "Statuses received"):
 * pure, and idempotent (the same status twice changes nothing the second time). A status that
 * would bring the transmission axis back, or arrives after a final one, changes nothing.
 */
export function applyLifecycleStatus(axes: Axes, kind: DocumentKind, status: IncomingStatus): Applied {
  const current = axes.transmissionStatus;
  const forward = (to: TransmissionStatus) => rank[to] > rank[current];
  const move = (patch: Partial<Axes>, event: string | null, rejection: Rejection | null = null): Applied => {
    const next = { ...axes, ...patch };
    const changed =
      next.transmissionStatus !== axes.transmissionStatus || next.transmissionDetail !== axes.transmissionDetail;
    return changed ? { axes: next, event, rejection, changed } : unchanged(axes);
  };
  if (axes.documentStatus !== 'finalized' || final(current)) return unchanged(axes);
  switch (status.code) {
    case '200':
      return forward('deposited')
        ? move(
            { transmissionStatus: 'deposited', transmissionDetail: null },
            eventName(kind, 'deposited', 'credit_deposited'),
          )
        : unchanged(axes);
    case '201':
    case '202':
      return forward('transmitted')
        ? move(
            { transmissionStatus: 'transmitted', transmissionDetail: null },
            eventName(kind, 'transmitted', 'credit_transmitted'),
          )
        : unchanged(axes);
    case '203':
      if (axes.transmissionDetail === 'received' || axes.transmissionDetail === 'suspended') return unchanged(axes);
      // Skipped intermediate statuses are not reconstructed: only `available` is emitted.
      return move(
        { transmissionStatus: 'transmitted', transmissionDetail: 'available' },
        eventName(kind, 'available', null),
      );
    case '204':
      return move(
        { transmissionStatus: 'transmitted', transmissionDetail: 'received' },
        eventName(kind, 'received', null),
      );
    case '205':
    case '206':
      return move(
        { transmissionStatus: 'approved', transmissionDetail: null },
        eventName(kind, 'approved', 'credit_approved'),
      );
    case '207':
    case '208':
      return move(
        { transmissionDetail: 'suspended' },
        eventName(kind, 'suspended', null),
        rejectionOf(status, 'buyer'),
      );
    case '209':
      return axes.transmissionDetail === 'suspended' ? move({ transmissionDetail: 'received' }, null) : unchanged(axes);
    case '210':
      return move(
        { transmissionStatus: 'rejected', transmissionDetail: 'refused' },
        eventName(kind, 'refused', 'credit_refused'),
        rejectionOf(status, 'buyer'),
      );
    case '211':
      // Payment transmitted: a mention in the history only; never touches a payment or a refund.
      return unchanged(axes);
    case '213':
    case '221':
    case '501':
      return move(
        { transmissionStatus: 'rejected', transmissionDetail: null },
        eventName(kind, 'rejected', null),
        rejectionOf(status, 'platform'),
      );
  }
}
