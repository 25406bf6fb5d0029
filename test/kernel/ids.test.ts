import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { idPrefixes, isIdOf, newId, timeOfId } from '../../src/kernel/ids.js';

test('ids carry the contract prefixes', () => {
  const expected = {
    event: 'evt_',
    request: 'req_',
    invoice: 'inv_',
    creditNote: 'cn_',
    quote: 'qt_',
    customer: 'cus_',
    payment: 'pay_',
    webhookEndpoint: 'we_',
    receivedInvoice: 'rec_',
    ereporting: 'rep_',
    job: 'job_',
    platformInvoice: 'pa_',
  };
  for (const [kind, prefix] of Object.entries(expected)) {
    assert.equal(idPrefixes[kind as keyof typeof idPrefixes], prefix);
    assert.ok(newId(kind as keyof typeof idPrefixes).startsWith(prefix));
  }
});

test('ids sort by creation time, and carry it', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 47 }), fc.integer({ min: 1, max: 2 ** 40 }), (ms, delta) => {
      const earlier = newId('event', new Date(ms));
      const later = newId('event', new Date(ms + delta));
      assert.ok(earlier < later);
      assert.equal(timeOfId(earlier)!.getTime(), ms);
    }),
  );
});

test('ids made in the same millisecond differ', () => {
  const at = new Date();
  const ids = new Set(Array.from({ length: 10_000 }, () => newId('customer', at)));
  assert.equal(ids.size, 10_000);
});

test('isIdOf checks the shape, not existence', () => {
  assert.ok(isIdOf('event', newId('event')));
  assert.ok(!isIdOf('event', newId('customer')));
  assert.ok(!isIdOf('event', 'evt_short'));
  assert.equal(timeOfId('evt_NOT-OURS'), null);
});
