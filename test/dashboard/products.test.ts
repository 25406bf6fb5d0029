/**
 * The dashboard's product pages over `app.inject`: the list (keyset pages, the nature filter), a
 * product's page, the create and edit forms calling the API's use cases with refusals beside the
 * form, CSRF, the company's own products only, both languages.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, startHarness, type Harness } from '../support/harness.js';
import { signedIn } from './support.js';
import { createProduct } from '../../src/products/service.js';
import { unitPriceOf } from '../../src/dashboard/pages/products.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const consulting = {
  name: 'Conseil',
  description: 'Une journée de conseil',
  unitPrice: '1 200,50',
  unit: 'DAY',
  nature: 'services',
  vatCategory: 'standard',
};

test('what a person types as a price is read as the API’s decimal string', () => {
  assert.equal(unitPriceOf('1 200,50'), '1200.50');
  assert.equal(unitPriceOf('12.5 €'), '12.5');
  assert.equal(unitPriceOf('12,345678'), '12.345678');
});

test('a product created through the form is read back by the API, listed and shown in French', async () => {
  const { client, companyId } = await signedIn(h, null);
  const key = await h.key(companyId);
  const form = await client.get('/dashboard/test/products/new');
  assert.equal(form.statusCode, 200);
  assert.match(form.body, /<h1>Nouveau produit<\/h1>/);
  assert.match(form.body, /<option value="DAY">jour \(DAY\)<\/option>/);
  const created = await client.post('/dashboard/test/products', consulting);
  assert.equal(created.statusCode, 303, created.body.slice(0, 800));
  const id = /\/dashboard\/test\/products\/(prod_[A-Za-z0-9]+)\?notice=product_created/.exec(
    String(created.headers.location),
  )?.[1];
  assert.ok(id, String(created.headers.location));
  const read = await h.call('GET', `/v1/products/${id}`, { key });
  assert.equal(read.statusCode, 200);
  assert.deepEqual(
    [
      read.data.name,
      read.data.unitPrice,
      read.data.unit,
      read.data.nature,
      read.data.vatCategory,
      read.data.description,
    ],
    ['Conseil', '1200.50', 'DAY', 'services', 'standard', 'Une journée de conseil'],
  );
  const page = await client.get(`/dashboard/test/products/${id}?notice=product_created`);
  assert.match(page.body, /Le produit est créé/);
  assert.match(page.body, /data-unit-price="1200.50">1200,50</);
  assert.match(page.body, /Normal \(20 % en métropole\)/);
  const list = await client.get('/dashboard/test/products');
  assert.match(list.body, new RegExp(`data-product="${id}"[\\s\\S]*?Conseil`));
  assert.match(list.body, /aria-current="page">Produits<\/a>/);
  const goods = await client.get('/dashboard/test/products?nature=goods');
  assert.ok(!goods.body.includes(`data-product="${id}"`), 'the nature filter applies');
});

test('a refused creation shows the message and field beside the form and keeps the typed values', async () => {
  const { client, companyId } = await signedIn(h, 'en');
  const key = await h.key(companyId);
  await client.get('/dashboard/test/products/new');
  const refused = await client.post('/dashboard/test/products', { ...consulting, unitPrice: '12,5,0' });
  assert.equal(refused.statusCode, 422, refused.body.slice(0, 500));
  assert.match(
    refused.body,
    /id="refusal" data-code="validation_error" data-param="unitPrice">`unitPrice` is a decimal string/,
  );
  assert.match(refused.body, /id="unitPrice" name="unitPrice" value="12,5,0"[^>]*aria-invalid="true"/);
  assert.match(refused.body, /<option value="DAY" selected>/, 'the chosen unit stays');
  const forgedUnit = await client.post('/dashboard/test/products', { ...consulting, unit: 'XYZ' });
  assert.equal(forgedUnit.statusCode, 422);
  assert.match(forgedUnit.body, /data-param="unit"/);
  assert.equal((await h.call('GET', '/v1/products', { key })).data.data.length, 0, 'nothing was created');
});

test('the edit form changes the product; CSRF is required; another company’s product is a 404', async () => {
  const { client, companyId } = await signedIn(h, 'en');
  const key = await h.key(companyId);
  await client.get('/dashboard/test/products/new');
  const created = await client.post('/dashboard/test/products', consulting);
  const id = /(prod_[A-Za-z0-9]+)/.exec(String(created.headers.location))![1]!;
  const edit = await client.get(`/dashboard/test/products/${id}/edit`);
  assert.match(edit.body, /id="unitPrice" name="unitPrice" value="1200.50"/);
  const forged = await client.post(`/dashboard/test/products/${id}`, { ...consulting, name: 'Forged' }, { csrf: null });
  assert.equal(forged.statusCode, 403);
  const saved = await client.post(`/dashboard/test/products/${id}`, {
    ...consulting,
    name: 'Conseil senior',
    description: '',
    unitPrice: '1500',
    vatCategory: 'reduced',
  });
  assert.equal(saved.statusCode, 303, saved.body.slice(0, 500));
  const read = await h.call('GET', `/v1/products/${id}`, { key });
  assert.deepEqual(
    [read.data.name, read.data.unitPrice, read.data.vatCategory, read.data.description],
    ['Conseil senior', '1500', 'reduced', null],
  );
  const other = await signedIn(h, 'en');
  assert.equal((await other.client.get(`/dashboard/test/products/${id}`)).statusCode, 404);
  assert.equal((await other.client.get(`/dashboard/test/products/${id}/edit`)).statusCode, 404);
  await other.client.get('/dashboard/test/products');
  assert.equal((await other.client.post(`/dashboard/test/products/${id}`, consulting)).statusCode, 404);
  assert.equal((await h.call('GET', `/v1/products/${id}`, { key })).data.name, 'Conseil senior');
});

test('the list pages by 25, the next link keeping the filter; English renders', async () => {
  const { client, companyId } = await signedIn(h, 'en');
  const start = h.clock.now().getTime();
  for (let i = 0; i < 26; i++) {
    const ctx = contextFor(companyId, false, new Date(start + i * 1000));
    await createProduct(h.deps, ctx, {
      name: `Article ${String(i).padStart(2, '0')}`,
      unitPrice: '1',
      nature: 'goods',
    });
  }
  const first = await client.get('/dashboard/test/products?nature=goods');
  assert.match(first.body, /<h1>Products<\/h1>/);
  assert.equal((first.body.match(/data-product="/g) ?? []).length, 25);
  const next = /<a rel="next" href="([^"]+)">Older/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
  assert.ok(next?.includes('nature=goods'), next);
  const second = await client.get(next!);
  assert.equal((second.body.match(/data-product="/g) ?? []).length, 1);
  assert.match(second.body, /Article 00/);
});

test('deleting a product: confirmed on its own page, then gone from the list and read as deleted', async () => {
  const { client, companyId } = await signedIn(h, 'en');
  const key = await h.key(companyId);
  await client.get('/dashboard/test/products/new');
  const created = await client.post('/dashboard/test/products', consulting);
  const id = /(prod_[A-Za-z0-9]+)/.exec(String(created.headers.location))![1]!;
  const confirm = await client.get(`/dashboard/test/products/${id}/delete`);
  assert.match(confirm.body, /Delete the product Conseil\?/);
  assert.equal((await h.call('GET', `/v1/products/${id}`, { key })).data.deleted ?? false, false);
  const deleted = await client.post(`/dashboard/test/products/${id}/delete`, {});
  assert.equal(deleted.statusCode, 303, deleted.body.slice(0, 300));
  assert.equal(deleted.headers.location, `/dashboard/test/products/${id}?notice=product_deleted`);
  assert.match((await client.get(String(deleted.headers.location))).body, /The product is deleted\./);
  assert.equal((await h.call('GET', `/v1/products/${id}`, { key })).data.deleted, true);
  assert.ok(!(await client.get('/dashboard/test/products')).body.includes(`data-product="${id}"`), 'no longer listed');
});
