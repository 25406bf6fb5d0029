import { ApiError, refuse } from '../kernel/errors.js';
import type { Axes } from './document-axes.js';
import type { Rejection } from './lifecycle-status.js';
import { noRejection, type DocumentRow, type Einvoicing } from './document-record.js';

/**
 * Sending a document to the platform, and the rejection fields of its current attempt. Pure.
 *
 *   finalized, transmission `pending`          send: `sending` (first attempt)
 *   `rejected` by the platform (detail null)   send again: a resubmission; the attempt's rejection
 *                                               fields are archived in `previousSubmissions` and reset
 *   `rejected` + `refused` by the buyer         refused: no new deposit (issue a credit note, then a new invoice)
 *   anything already on its way                 refused: one platform call per attempt
 *   `not_applicable` (the decision routes it outside e-invoicing)   `not_einvoicing_channel`
 */

export type SendMove = 'first' | 'resubmission';

export function sendMove(
  row: Pick<DocumentRow, 'id' | 'kind' | 'documentStatus' | 'transmissionStatus' | 'transmissionDetail'>,
): SendMove {
  const name = row.kind === 'invoice' ? 'Invoice' : 'Credit note';
  if (row.documentStatus === 'draft')
    throw refuse('invalid_status_transition', `${name} ${row.id} is a draft: finalize it before sending it.`, {
      param: 'id',
    });
  if (row.documentStatus === 'cancelled')
    throw refuse('invalid_status_transition', `${name} ${row.id} is cancelled.`, { param: 'id' });
  if (row.transmissionStatus === 'not_applicable') {
    throw new ApiError('not_einvoicing_channel', {
      param: 'id',
      hint: 'Send the document to the buyer by other means (the PDF); any e-reporting stays due.',
    });
  }
  if (row.transmissionStatus === 'pending') return 'first';
  if (row.transmissionStatus === 'rejected' && row.transmissionDetail === null) return 'resubmission';
  if (row.transmissionStatus === 'rejected') {
    throw refuse(
      'invalid_status_transition',
      `${name} ${row.id} was refused by the buyer: it is not deposited again. Issue a credit note, then a new invoice.`,
      { param: 'id' },
    );
  }
  throw refuse(
    'invalid_status_transition',
    `${name} ${row.id} was already sent (transmission ${row.transmissionStatus}): one platform call per attempt.`,
    { param: 'id' },
  );
}

/** A resubmission: the current attempt's rejection fields go to `previousSubmissions` and reset to null. */
export function archiveAttempt(einvoicing: Einvoicing, axes: Axes, at: Date): Einvoicing {
  // A new attempt is not held back by the last one's wait.
  const { previousSubmissions, depositWait: _wait, ...current } = einvoicing;
  return {
    ...noRejection,
    previousSubmissions: [
      ...previousSubmissions,
      {
        ...current,
        transmissionStatus: axes.transmissionStatus,
        transmissionDetail: axes.transmissionDetail,
        archivedAt: at.toISOString(),
      },
    ],
  };
}

/**
 * The rejection fields after a reported status: filled by a refusal, a rejection or a suspension;
 * null again once the document is neither rejected nor suspended (209, then 205...).
 */
export function rejectionAfter(
  einvoicing: Einvoicing,
  axes: Axes,
  rejection: Rejection | null,
  statusCode: string,
): Einvoicing {
  if (rejection) {
    return {
      ...einvoicing,
      paErrorCode:
        rejection.rejectionSource === 'platform'
          ? (rejection.rejectionCode ?? `fr:${statusCode}`)
          : einvoicing.paErrorCode,
      rejectionReason: rejection.rejectionReason,
      rejectionNote: rejection.rejectionNote,
      rejectionCode: rejection.rejectionCode,
      rejectionSource: rejection.rejectionSource,
      rejectionCategory: rejection.rejectionCategory,
    };
  }
  const stillRejected = axes.transmissionStatus === 'rejected' || axes.transmissionDetail === 'suspended';
  return stillRejected ? einvoicing : { ...einvoicing, ...noRejection, paErrorCode: einvoicing.paErrorCode };
}
