import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseIsoInstant } from '../../src/kernel/iso-date.js';

test('ISO dates and date-times with a zone are read exactly', () => {
  assert.equal(parseIsoInstant('2026-09-01')?.toISOString(), '2026-09-01T00:00:00.000Z');
  assert.equal(parseIsoInstant('2026-09-01T12:30:00Z')?.toISOString(), '2026-09-01T12:30:00.000Z');
  assert.equal(parseIsoInstant('2026-09-01T12:30:00.250+02:00')?.toISOString(), '2026-09-01T10:30:00.250Z');
  assert.equal(parseIsoInstant('2028-02-29')?.toISOString(), '2028-02-29T00:00:00.000Z');
});

test('impossible or ambiguous values are refused, never rolled over', () => {
  for (const bad of [
    '2030-02-31',
    '2027-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-09-01T24:00:00Z',
    '2026-09-01T12:60Z',
    '2026-09-01T12:00:00',
    '01/09/2026',
    '2026-9-1',
    '',
    'tomorrow',
  ]) {
    assert.equal(parseIsoInstant(bad), null, bad);
  }
});
