import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { bulkInsert } from '../../src/db/bulk-insert.js';
import { customers } from '../../src/customers/schema.js';
import { newId } from '../../src/kernel/ids.js';

test('bulk inserts keep every value exactly: text, nulls, jsonb, text arrays, timestamps', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { companyId } = await h.tenant();
  const created = new Date('2026-11-22T10:11:12.345Z');
  const rows = ['Quote "double" \\ back', 'Ünïcödé €', 'null-ish'].map((name, i) => ({
    companyId,
    livemode: false,
    id: newId('customer'),
    type: 'company',
    name,
    email: i === 2 ? null : `a${i}@example.com`,
    siren: null,
    siret: null,
    vatNumber: null,
    electronicAddress: null,
    routingCode: null,
    address: i === 0 ? { line1: 'x "y"', postalCode: '75002', city: 'Paris', country: 'FR' } : null,
    deliveryAddress: null,
    registryNonDisclosure: i === 1 ? ['name', 'address.line1', 'with,comma "q"'] : [],
    metadata: { nested: { k: [1, 'two', null] } },
    created,
    updated: created,
    deletedAt: null,
  }));
  await bulkInsert(h.deps.db, customers, rows as never);
  const { rows: stored } = await h.deps.pool.query('select * from customers where company_id = $1 order by id', [
    companyId,
  ]);
  const byName = new Map(stored.map((row: Record<string, unknown>) => [row.name, row]));
  for (const row of rows) {
    const got = byName.get(row.name) as Record<string, unknown>;
    assert.ok(got, row.name);
    assert.equal(got.email, row.email);
    assert.deepEqual(got.address, row.address);
    assert.deepEqual(got.registry_non_disclosure, row.registryNonDisclosure);
    assert.deepEqual(got.metadata, row.metadata);
    assert.equal((got.created as Date).toISOString(), created.toISOString());
  }
});
