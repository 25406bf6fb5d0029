import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, verifyPassword } from '../../src/users/password-hash.js';
import { checkNewPassword } from '../../src/users/password-rules.js';
import { generatePassword, hashToken, looksLikeToken, newToken } from '../../src/users/tokens.js';

test('scrypt hashes: salted, self-describing, checked in constant time', async () => {
  const hash = await hashPassword('correct horse battery staple');
  assert.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.notEqual(await hashPassword('correct horse battery staple'), hash, 'a new salt each time');
  assert.equal(await verifyPassword('correct horse battery staple', hash), true);
  assert.equal(await verifyPassword('correct horse battery stapl', hash), false);
  assert.equal(await verifyPassword('anything', null), false, 'no password set: never matches');
  assert.equal(await verifyPassword('anything', 'md5$abc'), false);
  // The same password typed in another Unicode normal form is the same password.
  const composed = await hashPassword('mot de passe réservé');
  assert.equal(await verifyPassword('mot de passe re\u0301serve\u0301', composed), true);
});

test('a new password: confirmed, 12 to 200 characters, not the e-mail address', () => {
  const email = 'ana@example.com';
  const refused: [string, string, RegExp][] = [
    ['a long enough one', 'a long enough on', /differ/],
    ['short', 'short', /at least 12/],
    ['x'.repeat(201), 'x'.repeat(201), /at most 200/],
    ['ANA@example.com', 'ANA@example.com', /e-mail/],
  ];
  for (const [password, confirmation, message] of refused) {
    assert.throws(
      () => checkNewPassword(password, confirmation, email),
      (error: Error & { code?: string }) => error.code === 'validation_error' && message.test(error.message),
    );
  }
  assert.doesNotThrow(() => checkNewPassword('a long enough one', 'a long enough one', email));
  assert.doesNotThrow(() => checkNewPassword('éléphant rosé', 'éléphant rosé', email), '12 characters, not 15 bytes');
});

test('tokens: 256 random bits, stored as SHA-256', () => {
  const token = newToken();
  assert.equal(looksLikeToken(token), true);
  assert.equal(looksLikeToken(`${token}x`), false);
  assert.equal(looksLikeToken(undefined), false);
  assert.notEqual(newToken(), token);
  assert.match(hashToken(token), /^[0-9a-f]{64}$/);
  assert.match(generatePassword(), /^[0-9A-Za-z]{20}$/);
});
