import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { nextPeriod, periodAt, runAt, type Schedule } from '../../src/recurring/schedule.js';

const schedule = (overrides: Partial<Schedule>): Schedule => ({
  interval: 'monthly',
  dayOfMonth: 1,
  startDate: '2026-01-01',
  endDate: null,
  count: null,
  ...overrides,
});

const periods = (s: Schedule, n: number) => Array.from({ length: n }, (_, i) => periodAt(s, i));

test('end of month: 31 falls on the last day of shorter months, then back on the 31st', () => {
  assert.deepEqual(periods(schedule({ dayOfMonth: 31, startDate: '2026-01-01' }), 6), [
    '2026-01-31',
    '2026-02-28',
    '2026-03-31',
    '2026-04-30',
    '2026-05-31',
    '2026-06-30',
  ]);
  assert.deepEqual(periods(schedule({ dayOfMonth: 30, startDate: '2028-01-15' }), 3), [
    '2028-01-30',
    '2028-02-29',
    '2028-03-30',
  ]);
  assert.deepEqual(periods(schedule({ dayOfMonth: 29, startDate: '2027-02-01' }), 2), ['2027-02-28', '2027-03-29']);
});

test('the first period falls on or after the start date', () => {
  assert.equal(periodAt(schedule({ dayOfMonth: 15, startDate: '2026-10-15' }), 0), '2026-10-15');
  assert.equal(periodAt(schedule({ dayOfMonth: 5, startDate: '2026-10-15' }), 0), '2026-11-05');
  assert.equal(
    periodAt(schedule({ dayOfMonth: 31, startDate: '2026-11-30' }), 0),
    '2026-11-30',
    'the 30th is November’s last',
  );
  assert.equal(periodAt(schedule({ interval: 'quarterly', dayOfMonth: 1, startDate: '2026-10-02' }), 0), '2027-01-01');
});

test('quarterly and yearly steps, across years; 29 February on a yearly schedule', () => {
  assert.deepEqual(periods(schedule({ interval: 'quarterly', dayOfMonth: 31, startDate: '2026-11-01' }), 4), [
    '2026-11-30',
    '2027-02-28',
    '2027-05-31',
    '2027-08-31',
  ]);
  assert.deepEqual(periods(schedule({ interval: 'yearly', dayOfMonth: 29, startDate: '2028-02-29' }), 3), [
    '2028-02-29',
    '2029-02-28',
    '2030-02-28',
  ]);
});

test('a schedule ends after `count` periods or at `endDate` (inclusive)', () => {
  assert.deepEqual(periods(schedule({ count: 2, dayOfMonth: 10 }), 3), ['2026-01-10', '2026-02-10', null]);
  assert.deepEqual(periods(schedule({ endDate: '2026-03-10', dayOfMonth: 10 }), 4), [
    '2026-01-10',
    '2026-02-10',
    '2026-03-10',
    null,
  ]);
  assert.equal(periodAt(schedule({ endDate: '2026-03-09', dayOfMonth: 10 }), 2), null);
});

test('the next period: strictly after the last one run, not before a floor (a resume skips the paused ones)', () => {
  const s = schedule({ dayOfMonth: 15, startDate: '2026-01-01' });
  assert.deepEqual(nextPeriod(s, { after: null, notBefore: '2026-01-01' }), { index: 0, period: '2026-01-15' });
  assert.deepEqual(nextPeriod(s, { after: '2026-01-15', notBefore: '2026-01-01' }), { index: 1, period: '2026-02-15' });
  // Resumed on 2026-06-20 after a run of January: February to June are skipped.
  assert.deepEqual(nextPeriod(s, { after: '2026-01-15', notBefore: '2026-06-20' }), { index: 6, period: '2026-07-15' });
  assert.deepEqual(nextPeriod(s, { after: null, notBefore: '2026-06-15' }), { index: 5, period: '2026-06-15' });
  // Skipped periods count against `count`: 3 periods from January end in March.
  assert.equal(nextPeriod({ ...s, count: 3 }, { after: '2026-01-15', notBefore: '2026-06-20' }), null);
  assert.equal(nextPeriod({ ...s, endDate: '2026-02-14' }, { after: '2026-01-15', notBefore: '2026-01-01' }), null);
});

test('a run is due at its period’s 00:00 UTC', () => {
  assert.equal(runAt('2026-02-28').toISOString(), '2026-02-28T00:00:00.000Z');
});

test('property: periods increase, stay on the asked day or the month’s last, and nextPeriod walks them in order', () => {
  const date = fc
    .record({
      y: fc.integer({ min: 2000, max: 2090 }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 28 }),
    })
    .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  fc.assert(
    fc.property(
      fc.constantFrom('monthly', 'quarterly', 'yearly' as const),
      fc.integer({ min: 1, max: 31 }),
      date,
      (interval, dayOfMonth, startDate) => {
        const s = schedule({ interval, dayOfMonth, startDate });
        let previous: string | null = null;
        for (let index = 0; index < 30; index++) {
          const period = periodAt(s, index)!;
          assert.ok(period >= startDate);
          if (previous !== null) assert.ok(period > previous, `${period} after ${previous}`);
          const [y, m, d] = period.split('-').map(Number) as [number, number, number];
          const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
          assert.equal(d, Math.min(dayOfMonth, last));
          assert.deepEqual(nextPeriod(s, { after: previous, notBefore: startDate }), { index, period });
          previous = period;
        }
      },
    ),
  );
});
