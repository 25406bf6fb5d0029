import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../src/kernel/canonical-json.js';
import { entryHashOf, genesisHash, type EntryFacts } from '../../src/archive/entry-hash.js';

const facts: EntryFacts = {
  companyId: 'cmp_1',
  sequence: 1,
  documentId: 'inv_1',
  documentKind: 'invoice',
  documentNumber: 'F2026-000001',
  fileHashes: { xml: 'a'.repeat(64) },
  ruleSet: null,
  archivedAt: new Date('2026-08-20T10:00:00Z'),
  previousHash: genesisHash,
};

test('an entry made before the rule set was recorded hashes as it did then', () => {
  const { ruleSet: _none, ...before } = facts;
  const then = createHash('sha256')
    .update(canonicalJson({ ...before, archivedAt: before.archivedAt.toISOString() }), 'utf8')
    .digest('hex');
  assert.equal(entryHashOf(facts), then);
});

test('the rule set is under the hash: another set, another hash', () => {
  const older = entryHashOf({ ...facts, ruleSet: '1.4.0' });
  const newer = entryHashOf({ ...facts, ruleSet: '1.4.0.03' });
  assert.notEqual(older, newer);
  assert.notEqual(older, entryHashOf(facts));
});
