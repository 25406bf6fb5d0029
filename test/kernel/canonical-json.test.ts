import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson } from '../../src/kernel/canonical-json.js';

test('the same content in any key order gives the same text', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } }),
    '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
  );
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
      const reversed = Object.fromEntries(Object.entries(value).reverse());
      assert.equal(canonicalJson(reversed), canonicalJson(value));
      assert.deepEqual(JSON.parse(canonicalJson(value)), JSON.parse(JSON.stringify(value)));
    }),
  );
});

test('array order is content', () => {
  assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
});
