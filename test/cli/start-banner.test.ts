/**
 * The banner of a later start (issue #40): no key is shown again, so it says how to make one,
 * naming the company when there is only one. (The e2e serve test sees the line of a real restart.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { howToMakeAKey } from '../../src/cli/serve.js';

test('one company: the command to run, with its id', () => {
  assert.equal(
    howToMakeAKey([{ id: 'co_01jx0000000000000000000000' }]),
    'no key is shown after the first start: make one with  npx facteur key create --company co_01jx0000000000000000000000 --env test',
  );
});

test('several companies: `facteur company list` first, then the command', () => {
  const line = howToMakeAKey([{ id: 'co_a' }, { id: 'co_b' }]);
  assert.match(line, /npx facteur company list .*npx facteur key create --company co_… --env test$/);
  assert.doesNotMatch(line, /co_a|co_b/);
});
