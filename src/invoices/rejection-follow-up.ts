import type { RejectionCategory } from '../platform/rejection-classification.js';
import type { DepositWait, RejectionFields, Submission } from './document-record.js';

/**
 * What the service does when the deposit of an invoice or a credit note is not taken, by the
 * category of the answer (contract, "Next step by rejection category"; the platform's side of it
 * is platform/next-step.ts). The one table the deposit worker and the statuses read back act on
 * (deposit-flow.ts, einvoicing.ts). Pure.
 *
 * | category                 | the service                                                                                  |
 * |--------------------------|----------------------------------------------------------------------------------------------|
 * | `platform_unavailable`   | `retry`: the deposit comes back at the platform's time, else after a backoff; not rejected    |
 * | `duplicate`              | `search_proof_of_reception`: the flow of the tracking id is the deposit; none: deposited again (three times at most), then rejected |
 * | `addressing_error`       | `refresh_address`: rejected; the directory read again at once; an active address: a new attempt; none: the directory watched every hour |
 * | `buyer_not_in_directory` | `watch_directory`: rejected; the directory read again on the next hour, then every hour; an active address: a new attempt |
 * | any other                | `none`: the rejection stands; the client corrects and sends again (a buyer's word: the client talks to its customer) |
 *
 * A new attempt the service starts is a resubmission: the rejection archived in
 * `previousSubmissions`, the fields reset. The platform's word is not taken again at once: a buyer
 * it says it does not know, though the directory lists it, waits for the next hourly look (the
 * directory's answer may be what is stale). Bounded: once `maxAutomaticRedeposits` attempts of a
 * document were rejected by the platform for their address or the directory, the next such
 * rejection stands, and the obligation says so (`redeposit_limit_reached`, owner `client`). The
 * service's own pre-check (source `service`) deposits nothing: its watch is not bounded.
 */

export type ServiceMove = 'retry' | 'search_proof_of_reception' | 'refresh_address' | 'watch_directory' | 'none';

export const serviceMoves: Readonly<Record<RejectionCategory, ServiceMove>> = {
  platform_unavailable: 'retry',
  duplicate: 'search_proof_of_reception',
  addressing_error: 'refresh_address',
  buyer_not_in_directory: 'watch_directory',
  other: 'none',
  format_invalid: 'none',
  semantic_error: 'none',
  platform_auth: 'none',
  refused_by_buyer: 'none',
  suspended: 'none',
  unknown: 'none',
};

/** New attempts the service starts by itself after the platform's address or directory rejections of one document. */
export const maxAutomaticRedeposits = 3;

/** How often a watched buyer is looked up again in the directory (on the scope's clock). */
export const directoryRecheckMs = 3_600_000;

/** The next hour on the clock after `at`: the directory's next look. */
export const nextDirectoryRecheck = (at: Date) =>
  new Date(Math.floor(at.getTime() / directoryRecheckMs + 1) * directoryRecheckMs);

type RejectionFacts = Pick<RejectionFields, 'paErrorCode' | 'rejectionCode' | 'rejectionSource' | 'rejectionCategory'>;

/** The code a rejected attempt is known by: its rejection code, else the failure's code. */
export const rejectionCodeOf = (rejection: Pick<RejectionFields, 'paErrorCode' | 'rejectionCode'>): string =>
  rejection.rejectionCode ?? rejection.paErrorCode ?? 'rejected';

const depositsAgain = (category: RejectionCategory | null): boolean => {
  const move = category ? serviceMoves[category] : 'none';
  return move === 'refresh_address' || move === 'watch_directory';
};

const isAddressingRejection = (rejection: RejectionFacts) =>
  rejection.rejectionSource === 'platform' && depositsAgain(rejection.rejectionCategory);

/**
 * The service stopped following this rejection up: the platform rejected it for its address or
 * the directory, and as many earlier attempts of the document already were (whoever sent them).
 */
export function redepositLimitReached(einvoicing: RejectionFacts & { previousSubmissions?: readonly Submission[] }) {
  if (!isAddressingRejection(einvoicing)) return false;
  const earlier = (einvoicing.previousSubmissions ?? []).filter(isAddressingRejection).length;
  return earlier >= maxAutomaticRedeposits;
}

/**
 * What the service does after this rejection of the current attempt (the document's archive of
 * earlier attempts given): it looks at the directory at `at`, its wait told by the document's
 * obligation (`depositWait`, named by the rejection's code); or nothing, the rejection stands.
 */
export type FollowUp = { kind: 'watch'; at: Date; wait: DepositWait } | { kind: 'stands' };

export function followUpOf(
  einvoicing: RejectionFacts & { previousSubmissions?: readonly Submission[] },
  now: Date,
): FollowUp {
  if (!depositsAgain(einvoicing.rejectionCategory) || redepositLimitReached(einvoicing)) return { kind: 'stands' };
  const at =
    einvoicing.rejectionCategory && serviceMoves[einvoicing.rejectionCategory] === 'refresh_address'
      ? now
      : nextDirectoryRecheck(now);
  return {
    kind: 'watch',
    at,
    wait: {
      reasonCode: rejectionCodeOf(einvoicing),
      reasonSource: einvoicing.rejectionSource === 'service' ? 'service' : 'platform',
      nextAttemptAt: at.toISOString(),
    },
  };
}
