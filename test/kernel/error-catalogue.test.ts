import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ApiError, catalogue, errorTypes, maxIssueMessageLength, maxIssues } from '../../src/kernel/errors.js';
import { envelopeOf } from '../../src/http/error-envelope.js';
import { sharedPath } from '../support/shared.js';

const contractPath = sharedPath('seed', '000_5486e66da90a3a7b.txt');

/** The rows of the contract's "Codes" table: each code with its type. */
function contractCodes(): Map<string, string[]> {
  const text = readFileSync(contractPath, 'utf8');
  const section = text.slice(text.indexOf('### Codes'), text.indexOf('The status of each code not listed'));
  const codes = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || !cells[1]!.startsWith('`')) continue;
    const types = [...cells[2]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
    for (const match of cells[1]!.matchAll(/`([a-z0-9_]+)`/g)) codes.set(match[1]!, types);
  }
  return codes;
}

test('the catalogue holds every code of the contract with its type', () => {
  const codes = contractCodes();
  assert.ok(codes.size >= 90, `parsed ${codes.size} codes`);
  assert.deepEqual(Object.keys(catalogue).sort(), [...codes.keys()].sort(), 'no code of our own, none missing');
  for (const [code, types] of codes) {
    const entry = (catalogue as Record<string, { type: string }>)[code];
    assert.ok(entry, `missing ${code}`);
    assert.ok(types.includes(entry.type), `${code}: ${entry.type} is not ${types.join(' or ')}`);
  }
});

test('statuses follow the type, except where the contract writes another', () => {
  const overrides: Record<string, number> = {
    scope_insufficient: 403,
    not_implemented: 501,
    pa_operation_not_supported: 422,
    ereporting_declaration_rejected: 422,
    eu_threshold_reservation_lost: 409,
    invalid_status_transition: 400,
    buyer_identity_not_disclosed: 400,
    siret_not_found: 422,
    vat_validation_failed: 422,
    pa_unavailable: 503,
  };
  for (const code of Object.keys(catalogue) as (keyof typeof catalogue)[]) {
    const error = new ApiError(code);
    assert.equal(error.status, overrides[code] ?? errorTypes[error.type], code);
  }
  assert.deepEqual(errorTypes, {
    invalid_request_error: 400,
    validation_error: 422,
    authentication_error: 401,
    permission_error: 403,
    not_found_error: 404,
    conflict_error: 409,
    rate_limit_error: 429,
    plan_limit_error: 402,
    api_error: 500,
  });
});

test('issues: absent rather than empty, at most 500, messages at most 2,000 characters', () => {
  assert.ok(!('issues' in envelopeOf(new ApiError('validation_error', { issues: [] }), 'req_x', 'https://d').error));
  const many = Array.from({ length: 700 }, (_, i) => ({
    code: 'invalid_postal_code',
    param: `lines[${i}]`,
    message: 'm'.repeat(3000),
  }));
  const error = new ApiError('validation_error', { issues: many });
  assert.equal(error.issues!.length, maxIssues);
  assert.ok(error.issues!.every((issue) => issue.message.length === maxIssueMessageLength));
  const envelope = envelopeOf(error, 'req_x', 'https://d/docs/errors');
  assert.equal(envelope.error.issues!.length, 500);
  assert.equal(envelope.error.doc_url, 'https://d/docs/errors#validation_error');
});

test('message templates are filled and never show a placeholder', () => {
  for (const code of Object.keys(catalogue) as (keyof typeof catalogue)[]) {
    const error = new ApiError(code, {
      values: {
        detail: 'd',
        id: 'x',
        scope: 's',
        expiresAt: 't',
        param: 'p',
        requestId: 'r',
        plan: 'free',
        limit: 1,
        metric: 'm',
        period: 'p',
        received: 'r',
        accepted: '',
        amount: 1,
        amountDue: 1,
        remaining: 1,
        type: 't',
        status: 's',
        siret: 's',
        resource: 'r',
      },
    });
    assert.doesNotMatch(error.message, /\{\w+\}/, code);
  }
});
