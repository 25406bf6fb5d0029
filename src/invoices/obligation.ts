import type { Axes } from './document-axes.js';
import type { DepositWait, Einvoicing, RejectionFields, TaxSnapshot } from './document-record.js';
import { redepositLimitReached, rejectionCodeOf } from './rejection-follow-up.js';

/**
 * The contract's `obligation` object on an invoice or a credit note: where the document stands
 * with the obligation its tax decision fixed (the decision's three axes, frozen on the document as
 * `tax.obligations`). Pure: a function of the axes, the stored obligations and the rejection fields.
 *
 * Which obligation: the document's own transmission. When the decision made e-invoicing `due`
 * (domestic B2B), that is the deposit through the platform; otherwise, when the transaction is to be
 * e-reported (B2C, international B2B), that e-reporting. The payment-data axis is the payments'
 * (`fr212`), not the document's.
 *
 * | document                                   | state            | reasonCode                          | reasonSource     | owner      | action     |
 * |--------------------------------------------|------------------|-------------------------------------|------------------|------------|------------|
 * | not finalized (draft, cancelled)           | (no object: null)                                                                              |
 * | e-invoicing due, `pending`                 | `waiting`        | `not_sent`                          | `service`        | `client`   | `send`     |
 * | e-invoicing due, `sending`                 | `waiting`        | `awaiting_platform`                 | `service`        | `platform` | null       |
 * | `sending`, the platform unavailable        | `waiting`        | the platform's code (`503`...)      | `platform`       | `service`  | `retry`    |
 * | e-invoicing due, rejected by the platform  | `waiting`        | the rejection code (`REJ_SEMAN`...) | `platform`       | `client`   | `resubmit` |
 * | rejected: the buyer not in the directory   | `waiting`        | `buyer_not_in_directory`            | `service`        | `service`  | `retry`    |
 * | rejected, the service follows it up (an addressing error, a buyer the platform does not find) | `waiting` | the rejection code (`REJ_ADR`, `DEST_INC`...) | `platform` | `service` | `retry` |
 * | rejected so, the service's new attempts spent (rejection-follow-up.ts) | `waiting` | `redeposit_limit_reached` | `service` | `client` | `resubmit` |
 * | e-invoicing due, deposited or any later status, refused or suspended by the buyer included | `fulfilled` | null | null | null | null |
 * | e-reporting of the transaction due         | `waiting`        | `ereporting_not_enabled`            | `service`        | `client`   | null       |
 * | neither due (an exempt operation)          | `not_applicable` | the axis's reason                   | `service`        | null       | null       |
 *
 * A deposit is the e-invoicing obligation met: what the buyer does afterwards (refusal, dispute) is
 * a commercial matter, settled by a credit note with its own obligation. This service does not yet
 * e-report (it is coming): until then an e-reporting obligation stays `waiting` with the contract's
 * `ereporting_not_enabled`, and the company declares by other means. `nextAttemptAt` is set when
 * the service itself tries again (the `retry` rows: the deposit worker's `depositWait`, which
 * speaks for a rejected attempt only when it is named by that attempt's rejection code).
 */

export type ObligationState = 'waiting' | 'fulfilled' | 'not_applicable';

export interface Obligation {
  state: ObligationState;
  reasonCode: string | null;
  reasonSource: 'platform' | 'buyer' | 'service' | null;
  /** Who must act next: the API `client`, the `platform`, or the `service`. */
  owner: 'client' | 'platform' | 'service' | null;
  /** What that is: `send`, `resubmit`. */
  action: 'send' | 'resubmit' | 'retry' | null;
  nextAttemptAt: string | null;
}

export interface ObligationFacts {
  axes: Pick<Axes, 'documentStatus' | 'transmissionStatus' | 'transmissionDetail'>;
  obligations: TaxSnapshot['obligations'];
  einvoicing: Pick<RejectionFields, 'paErrorCode' | 'rejectionCode' | 'rejectionSource'> &
    Partial<Pick<Einvoicing, 'rejectionCategory' | 'previousSubmissions'>> & {
      depositWait?: DepositWait | null;
    };
}

const obligation = (
  state: ObligationState,
  reasonCode: string | null = null,
  reasonSource: Obligation['reasonSource'] = null,
  owner: Obligation['owner'] = null,
  action: Obligation['action'] = null,
  nextAttemptAt: string | null = null,
): Obligation => ({ state, reasonCode, reasonSource, owner, action, nextAttemptAt });

/** The service holds the attempt back and tries again on its own. */
const retriedByService = (wait: DepositWait): Obligation =>
  obligation('waiting', wait.reasonCode, wait.reasonSource, 'service', 'retry', wait.nextAttemptAt);

export function documentObligation({ axes, obligations, einvoicing }: ObligationFacts): Obligation | null {
  if (axes.documentStatus !== 'finalized') return null;
  // Finalization sets the transmission `pending` exactly when the decision made e-invoicing due;
  // it tells the axis for documents stored without their obligations too.
  const einvoicingDue = obligations?.einvoicing
    ? obligations.einvoicing.state === 'due'
    : axes.transmissionStatus !== 'not_applicable';
  if (einvoicingDue) {
    switch (axes.transmissionStatus) {
      case 'pending':
      case 'not_applicable':
        return obligation('waiting', 'not_sent', 'service', 'client', 'send');
      case 'sending':
        if (einvoicing.depositWait) return retriedByService(einvoicing.depositWait);
        return obligation('waiting', 'awaiting_platform', 'service', 'platform');
      case 'rejected':
        if (axes.transmissionDetail === null) {
          const code = rejectionCodeOf(einvoicing);
          if (einvoicing.depositWait && einvoicing.depositWait.reasonCode === code)
            return retriedByService(einvoicing.depositWait);
          const rejection = { ...einvoicing, rejectionCategory: einvoicing.rejectionCategory ?? null };
          if (redepositLimitReached(rejection))
            return obligation('waiting', 'redeposit_limit_reached', 'service', 'client', 'resubmit');
          return obligation('waiting', code, einvoicing.rejectionSource ?? 'platform', 'client', 'resubmit');
        }
        return obligation('fulfilled');
      case 'deposited':
      case 'transmitted':
      case 'approved':
        return obligation('fulfilled');
    }
  }
  if (!obligations) return null;
  if (obligations.ereportingTransaction?.state === 'due')
    return obligation('waiting', 'ereporting_not_enabled', 'service', 'client');
  return obligation('not_applicable', obligations.einvoicing?.reason ?? null, 'service');
}
