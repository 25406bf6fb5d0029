import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { secondsUntil, usagePeriod, windowOf } from '../../src/limits/fixed-window.js';
import { isRateLimited } from '../../src/limits/service.js';

test('windows are aligned on UTC boundaries', () => {
  const at = new Date('2026-11-22T10:15:42.300Z');
  assert.deepEqual(windowOf(at, 'minute'), {
    start: new Date('2026-11-22T10:15:00Z'),
    end: new Date('2026-11-22T10:16:00Z'),
  });
  assert.deepEqual(windowOf(at, 'hour'), {
    start: new Date('2026-11-22T10:00:00Z'),
    end: new Date('2026-11-22T11:00:00Z'),
  });
  assert.deepEqual(windowOf(at, 'day'), {
    start: new Date('2026-11-22T00:00:00Z'),
    end: new Date('2026-11-23T00:00:00Z'),
  });
});

test('a window always contains its instant', () => {
  fc.assert(
    fc.property(
      fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
      fc.constantFrom('minute', 'hour', 'day' as const),
      (at, unit) => {
        const w = windowOf(at, unit);
        assert.ok(w.start.getTime() <= at.getTime() && at.getTime() < w.end.getTime());
      },
    ),
  );
});

test('Retry-After is whole seconds, rounded up, at least one', () => {
  const end = new Date('2026-11-22T10:16:00Z');
  assert.equal(secondsUntil(end, new Date('2026-11-22T10:15:42.300Z')), 18);
  assert.equal(secondsUntil(end, new Date('2026-11-22T10:15:59.999Z')), 1);
  assert.equal(secondsUntil(end, end), 1);
});

test('the usage period is the UTC calendar month', () => {
  assert.equal(usagePeriod(new Date('2026-11-30T23:59:59.999Z')), '2026-11');
  assert.equal(usagePeriod(new Date('2026-12-01T00:00:00Z')), '2026-12');
});

test('test-mode reads are exempt from the per-minute limit, nothing else is', () => {
  assert.equal(isRateLimited(false, 'GET'), false);
  assert.equal(isRateLimited(false, 'HEAD'), false);
  assert.equal(isRateLimited(false, 'POST'), true);
  assert.equal(isRateLimited(false, 'DELETE'), true);
  assert.equal(isRateLimited(true, 'GET'), true);
});
