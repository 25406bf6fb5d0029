import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentSyntaxOf } from '../../src/invoices/document-files.js';

test("the deposit's syntax: the buyer's preference, else the establishment's default, else the Factur-X", () => {
  assert.deepEqual(documentSyntaxOf({}), { fileKind: 'facturx', flowSyntax: 'Factur-X' });
  assert.deepEqual(documentSyntaxOf({ establishment: 'ubl' }), { fileKind: 'ubl', flowSyntax: 'UBL' });
  assert.deepEqual(documentSyntaxOf({ customer: 'cii', establishment: 'ubl' }), {
    fileKind: 'facturx',
    flowSyntax: 'Factur-X',
  });
  assert.deepEqual(documentSyntaxOf({ customer: 'ubl', establishment: null }), { fileKind: 'ubl', flowSyntax: 'UBL' });
  assert.deepEqual(documentSyntaxOf({ customer: null, establishment: 'cii' }), {
    fileKind: 'facturx',
    flowSyntax: 'Factur-X',
  });
});
