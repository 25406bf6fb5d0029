import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentSyntaxOf } from '../../src/invoices/document-files.js';
import { shownBuyer, type BuyerSnapshot } from '../../src/invoices/buyer.js';

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

test('a buyer stored before einvoiceSyntax existed is shown stating none (the establishment decides)', () => {
  const stored = { type: 'company', name: 'Client SA' } as unknown as BuyerSnapshot;
  assert.equal(shownBuyer(stored)!.einvoiceSyntax, null);
  assert.equal(shownBuyer({ ...stored, einvoiceSyntax: 'ubl' })!.einvoiceSyntax, 'ubl');
  assert.equal(shownBuyer(null), null);
});
