import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { startHarness } from '../support/harness.js';
import { seller } from '../invoices/support.js';
import { noLookup, readLookups } from '../../src/db/lookup.js';
import { sellerLookups } from '../../src/invoices/seller-block.js';
import { storedBytesLookup } from '../../src/subscriptions/service.js';
import { customerResourceLookup } from '../../src/customers/service.js';

const lyon = { line1: '3 quai Saint-Antoine', postalCode: '69002', city: 'Lyon', country: 'FR' };

test('lookups: one statement reads the seller as the separate reads did, a later lookup on an earlier one', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { companyId, key } = await seller(h);
  const scope = { companyId, livemode: false };
  const onDate = (date: string) =>
    readLookups(h.deps.db, { ...sellerLookups(scope, sql`${date}`), bytes: storedBytesLookup(scope) });

  const covered = await onDate('2026-06-01');
  assert.equal(covered.identity?.siren, '100000009');
  assert.equal(covered.profile?.validFrom, '2024-01-01');
  assert.equal(covered.establishment?.siret, '10000000900017', "the profile's establishment");
  assert.equal(covered.bytes, 0, 'no storage row: nothing stored');

  const other = await h.call('POST', '/v1/establishments', {
    key,
    body: { siret: '10000000900025', address: lyon, isDefault: true },
  });
  assert.equal(other.statusCode, 201, other.body);
  assert.equal(
    (await onDate('2026-06-01')).establishment?.siret,
    '10000000900017',
    "the profile's wins over the default",
  );
  const before = await onDate('2023-06-01');
  assert.equal(before.profile, null, 'no revision on that date');
  assert.equal(before.establishment?.siret, '10000000900025', 'then the default establishment');

  // Two revisions covering one date (the API never writes them): none is chosen, as profileCovering says.
  await h.deps.pool.query(
    `insert into tax_profiles select company_id, livemode, id || '_copy', valid_from, valid_to, establishment, vat_number, regime, vat_on_debits, oss_registered, ereporting_periodicity, created, updated from tax_profiles where company_id = $1`,
    [companyId],
  );
  const ambiguous = await onDate('2026-06-01');
  assert.equal(ambiguous.profile, null);
  assert.equal(ambiguous.establishment?.siret, '10000000900025');

  await h.deps.pool.query(`insert into storage_usage (company_id, livemode, bytes) values ($1, false, 1234)`, [
    companyId,
  ]);
  assert.equal((await onDate('2026-06-01')).bytes, 1234);
});

test('lookups: an absent row reads null, no lookup reads its value, two lookups may not share a column name', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { companyId } = await h.tenant();
  const scope = { companyId, livemode: false };
  const found = await readLookups(h.deps.db, {
    customer: customerResourceLookup(scope, 'cus_nope'),
    none: noLookup('kept'),
  });
  assert.deepEqual(found, { customer: null, none: 'kept' });
  await assert.rejects(
    readLookups(h.deps.db, { a: storedBytesLookup(scope), b: storedBytesLookup(scope) }),
    /lookups return a column twice/,
  );
});
