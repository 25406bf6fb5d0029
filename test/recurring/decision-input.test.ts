import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decisionInputOf, type DocumentResource } from '../../src/invoices/service.js';

/** A generated invoice's own tax decision states its lines again, allowances and charges with them. */
test("a run's tax decision carries the lines' allowances and charges as they were given", () => {
  const draft = {
    taxSource: 'service',
    customerId: 'cus_1',
    buyer: null,
    lines: [
      {
        description: 'Abonnement',
        quantity: '1',
        unitPrice: '100.00',
        nature: 'services',
        rateCategory: null,
        vatCode: null,
        vatRate: null,
        vatexCode: null,
        allowances: [{ amount: 1000, percentage: '10', baseAmount: 10000, reason: 'Fidélité', reasonCode: '95' }],
        charges: [{ amount: 500, percentage: null, baseAmount: null, reason: 'Frais de dossier', reasonCode: null }],
      },
      {
        description: 'Option',
        quantity: '2',
        unitPrice: '5.00',
        nature: 'services',
        rateCategory: null,
        vatCode: null,
      },
    ],
  } as unknown as DocumentResource;
  const input = decisionInputOf(draft, '2026-11-01');
  assert.deepEqual(input.lines[0]!.allowances, [{ percentage: '10', reason: 'Fidélité', reasonCode: '95' }]);
  assert.deepEqual(input.lines[0]!.charges, [{ amount: 500, reason: 'Frais de dossier' }]);
  assert.equal('allowances' in input.lines[1]!, false);
  assert.equal(input.date, '2026-11-01');
});

/** The VAT a finalized document shows is the engine's in service mode: deciding again describes the operation only. */
test('the VAT a line states goes into the decision for an integration only', () => {
  const line = { description: 'Conseil', quantity: '1', unitPrice: '100.00', nature: 'services', rateCategory: null };
  const decided = { ...line, vatCode: 'S', vatRate: '20', vatexCode: null };
  const of = (taxSource: string) =>
    decisionInputOf(
      { taxSource, customerId: 'cus_1', buyer: null, lines: [decided] } as unknown as DocumentResource,
      '2026-12-01',
    ).lines[0]!;
  assert.equal('vatCode' in of('service'), false, 'service: the engine decides again');
  assert.equal('vatRate' in of('service'), false);
  assert.deepEqual(
    [of('integration').vatCode, of('integration').vatRate, of('integration').vatexCode],
    ['S', '20', null],
    'integration: its VAT, checked by the engine',
  );
});
