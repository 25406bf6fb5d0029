/** The `obligation` object of an invoice or credit note (src/invoices/obligation.ts): one row per line of its table. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentObligation, type Obligation, type ObligationFacts } from '../../src/invoices/obligation.js';
import { maxAutomaticRedeposits } from '../../src/invoices/rejection-follow-up.js';

const b2b = {
  einvoicing: { state: 'due', reason: 'domestic_b2b' },
  ereportingTransaction: { state: 'not_applicable', reason: 'einvoicing' },
  ereportingPayment: { state: 'due', reason: 'services_vat_on_collection' },
};
const b2c = {
  einvoicing: { state: 'not_applicable', reason: 'buyer_not_taxable_person' },
  ereportingTransaction: { state: 'due', reason: 'b2c' },
  ereportingPayment: { state: 'not_applicable', reason: 'no_services_taxed_in_france' },
};
const exempt = {
  einvoicing: { state: 'not_applicable', reason: 'exempt_operation' },
  ereportingTransaction: { state: 'not_applicable', reason: 'exempt_operation' },
  ereportingPayment: { state: 'not_applicable', reason: 'exempt_operation' },
};
const noRejection = { paErrorCode: null, rejectionCode: null, rejectionSource: null };

const facts = (
  transmissionStatus: ObligationFacts['axes']['transmissionStatus'],
  transmissionDetail: ObligationFacts['axes']['transmissionDetail'] = null,
  obligations: ObligationFacts['obligations'] = b2b,
  einvoicing: ObligationFacts['einvoicing'] = noRejection,
  documentStatus: ObligationFacts['axes']['documentStatus'] = 'finalized',
): ObligationFacts => ({ axes: { documentStatus, transmissionStatus, transmissionDetail }, obligations, einvoicing });

const o = (
  state: Obligation['state'],
  reasonCode: string | null = null,
  reasonSource: Obligation['reasonSource'] = null,
  owner: Obligation['owner'] = null,
  action: Obligation['action'] = null,
): Obligation => ({ state, reasonCode, reasonSource, owner, action, nextAttemptAt: null });

const fulfilled = o('fulfilled');
const platformDown = {
  reasonCode: 'RESOURCE_ERROR',
  reasonSource: 'platform',
  nextAttemptAt: '2026-10-15T10:01:41.000Z',
} as const;
const directoryWatch = {
  reasonCode: 'buyer_not_in_directory',
  reasonSource: 'service',
  nextAttemptAt: '2026-10-15T11:00:00.000Z',
} as const;
const rows: [string, ObligationFacts, Obligation | null][] = [
  ['a draft has none', facts('not_applicable', null, null, noRejection, 'draft'), null],
  ['a cancelled draft has none', facts('not_applicable', null, null, noRejection, 'cancelled'), null],
  [
    'e-invoicing due, not sent: the client sends it',
    facts('pending'),
    o('waiting', 'not_sent', 'service', 'client', 'send'),
  ],
  ['sending: the platform answers next', facts('sending'), o('waiting', 'awaiting_platform', 'service', 'platform')],
  [
    'sending, the platform unavailable: the service retries, at the time it says',
    facts('sending', null, b2b, { ...noRejection, depositWait: platformDown }),
    { ...o('waiting', 'RESOURCE_ERROR', 'platform', 'service', 'retry'), nextAttemptAt: platformDown.nextAttemptAt },
  ],
  [
    'rejected locally, the buyer not in the directory: the service watches it and retries',
    facts('rejected', null, b2b, {
      paErrorCode: 'buyer_not_in_directory',
      rejectionCode: 'buyer_not_in_directory',
      rejectionSource: 'service',
      depositWait: directoryWatch,
    }),
    {
      ...o('waiting', 'buyer_not_in_directory', 'service', 'service', 'retry'),
      nextAttemptAt: directoryWatch.nextAttemptAt,
    },
  ],
  [
    'a wait left from another rejection does not speak for this one',
    facts('rejected', null, b2b, {
      paErrorCode: 'REJ_SEMAN',
      rejectionCode: 'REJ_SEMAN',
      rejectionSource: 'platform',
      depositWait: directoryWatch,
    }),
    o('waiting', 'REJ_SEMAN', 'platform', 'client', 'resubmit'),
  ],
  [
    'rejected by the platform for its address: the service reads the directory again and redeposits',
    facts('rejected', null, b2b, {
      paErrorCode: 'REJ_ADR',
      rejectionCode: 'REJ_ADR',
      rejectionSource: 'platform',
      rejectionCategory: 'addressing_error',
      depositWait: { reasonCode: 'REJ_ADR', reasonSource: 'platform', nextAttemptAt: platformDown.nextAttemptAt },
    }),
    { ...o('waiting', 'REJ_ADR', 'platform', 'service', 'retry'), nextAttemptAt: platformDown.nextAttemptAt },
  ],
  [
    "rejected so again, the service's new attempts spent: the client, told why",
    facts('rejected', null, b2b, {
      paErrorCode: 'REJ_ADR',
      rejectionCode: 'REJ_ADR',
      rejectionSource: 'platform',
      rejectionCategory: 'addressing_error',
      previousSubmissions: Array.from({ length: maxAutomaticRedeposits }, () => ({
        paErrorCode: 'DEST_INC',
        rejectionReason: null,
        rejectionNote: null,
        rejectionCode: 'DEST_INC',
        rejectionSource: 'platform' as const,
        rejectionCategory: 'buyer_not_in_directory' as const,
        transmissionStatus: 'rejected' as const,
        transmissionDetail: null,
        archivedAt: platformDown.nextAttemptAt,
      })),
    }),
    o('waiting', 'redeposit_limit_reached', 'service', 'client', 'resubmit'),
  ],
  ['deposited: met', facts('deposited'), fulfilled],
  ['transmitted: met', facts('transmitted'), fulfilled],
  ['made available: met', facts('transmitted', 'available'), fulfilled],
  ['suspended by the buyer: still deposited, met', facts('transmitted', 'suspended'), fulfilled],
  ['approved: met', facts('approved'), fulfilled],
  ['refused by the buyer: the deposit was made, met', facts('rejected', 'refused'), fulfilled],
  [
    'rejected by the platform: the client corrects and resubmits; the code is the rejection code',
    facts('rejected', null, b2b, { paErrorCode: 'REJ_SEMAN', rejectionCode: 'REJ_SEMAN', rejectionSource: 'platform' }),
    o('waiting', 'REJ_SEMAN', 'platform', 'client', 'resubmit'),
  ],
  [
    'rejected with no reason code: the status code',
    facts('rejected', null, b2b, { paErrorCode: 'fr:213', rejectionCode: null, rejectionSource: 'platform' }),
    o('waiting', 'fr:213', 'platform', 'client', 'resubmit'),
  ],
  [
    'e-reporting of the transaction due (B2C): waiting, e-reporting is not served yet',
    facts('not_applicable', null, b2c),
    o('waiting', 'ereporting_not_enabled', 'service', 'client'),
  ],
  [
    'neither due: not applicable, with the reason of the decision',
    facts('not_applicable', null, exempt),
    o('not_applicable', 'exempt_operation', 'service'),
  ],
  [
    'stored without obligations but sent through the platform: the deposit obligation',
    facts('sending', null, null),
    o('waiting', 'awaiting_platform', 'service', 'platform'),
  ],
  ['stored without obligations and outside the platform: unknown, none', facts('not_applicable', null, null), null],
];

for (const [name, input, expected] of rows) {
  test(`obligation: ${name}`, () => assert.deepEqual(documentObligation(input), expected));
}
