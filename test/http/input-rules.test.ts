import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findHostileValue, maxJsonDepth, textProblem } from '../../src/http/input-rules.js';

test('text: NUL, other C0 controls and lone surrogates; tab and line breaks only in values', () => {
  assert.equal(textProblem('plain text é 🙂', false), null);
  assert.equal(textProblem('a\u0000b', true), 'nul');
  assert.equal(textProblem('\u001f', true), 'control');
  assert.equal(textProblem('tab\tand\r\nlines', true), null);
  assert.equal(textProblem('tab\t', false), 'control');
  assert.equal(textProblem('\ud800', true), 'surrogate');
  assert.equal(textProblem('\udfff\ud800', true), 'surrogate');
  assert.equal(textProblem('\ud83d\ude42', true), null, 'a well-formed pair is one character');
  assert.equal(textProblem('\u007f\u0085', true), null, 'DEL and C1 controls are valid text for PostgreSQL');
});

test('values: the first breach in document order, with its path', () => {
  assert.equal(findHostileValue({ a: 'ok', b: [1, { c: true }] }), null);
  assert.deepEqual(findHostileValue({ a: 'ok', b: [1, { c: 'x\u0000' }], d: '\ud800' })?.path, ['b', 1, 'c']);
  assert.deepEqual(findHostileValue({ m: { 'k\u0000': 1 } })?.path, ['m']);
  assert.deepEqual(findHostileValue({ n: Infinity })?.path, ['n']);
  assert.match(findHostileValue({ n: -Infinity })!.what, /finite/);
});

test('depth: 32 levels pass, more are refused, and any depth is walked without recursion', () => {
  const nest = (levels: number) => {
    let value: unknown = 1;
    for (let level = 0; level < levels; level++) value = { a: value };
    return value;
  };
  assert.equal(findHostileValue(nest(maxJsonDepth)), null);
  const spot = findHostileValue(nest(maxJsonDepth + 1));
  assert.equal(spot?.path.length, maxJsonDepth);
  assert.match(spot!.what, /deeper than 32/);
  // A million levels would overflow any recursive walk.
  assert.match(findHostileValue(nest(1_000_000))!.what, /deeper than 32/);
});
