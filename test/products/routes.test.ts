import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';

const chair = {
  name: 'Chaise en chêne',
  description: 'Chêne huilé',
  unitPrice: '149.00',
  unit: 'H87',
  nature: 'goods',
  vatCategory: 'standard',
  metadata: { sku: 'CH-1' },
};

test('products', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  await t.test('create (201), read, list by nature, update, soft delete', async () => {
    const { key } = await h.tenant();
    const created = await h.call('POST', '/v1/products', { key, body: chair });
    assert.equal(created.statusCode, 201, created.body);
    const product = created.data;
    assert.match(product.id, /^prod_[0-9a-z]{26}$/);
    assert.deepEqual(
      { ...product, id: undefined, created: undefined, updated: undefined },
      {
        ...chair,
        id: undefined,
        object: 'product',
        livemode: false,
        deleted: false,
        created: undefined,
        updated: undefined,
      },
    );
    h.clock.advance(1);
    const service = (
      await h.call('POST', '/v1/products', { key, body: { name: 'Conseil', unitPrice: '90', nature: 'services' } })
    ).data;
    assert.equal(service.unit, 'C62', 'default unit');
    assert.equal(service.vatCategory, 'standard', 'default category');
    assert.equal(service.description, null);
    assert.deepEqual((await h.call('GET', `/v1/products/${product.id}`, { key })).data, product);
    const ids = async (query: string) =>
      (await h.call('GET', `/v1/products${query}`, { key })).data.data.map((p: { id: string }) => p.id);
    assert.deepEqual(await ids(''), [service.id, product.id]);
    assert.deepEqual(await ids('?nature=goods'), [product.id]);
    h.clock.advance(1000);
    const updated = await h.call('POST', `/v1/products/${product.id}`, {
      key,
      body: { unitPrice: '0159.5', description: null, vatCategory: 'reduced' },
    });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.data.unitPrice, '159.5');
    assert.equal(updated.data.description, null);
    assert.equal(updated.data.name, chair.name);
    assert.ok(updated.data.updated > product.updated);
    const deleted = await h.call('DELETE', `/v1/products/${product.id}`, { key });
    assert.deepEqual(deleted.data, { id: product.id, object: 'product', deleted: true });
    assert.equal((await h.call('GET', `/v1/products/${product.id}`, { key })).data.deleted, true);
    assert.deepEqual(await ids(''), [service.id]);
    for (const [method, body] of [
      ['POST', { name: 'X' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await h.call(method, `/v1/products/${product.id}`, { key, ...(body ? { body } : {}) });
      assert.equal(response.statusCode, 409);
      assert.equal(response.data.error.code, 'resource_deleted');
    }
    const cursor = await h.call('GET', `/v1/products?starting_after=${product.id}`, { key });
    assert.equal(cursor.data.error.param, 'starting_after', 'a deleted product is no cursor');
  });

  await t.test('refusals with their codes', async () => {
    const { key } = await h.tenant();
    const rows: [Record<string, unknown>, number, string, string][] = [
      [{ unitPrice: '1', nature: 'goods' }, 400, 'missing_required_field', 'name'],
      [{ name: 'A', nature: 'goods' }, 400, 'missing_required_field', 'unitPrice'],
      [{ name: 'A', unitPrice: '1' }, 400, 'missing_required_field', 'nature'],
      [{ name: 'A', unitPrice: 12.5, nature: 'goods' }, 400, 'invalid_field_value', 'unitPrice'],
      [{ name: 'A', unitPrice: '-1', nature: 'goods' }, 422, 'validation_error', 'unitPrice'],
      [{ name: 'A', unitPrice: '1e3', nature: 'goods' }, 422, 'validation_error', 'unitPrice'],
      [{ name: 'A', unitPrice: '1.1234567', nature: 'goods' }, 422, 'validation_error', 'unitPrice'],
      [{ name: 'A', unitPrice: '1', nature: 'software' }, 422, 'validation_error', 'nature'],
      [{ name: 'A', unitPrice: '1', nature: 'goods', unit: 'XYZ' }, 422, 'validation_error', 'unit'],
      [{ name: 'A', unitPrice: '1', nature: 'goods', vatCategory: 'parking' }, 422, 'validation_error', 'vatCategory'],
      [{ name: ' ', unitPrice: '1', nature: 'goods' }, 422, 'validation_error', 'name'],
      [{ name: 'A', unitPrice: '1', nature: 'goods', colour: 'red' }, 400, 'invalid_field_value', 'colour'],
    ];
    for (const [body, status, code, param] of rows) {
      const response = await h.call('POST', '/v1/products', { key, body });
      assert.equal(response.statusCode, status, JSON.stringify(body));
      assert.equal(response.data.error.code, code, JSON.stringify(body));
      assert.equal(response.data.error.param, param, JSON.stringify(body));
    }
    const id = 'prod_01m80kd1cn1220tzdk3rc8ms8q';
    assert.equal((await h.call('GET', `/v1/products/${id}`, { key })).data.error.code, 'not_found');
    assert.equal((await h.call('POST', `/v1/products/${id}`, { key, body: { name: 'X' } })).statusCode, 404);
  });

  await t.test('scopes, companies and environments', async () => {
    const companyId = await h.company();
    const reader = await h.key(companyId, { scopes: ['products:read'] });
    const writer = await h.key(companyId, { scopes: ['products:write'] });
    const customers = await h.key(companyId, { scopes: ['customers:write'] });
    const product = (await h.call('POST', '/v1/products', { key: writer, body: chair })).data;
    assert.equal((await h.call('GET', `/v1/products/${product.id}`, { key: reader })).statusCode, 200);
    assert.equal(
      (await h.call('POST', '/v1/products', { key: reader, body: chair })).data.error.code,
      'scope_insufficient',
    );
    assert.equal(
      (await h.call('DELETE', `/v1/products/${product.id}`, { key: reader })).data.error.code,
      'scope_insufficient',
    );
    assert.equal((await h.call('GET', '/v1/products', { key: customers })).data.error.code, 'scope_insufficient');
    const live = await h.key(companyId, { env: 'live' });
    const stranger = await h.tenant();
    for (const key of [live, stranger.key]) {
      assert.equal((await h.call('GET', `/v1/products/${product.id}`, { key })).statusCode, 404);
      assert.equal((await h.call('POST', `/v1/products/${product.id}`, { key, body: { name: 'X' } })).statusCode, 404);
      assert.deepEqual((await h.call('GET', '/v1/products', { key })).data.data, []);
    }
  });
});
