/**
 * The platform's pure rules, one row per row of the contract's tables: the rejection
 * classification and its priority, the next step by category, the retry strategy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  rejectionCategories,
  rejectionCategory,
  rejectionSource,
  type RejectionInput,
} from '../../src/platform/rejection-classification.js';
import { nextStep } from '../../src/platform/next-step.js';
import { retryDecision, retryAfterMs } from '../../src/platform/retry-policy.js';

test('classification: every row of the contract table', () => {
  const rows: [RejectionInput, string][] = [
    [{ reasonCode: 'REJ_ADR', statusCode: '213' }, 'addressing_error'],
    [{ reasonCode: 'REJ_SEMAN', statusCode: '213' }, 'semantic_error'],
    [{ reasonCode: 'REJ_SYNT' }, 'format_invalid'],
    [{ reasonCode: 'REJ_XSD' }, 'format_invalid'],
    [{ reasonCode: 'REJ_DOUBLON' }, 'duplicate'],
    [{ reasonCode: 'AUTRE', statusCode: '213' }, 'other'],
    [{ providerReason: 'SYNTAX_ERROR' }, 'format_invalid'],
    [{ providerReason: 'SEMANTIC_ERROR' }, 'semantic_error'],
    [{ providerReason: 'DUPLICATED_INVOICE' }, 'duplicate'],
    [{ providerReason: 'ROUTING_FAILURE' }, 'buyer_not_in_directory'],
    [{ providerReason: 'ROUTING_FAILURE', sellerUnknown: true }, 'unknown'],
    [{ httpStatus: 401 }, 'platform_auth'],
    [{ httpStatus: 403 }, 'platform_auth'],
    [{ httpStatus: 409 }, 'duplicate'],
    [{ httpStatus: 422 }, 'format_invalid'],
    [{ httpStatus: 429 }, 'platform_unavailable'],
    [{ httpStatus: 500 }, 'platform_unavailable'],
    [{ httpStatus: 502 }, 'platform_unavailable'],
    [{ httpStatus: 503 }, 'platform_unavailable'],
    [{ httpStatus: 400 }, 'unknown'],
    [{ httpStatus: null, unreachable: true }, 'platform_unavailable'],
    // HTTP 400: unknown, except a directory hint in the pre-check (the one textual fallback).
    [
      { httpStatus: 400, directoryPrecheck: true, message: 'Recipient not found in the directory' },
      'buyer_not_in_directory',
    ],
    [{ httpStatus: 400, message: 'Recipient not found in the directory' }, 'unknown'],
    [{ httpStatus: 400, directoryPrecheck: true, message: 'Invalid request format' }, 'unknown'],
    // status fr:213 alone is never semantic
    [{ statusCode: '213' }, 'unknown'],
    [{ statusCode: '213', reasonCode: null, providerReason: null }, 'unknown'],
  ];
  for (const [input, expected] of rows) assert.equal(rejectionCategory(input), expected, JSON.stringify(input));
});

test('classification: the priority, local code, then tax-administration code, then provider reason, then HTTP', () => {
  const rows: [RejectionInput, string][] = [
    [{ localCode: 'buyer_not_in_directory', reasonCode: 'REJ_SEMAN', httpStatus: 500 }, 'buyer_not_in_directory'],
    [{ reasonCode: 'REJ_SEMAN', providerReason: 'DUPLICATED_INVOICE', httpStatus: 409 }, 'semantic_error'],
    [{ reasonCode: 'REJ_ADR', httpStatus: 500 }, 'addressing_error'],
    [{ providerReason: 'SYNTAX_ERROR', httpStatus: 409 }, 'format_invalid'],
    [{ providerReason: 'ROUTING_FAILURE', httpStatus: 422 }, 'buyer_not_in_directory'],
    [{ providerReason: 'SOMETHING_ELSE', httpStatus: 409 }, 'duplicate'],
    [{ reasonCode: 'NOT_A_CODE', httpStatus: 422 }, 'format_invalid'],
    // The buyer's statuses are classed by the status, whatever their reason.
    [{ statusCode: '210', reasonCode: 'DOUBLON' }, 'refused_by_buyer'],
    [{ statusCode: '207', reasonCode: 'MONTANTTOTAL_ERR' }, 'suspended'],
    [{ statusCode: '208', reasonCode: 'JUSTIF_ABS' }, 'suspended'],
  ];
  for (const [input, expected] of rows) assert.equal(rejectionCategory(input), expected, JSON.stringify(input));
});

test('classification: the official codes beyond the contract table (LIFECYCLE.md) and the AFNOR acknowledgement reasons', () => {
  const rows: [RejectionInput, string][] = [
    [{ reasonCode: 'REJ_UNI' }, 'duplicate'],
    [{ reasonCode: 'DOUBLON' }, 'duplicate'],
    [{ reasonCode: 'REJ_COH' }, 'semantic_error'],
    [{ reasonCode: 'MONTANTTOTAL_ERR' }, 'semantic_error'],
    [{ reasonCode: 'CALCUL_ERR' }, 'semantic_error'],
    [{ reasonCode: 'ADR_ERR' }, 'addressing_error'],
    [{ reasonCode: 'ROUTAGE_ERR', statusCode: '221' }, 'addressing_error'],
    [{ reasonCode: 'DEST_INC' }, 'buyer_not_in_directory'],
    [{ reasonCode: 'NON_TRANSMISE' }, 'buyer_not_in_directory'],
    [{ reasonCode: 'IRR_SYNTAX', statusCode: '501' }, 'format_invalid'],
    [{ reasonCode: 'IRR_ANTIVIRUS', statusCode: '501' }, 'format_invalid'],
    [{ reasonCode: 'REJ_REF_PJ' }, 'format_invalid'],
    [{ reasonCode: 'REJ_ASS_PJ' }, 'format_invalid'],
    [{ reasonCode: 'REJ_CONT_B2G' }, 'other'],
    [{ statusCode: '501' }, 'format_invalid'],
    [{ statusCode: '221' }, 'addressing_error'],
    [{ reasonCode: 'SOMETHING_NEW', statusCode: '213' }, 'unknown'],
    [{ providerReason: 'InvalidSchema' }, 'format_invalid'],
    [{ providerReason: 'EmptyFlow' }, 'format_invalid'],
    [{ providerReason: 'VirusFound' }, 'format_invalid'],
    [{ providerReason: 'ChecksumMismatch' }, 'format_invalid'],
    [{ providerReason: 'AlreadyExistingFlow' }, 'duplicate'],
    [{ providerReason: 'OtherTechnicalError' }, 'other'],
  ];
  for (const [input, expected] of rows) assert.equal(rejectionCategory(input), expected, JSON.stringify(input));
});

test('source recording: platform for 213 and HTTP answers, buyer for 210/207/208, service for its own check', () => {
  assert.equal(rejectionSource({ statusCode: '213', reasonCode: 'REJ_SEMAN' }), 'platform');
  assert.equal(rejectionSource({ httpStatus: 409 }), 'platform');
  for (const code of ['210', '207', '208']) assert.equal(rejectionSource({ statusCode: code }), 'buyer');
  assert.equal(rejectionSource({ localCode: 'buyer_not_in_directory' }), 'service');
});

test('next step: every row of the contract table', () => {
  const rows: [string, string, string, boolean][] = [
    ['buyer_not_in_directory', 'service', 'watch_directory', true],
    ['addressing_error', 'service', 'refresh_address', true],
    ['other', 'service', 'review_document', false],
    ['format_invalid', 'service', 'review_document', false],
    ['semantic_error', 'service', 'review_document', false],
    ['duplicate', 'service', 'search_proof_of_reception', false],
    ['platform_auth', 'service', 'check_credentials', false],
    ['platform_unavailable', 'service', 'retry', true],
    ['refused_by_buyer', 'client', 'none', false],
    ['suspended', 'client', 'wait_for_buyer', false],
    ['unknown', 'service', 'review_document', false],
  ];
  assert.deepEqual(rows.map((row) => row[0]).sort(), [...rejectionCategories].sort(), 'one row per category');
  for (const [category, owner, action, automaticDeposit] of rows) {
    const step = nextStep(category as (typeof rejectionCategories)[number]);
    assert.deepEqual(
      { owner: step.owner, action: step.action, automaticDeposit: step.automaticDeposit },
      { owner, action, automaticDeposit },
      category,
    );
  }
  assert.match(nextStep('refused_by_buyer').meaning, /no automatic new deposit/);
  assert.match(nextStep('duplicate').meaning, /proof of reception before any new sending/);
});

test('retry: every row of the contract strategy', () => {
  const t0 = Date.UTC(2026, 8, 1);
  const state = (attempts: number, elapsedMs = 0) => ({ attempts, firstAttemptAt: t0 - elapsedMs });
  // 4xx other than 409 and 429: permanent.
  for (const status of [400, 401, 403, 404, 413, 422])
    assert.deepEqual(
      retryDecision({ httpStatus: status }, state(1), t0),
      { retry: false, rule: 'permanent' },
      String(status),
    );
  // 409: do not retry.
  assert.deepEqual(retryDecision({ httpStatus: 409 }, state(1), t0), { retry: false, rule: 'conflict' });
  // 429: exactly Retry-After, seconds or an HTTP date.
  assert.deepEqual(retryDecision({ httpStatus: 429, retryAfter: '7' }, state(1), t0), {
    retry: true,
    delayMs: 7000,
    rule: 'retry_after',
  });
  assert.deepEqual(retryDecision({ httpStatus: 429, retryAfter: new Date(t0 + 42_000).toUTCString() }, state(2), t0), {
    retry: true,
    delayMs: 42_000,
    rule: 'retry_after',
  });
  assert.equal(retryAfterMs('soon', t0), null);
  // 500, 502: 1, 2, 4, 8 s, at most 5 attempts; a time-out or a lost connection likewise.
  for (const status of [500, 502, null]) {
    const delays = [1, 2, 3, 4].map((attempts) => retryDecision({ httpStatus: status }, state(attempts), t0));
    assert.deepEqual(
      delays.map((decision) => (decision.retry ? decision.delayMs : null)),
      [1000, 2000, 4000, 8000],
      String(status),
    );
    assert.deepEqual(retryDecision({ httpStatus: status }, state(5), t0), { retry: false, rule: 'server_error' });
  }
  // 503: 30, 60, 120 s, all within 5 minutes of the first attempt.
  const unavailable = [1, 2, 3].map((attempts) => retryDecision({ httpStatus: 503 }, state(attempts), t0));
  assert.deepEqual(
    unavailable.map((decision) => (decision.retry ? decision.delayMs : null)),
    [30_000, 60_000, 120_000],
  );
  assert.deepEqual(retryDecision({ httpStatus: 503 }, state(4), t0), { retry: false, rule: 'unavailable' });
  assert.deepEqual(
    retryDecision({ httpStatus: 503 }, state(3, 200_000), t0),
    { retry: false, rule: 'unavailable' },
    'past the 5 minutes',
  );
});
