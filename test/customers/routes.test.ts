import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startHarness } from '../support/harness.js';

const atelier = {
  type: 'company',
  name: 'Atelier Lumière SAS',
  email: 'compta@atelier.example',
  siret: '73282932000017',
  vatNumber: 'FR44732829320',
  electronicAddress: '732829320_FACTURES',
  routingCode: 'COMPTA',
  address: { line1: '12 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' },
  deliveryAddress: { line1: 'Quai 4', postalCode: '20000', city: 'Ajaccio', country: 'FR' },
  metadata: { crm: 'A-17', tags: ['vip'] },
};

test('customers: create, read, list, update, delete', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  await t.test(
    'POST creates a customer (201) with derived fields and the VAT territory of each address; customer.created',
    async () => {
      const { key } = await h.tenant();
      const response = await h.call('POST', '/v1/customers', { key, body: atelier });
      assert.equal(response.statusCode, 201, response.body);
      const customer = response.data;
      assert.match(customer.id, /^cus_[0-9a-z]{26}$/);
      assert.equal(customer.object, 'customer');
      assert.equal(customer.livemode, false);
      assert.equal(customer.siren, '732829320', 'derived from the SIRET');
      assert.equal(customer.address.territory, 'FR');
      assert.equal(customer.deliveryAddress.territory, 'FR-COR');
      assert.deepEqual(customer.registryNonDisclosure, []);
      assert.deepEqual(customer.metadata, atelier.metadata);
      assert.equal(customer.deleted, false);
      assert.equal(customer.created, customer.updated);
      assert.deepEqual((await h.call('GET', `/v1/customers/${customer.id}`, { key })).data, customer);
      const events = (await h.call('GET', '/v1/events?type=customer.created', { key })).data.data;
      assert.equal(events.length, 1);
      assert.deepEqual(events[0].data, { id: customer.id, object: 'customer', livemode: false });
    },
  );

  await t.test('a consumer needs only a name; type defaults to company', async () => {
    const { key } = await h.tenant();
    const consumer = await h.call('POST', '/v1/customers', {
      key,
      body: { type: 'individual', name: 'Camille Martin' },
    });
    assert.equal(consumer.statusCode, 201);
    assert.equal(consumer.data.address, null);
    const company = await h.call('POST', '/v1/customers', { key, body: { name: 'Sans type' } });
    assert.equal(company.data.type, 'company');
  });

  await t.test('the sandbox directory marks non-disclosed fields from the SIRET', async () => {
    const { key } = await h.tenant();
    const name = await h.call('POST', '/v1/customers', { key, body: { name: 'Cabinet', siret: '73282932099803' } });
    assert.deepEqual(name.data.registryNonDisclosure, ['name']);
    const address = await h.call('POST', '/v1/customers', {
      key,
      body: { name: 'Cabinet', siret: '73282932099704', registryNonDisclosure: ['name'] },
    });
    assert.deepEqual(address.data.registryNonDisclosure, ['name', 'address']);
  });

  await t.test('a live SIRET is checked for its check digits only (no directory configured)', async () => {
    const { companyId } = await h.tenant();
    const live = await h.key(companyId, { env: 'live' });
    const response = await h.call('POST', '/v1/customers', {
      key: live,
      body: { name: 'Inconnu', siret: '73282932099902' },
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.data.livemode, true);
  });

  await t.test(
    'POST /:id updates: absent fields kept, null clears, address replaced whole; customer.updated; no event without change',
    async () => {
      const { key } = await h.tenant();
      const created = (await h.call('POST', '/v1/customers', { key, body: atelier })).data;
      h.clock.advance(1000);
      const updated = await h.call('POST', `/v1/customers/${created.id}`, {
        key,
        body: {
          email: null,
          routingCode: null,
          address: { postalCode: '97110', country: 'GP' },
          metadata: { crm: 'B' },
        },
      });
      assert.equal(updated.statusCode, 200, updated.body);
      assert.equal(updated.data.email, null);
      assert.equal(updated.data.name, atelier.name);
      assert.deepEqual(updated.data.address, {
        line1: null,
        line2: null,
        postalCode: '97110',
        city: null,
        country: 'GP',
        territory: 'FR-GP',
      });
      assert.deepEqual(updated.data.metadata, { crm: 'B' });
      assert.ok(updated.data.updated > created.updated);
      const same = await h.call('POST', `/v1/customers/${created.id}`, { key, body: { name: atelier.name } });
      assert.equal(same.statusCode, 200);
      assert.equal(same.data.updated, updated.data.updated, 'nothing changed');
      const events = (await h.call('GET', '/v1/events?type=customer.updated', { key })).data.data;
      assert.equal(events.length, 1);
      assert.deepEqual(events[0].data, { id: created.id, object: 'customer', livemode: false });
    },
  );

  await t.test('DELETE soft-deletes: {id, object, deleted}; still readable; not listed; customer.deleted', async () => {
    const { key } = await h.tenant();
    const created = (await h.call('POST', '/v1/customers', { key, body: { name: 'Éphémère' } })).data;
    const deleted = await h.call('DELETE', `/v1/customers/${created.id}`, { key });
    assert.equal(deleted.statusCode, 200);
    assert.deepEqual(deleted.data, { id: created.id, object: 'customer', deleted: true });
    const read = await h.call('GET', `/v1/customers/${created.id}`, { key });
    assert.equal(read.statusCode, 200);
    assert.equal(read.data.deleted, true);
    assert.equal(read.data.name, 'Éphémère');
    assert.equal((await h.call('GET', '/v1/customers', { key })).data.data.length, 0);
    const events = (await h.call('GET', '/v1/events?type=customer.deleted', { key })).data.data;
    assert.deepEqual(events[0].data, { id: created.id, object: 'customer', livemode: false });
  });

  await t.test(
    'lists: newest first, paginated, filtered by email (any case), siren, type and created range',
    async () => {
      const { key } = await h.tenant();
      const ids: string[] = [];
      const start = h.clock.now();
      for (let i = 0; i < 5; i++) {
        const body =
          i % 2 === 0
            ? { name: `B2B ${i}`, siren: '732829320', email: `Client${i}@Example.com` }
            : { type: 'individual', name: `Consumer ${i}`, email: `client${i}@example.com` };
        ids.push((await h.call('POST', '/v1/customers', { key, body })).data.id);
        h.clock.advance(86_400_000);
      }
      const names = async (query: string) =>
        (await h.call('GET', `/v1/customers${query}`, { key })).data.data.map((c: { id: string }) => ids.indexOf(c.id));
      assert.deepEqual(await names(''), [4, 3, 2, 1, 0]);
      const page1 = (await h.call('GET', '/v1/customers?limit=2', { key })).data;
      assert.equal(page1.has_more, true);
      assert.equal(page1.url, '/v1/customers');
      const page2 = (await h.call('GET', `/v1/customers?limit=2&starting_after=${page1.next_cursor}`, { key })).data;
      assert.deepEqual(
        page2.data.map((c: { id: string }) => ids.indexOf(c.id)),
        [2, 1],
      );
      assert.deepEqual(await names('?email=CLIENT2@example.COM'), [2]);
      assert.deepEqual(await names('?siren=732829320'), [4, 2, 0]);
      assert.deepEqual(await names('?type=individual'), [3, 1]);
      const day = (offset: number) => new Date(start.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
      assert.deepEqual(await names(`?date_from=${day(1)}&date_to=${day(3)}`), [3, 2, 1]);
      assert.deepEqual(
        await names(`?date_to=${encodeURIComponent(start.toISOString())}`),
        [0],
        'a date-time bound is inclusive',
      );
      assert.deepEqual(
        await names(`?siren=732829320&limit=1&starting_after=${ids[4]}`),
        [2],
        'filters combine with the cursor',
      );
    },
  );

  await t.test('an Idempotency-Key replays the creation: one customer, one event', async () => {
    const { key } = await h.tenant();
    const headers = { 'idempotency-key': randomUUID() };
    const first = await h.call('POST', '/v1/customers', { key, body: atelier, headers });
    const again = await h.call('POST', '/v1/customers', { key, body: atelier, headers });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    assert.equal((await h.call('GET', '/v1/customers', { key })).data.data.length, 1);
    assert.equal((await h.call('GET', '/v1/events', { key })).data.data.length, 1);
  });
});
