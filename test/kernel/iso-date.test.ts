import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoDateProblem, parseIsoInstant, type IsoDateKind } from '../../src/kernel/iso-date.js';

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

test('years outside 1900 to 9999 are refused: PostgreSQL has no year 0, nothing is dated before 1900', () => {
  for (const bad of ['0000-01-01', '0001-01-01', '1899-12-31', '10000-01-01', '0000-01-01T00:00:00Z', '99999-01-01'])
    assert.equal(parseIsoInstant(bad), null, bad);
  assert.equal(parseIsoInstant('1900-01-01')?.toISOString(), '1900-01-01T00:00:00.000Z');
  assert.equal(parseIsoInstant('9999-12-31T23:59:59Z')?.toISOString(), '9999-12-31T23:59:59.000Z');
});

test('each problem of a date text is named: shape, calendar or range', () => {
  const cases: [string, IsoDateKind, string | null][] = [
    ['2026-09-01', 'date', null],
    ['2026-09-01T10:00:00Z', 'date', 'shape'],
    ['2026-09-01', 'date-time', 'shape'],
    ['2026-09-01T10:00:00+02:00', 'date-time', null],
    ['2026-09-01T10:00:00', 'date-or-date-time', 'shape'],
    ['2026-09-01', 'date-or-date-time', null],
    ['02026-09-01', 'date', 'shape'],
    ['2026-02-29', 'date', 'calendar'],
    ['2028-02-29', 'date', null],
    ['2100-02-29', 'date', 'calendar'],
    ['2000-02-29', 'date', null],
    ['2026-04-31', 'date', 'calendar'],
    ['2026-09-01T23:59:60Z', 'date-time', 'calendar'],
    ['2026-09-01T10:00:00+24:00', 'date-time', 'calendar'],
    ['0000-01-01', 'date', 'range'],
    ['10000-01-01', 'date', 'range'],
    ['1899-12-31T23:00:00Z', 'date-or-date-time', 'range'],
  ];
  for (const [value, kind, problem] of cases) assert.equal(isoDateProblem(value, kind), problem, `${value} as ${kind}`);
});
