import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';

test('sandbox fixtures', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  await t.test(
    'a reset injects the documented customers and products, with ids stable across resets and their fixture name in metadata',
    async () => {
      const { key, companyId } = await h.tenant();
      await h.call('POST', '/v1/customers', { key, body: { name: 'Mine' } });
      await h.call('POST', '/v1/products', { key, body: { name: 'Mine', unitPrice: '1', nature: 'goods' } });
      const first = await h.call('POST', '/v1/sandbox/reset', { key });
      assert.equal(first.statusCode, 200);
      assert.equal(first.data.purged.customers, 1);
      assert.equal(first.data.purged.products, 1);
      const customers = (await h.call('GET', '/v1/customers', { key })).data.data;
      const byFixture = Object.fromEntries(
        customers.map((c: { metadata: { fixture: string } }) => [c.metadata.fixture, c]),
      );
      assert.deepEqual(Object.keys(byFixture), [
        'fr_b2b',
        'fr_consumer',
        'eu_b2b',
        'eu_consumer',
        'non_eu_company',
        'overseas_company',
        'fr_b2b_name_not_disclosed',
      ]);
      assert.deepEqual(
        [byFixture.fr_b2b.type, byFixture.fr_b2b.siren, byFixture.fr_b2b.address.territory],
        ['company', '732829320', 'FR'],
      );
      assert.deepEqual([byFixture.fr_consumer.type, byFixture.fr_consumer.address.territory], ['individual', 'FR']);
      assert.deepEqual([byFixture.eu_b2b.vatNumber, byFixture.eu_b2b.address.territory], ['DE136695976', 'DE']);
      assert.deepEqual([byFixture.eu_consumer.type, byFixture.eu_consumer.address.country], ['individual', 'IT']);
      assert.equal(byFixture.non_eu_company.address.country, 'US');
      assert.equal(byFixture.overseas_company.address.territory, 'FR-MQ');
      assert.deepEqual(byFixture.fr_b2b_name_not_disclosed.registryNonDisclosure, ['name']);
      for (const customer of customers) {
        assert.equal(customer.created, '2026-01-01T00:00:00.00' + customer.created.slice(-2));
        assert.equal((await h.call('GET', `/v1/customers/${customer.id}`, { key })).statusCode, 200);
      }
      const products = (await h.call('GET', '/v1/products', { key })).data.data;
      assert.deepEqual(
        products.map((p: { metadata: { fixture: string }; nature: string }) => [p.metadata.fixture, p.nature]),
        [
          ['goods', 'goods'],
          ['goods_reduced_rate', 'goods'],
          ['services', 'services'],
          ['electronic_service', 'electronic_service'],
        ],
      );
      assert.equal((await h.call('GET', '/v1/events', { key })).data.data.length, 0, 'fixtures emit no event');

      await h.call('DELETE', `/v1/customers/${byFixture.fr_b2b.id}`, { key });
      const second = await h.call('POST', '/v1/sandbox/reset', { key });
      assert.equal(second.data.purged.customers, customers.length);
      const again = (await h.call('GET', '/v1/customers', { key })).data.data;
      assert.deepEqual(
        again.map((c: { id: string }) => c.id),
        customers.map((c: { id: string }) => c.id),
        'same ids after a reset',
      );
      assert.equal(again[0].deleted, false, 'a deleted fixture comes back');
      assert.deepEqual(
        (await h.call('GET', '/v1/products', { key })).data.data.map((p: { id: string }) => p.id),
        products.map((p: { id: string }) => p.id),
      );

      const other = await h.tenant();
      await h.call('POST', '/v1/sandbox/reset', { key: other.key });
      const otherIds = (await h.call('GET', '/v1/customers', { key: other.key })).data.data.map(
        (c: { id: string }) => c.id,
      );
      assert.equal(otherIds.length, customers.length);
      assert.ok(
        otherIds.every((id: string) => !customers.some((c: { id: string }) => c.id === id)),
        'each company has its own ids',
      );
      const live = await h.key(companyId, { env: 'live' });
      assert.deepEqual((await h.call('GET', '/v1/customers', { key: live })).data.data, [], 'nothing in live');
    },
  );
});
