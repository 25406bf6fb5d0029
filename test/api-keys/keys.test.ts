import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { generateSecret, hashSecret, livemodeOfSecret } from '../../src/api-keys/key-secret.js';
import { allScopes, grants } from '../../src/kernel/scopes.js';

test('secrets: prefix by environment, 32 base62 characters, all different', () => {
  const secrets = Array.from({ length: 2000 }, (_, i) => generateSecret(i % 2 === 0));
  assert.equal(new Set(secrets).size, secrets.length);
  for (const [i, secret] of secrets.entries()) {
    assert.match(secret, i % 2 === 0 ? /^svc_live_[0-9A-Za-z]{32}$/ : /^svc_test_[0-9A-Za-z]{32}$/);
    assert.equal(livemodeOfSecret(secret), i % 2 === 0);
  }
});

test('livemodeOfSecret refuses what is not a key of ours', () => {
  for (const bad of [
    'svc_prod_' + 'a'.repeat(32),
    'svc_test_' + 'a'.repeat(31),
    'svc_test_' + 'a'.repeat(31) + '-',
    'sk_test_abc',
    '',
  ]) {
    assert.equal(livemodeOfSecret(bad), null, bad);
  }
});

test('keys are stored as SHA-256 hex', () => {
  const secret = generateSecret(false);
  assert.equal(hashSecret(secret), createHash('sha256').update(secret).digest('hex'));
});

test('the contract scope pairs', () => {
  assert.deepEqual([...allScopes].sort(), [
    'credit_notes:read',
    'credit_notes:write',
    'customers:read',
    'customers:write',
    'invoices:read',
    'invoices:write',
    'payments:read',
    'payments:write',
    'products:read',
    'products:write',
    'quotes:read',
    'quotes:write',
    'webhooks:read',
    'webhooks:write',
  ]);
});

test('grants: no scopes is full access; write includes read; nothing else leaks', () => {
  assert.ok(grants(null, 'full_access'));
  assert.ok(grants([], 'invoices:write'));
  assert.ok(!grants(['invoices:write'], 'full_access'));
  assert.ok(grants(['invoices:write'], 'invoices:read'));
  assert.ok(!grants(['invoices:read'], 'invoices:write'));
  assert.ok(!grants(['invoices:write'], 'credit_notes:read'));
  assert.ok(!grants(['customers:read'], 'invoices:read'));
});
