/** What the service does after a rejection of each category (src/invoices/rejection-follow-up.ts): one row per rule. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rejectionCategories } from '../../src/platform/rejection-classification.js';
import { nextStep } from '../../src/platform/next-step.js';
import type { Submission } from '../../src/invoices/document-record.js';
import {
  followUpOf,
  maxAutomaticRedeposits,
  redepositLimitReached,
  serviceMoves,
  type FollowUp,
} from '../../src/invoices/rejection-follow-up.js';

test('the table agrees with the contract: the service deposits again by itself exactly where the next step says so', () => {
  for (const category of rejectionCategories) {
    const step = nextStep(category);
    const move = serviceMoves[category];
    assert.equal(
      ['retry', 'refresh_address', 'watch_directory'].includes(move),
      step.automaticDeposit,
      `${category}: ${move}`,
    );
    if (step.owner === 'client') assert.equal(move, 'none', category);
  }
  assert.equal(serviceMoves.addressing_error, 'refresh_address');
  assert.equal(serviceMoves.buyer_not_in_directory, 'watch_directory');
});

const now = new Date('2026-10-15T10:20:30.000Z');
const nextHour = new Date('2026-10-15T11:00:00.000Z');

const archived = (
  rejectionCategory: Submission['rejectionCategory'],
  rejectionSource: Submission['rejectionSource'] = 'platform',
): Submission => ({
  paErrorCode: null,
  rejectionReason: null,
  rejectionNote: null,
  rejectionCode: null,
  rejectionSource,
  rejectionCategory,
  transmissionStatus: 'rejected',
  transmissionDetail: null,
  archivedAt: now.toISOString(),
});

const rejection = (
  rejectionCategory: Submission['rejectionCategory'],
  rejectionCode: string | null,
  rejectionSource: Submission['rejectionSource'] = 'platform',
  previousSubmissions: Submission[] = [],
  paErrorCode: string | null = rejectionCode,
) => ({ rejectionCategory, rejectionCode, rejectionSource, paErrorCode, previousSubmissions });

const watch = (at: Date, reasonCode: string, reasonSource: 'platform' | 'service'): FollowUp => ({
  kind: 'watch',
  at,
  wait: { reasonCode, reasonSource, nextAttemptAt: at.toISOString() },
});
const stands: FollowUp = { kind: 'stands' };
const spent = Array.from({ length: maxAutomaticRedeposits }, () => archived('addressing_error'));

const rows: [string, ReturnType<typeof rejection>, FollowUp][] = [
  [
    'an addressing error: the directory read again at once',
    rejection('addressing_error', 'REJ_ADR'),
    watch(now, 'REJ_ADR', 'platform'),
  ],
  [
    'a routing error without a reason code: named by the failure code',
    rejection('addressing_error', null, 'platform', [], 'fr:221'),
    watch(now, 'fr:221', 'platform'),
  ],
  [
    'a buyer the platform does not find: looked at again on the next hour, not at once',
    rejection('buyer_not_in_directory', 'DEST_INC'),
    watch(nextHour, 'DEST_INC', 'platform'),
  ],
  [
    "the pre-check's own rejection: the hourly watch",
    rejection('buyer_not_in_directory', 'buyer_not_in_directory', 'service'),
    watch(nextHour, 'buyer_not_in_directory', 'service'),
  ],
  [
    "the pre-check's watch is not bounded: it deposited nothing",
    rejection('buyer_not_in_directory', 'buyer_not_in_directory', 'service', spent),
    watch(nextHour, 'buyer_not_in_directory', 'service'),
  ],
  [
    `${maxAutomaticRedeposits} earlier attempts rejected for their address or the directory: the rejection stands`,
    rejection('addressing_error', 'REJ_ADR', 'platform', [...spent.slice(1), archived('buyer_not_in_directory')]),
    stands,
  ],
  [
    'the same for a buyer the platform does not find',
    rejection('buyer_not_in_directory', 'DEST_INC', 'platform', spent),
    stands,
  ],
  [
    'earlier attempts of other kinds do not count',
    rejection('addressing_error', 'REJ_ADR', 'platform', [
      ...spent.slice(1),
      archived('buyer_not_in_directory', 'service'),
      archived('semantic_error'),
    ]),
    watch(now, 'REJ_ADR', 'platform'),
  ],
  ['a semantic error stands: the document is to be corrected', rejection('semantic_error', 'REJ_SEMAN'), stands],
  ['an uncodified reason stands', rejection('other', 'AUTRE'), stands],
  ["a buyer's refusal stands", rejection('refused_by_buyer', 'TX_TVA_ERR', 'buyer'), stands],
  ['no category (an older document): stands', rejection(null, null), stands],
];

for (const [name, input, expected] of rows) {
  test(`after a rejection: ${name}`, () => {
    assert.deepEqual(followUpOf(input, now), expected);
    assert.equal(
      redepositLimitReached(input),
      expected.kind === 'stands' &&
        ['addressing_error', 'buyer_not_in_directory'].includes(input.rejectionCategory ?? ''),
    );
  });
}
