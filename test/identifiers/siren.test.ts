import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidSiren, isValidSiret } from '../../src/identifiers/siren.js';

test('SIREN: 9 digits with a Luhn check digit', () => {
  for (const valid of ['732829320', '552100554', '123456782', '356000000']) assert.ok(isValidSiren(valid), valid);
  for (const invalid of ['732829321', '12345678', '1234567890', '12345678a', '', ' 73282932'])
    assert.ok(!isValidSiren(invalid), invalid);
});

test('SIRET: 14 digits with a Luhn check digit, La Poste by digit sum', () => {
  assert.ok(isValidSiret('73282932000074'));
  assert.ok(!isValidSiret('73282932000075'));
  assert.ok(!isValidSiret('7328293200007'));
  assert.ok(isValidSiret('35600000049837'), 'La Poste: digit sum divisible by 5');
  assert.ok(!isValidSiret('35600000049838'));
});
