import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decisionInputOf } from '../../src/recurring/runs.js';
import type { DocumentResource } from '../../src/invoices/service.js';

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
