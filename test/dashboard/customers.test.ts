/**
 * The dashboard's customer pages over `app.inject`: the list and its keyset pages, a customer's
 * page, the create and edit forms calling the API's use cases (refusals shown beside the form with
 * the typed values kept), the CSV import with its report, CSRF, the company's own customers only.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, randomIp, startHarness, type Harness } from '../support/harness.js';
import { PageClient, signedIn, userOf } from './support.js';
import { customer, readyDraft, seller } from '../invoices/support.js';
import { createCustomer } from '../../src/customers/service.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const buyer = {
  type: 'company',
  name: 'Atelier Lumière SAS',
  email: 'compta@atelier.example',
  siret: '73282932000017',
  'address.line1': '12 rue de la Paix',
  'address.postalCode': '75002',
  'address.city': 'Paris',
  'address.country': 'FR',
};

test('a customer created through the form is read back by the API, listed, shown with its identifiers', async () => {
  const { client, companyId } = await signedIn(h, null);
  const key = await h.key(companyId);
  const form = await client.get('/dashboard/test/customers/new');
  assert.equal(form.statusCode, 200);
  assert.match(form.body, /<h1>Nouveau client<\/h1>/, 'French by default');
  const created = await client.post('/dashboard/test/customers', buyer);
  assert.equal(created.statusCode, 303, created.body.slice(0, 800));
  const id = /\/dashboard\/test\/customers\/(cus_[A-Za-z0-9]+)\?notice=customer_created/.exec(
    String(created.headers.location),
  )?.[1];
  assert.ok(id, String(created.headers.location));

  const read = await h.call('GET', `/v1/customers/${id}`, { key });
  assert.equal(read.statusCode, 200);
  assert.equal(read.data.name, 'Atelier Lumière SAS');
  assert.equal(read.data.siret, '73282932000017');
  assert.equal(read.data.siren, '732829320', 'derived from the SIRET by the service');
  assert.deepEqual(
    { line1: read.data.address.line1, postalCode: read.data.address.postalCode, city: read.data.address.city },
    { line1: '12 rue de la Paix', postalCode: '75002', city: 'Paris' },
  );

  const page = await client.get(`/dashboard/test/customers/${id}?notice=customer_created`);
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /Le client est créé/);
  assert.match(page.body, /<code>73282932000017<\/code>/);
  assert.match(page.body, /non demandé en mode test/);
  assert.match(page.body, /Aucune facture à ce client/);

  const list = await client.get('/dashboard/test/customers');
  assert.match(list.body, new RegExp(`data-customer="${id}"[\\s\\S]*?Atelier Lumière SAS`));
  assert.match(list.body, /aria-current="page">Clients<\/a>/, 'the navigation links the page');
  const live = await client.get('/dashboard/live/customers');
  assert.ok(!live.body.includes(id), 'a test customer is not in the live list');
});

test('a refused creation shows the code, message and field beside the form and keeps the typed values', async () => {
  const { client, companyId } = await signedIn(h, 'en');
  const key = await h.key(companyId);
  await client.get('/dashboard/test/customers/new');
  const refused = await client.post('/dashboard/test/customers', { ...buyer, siret: '73282932000018' });
  assert.equal(refused.statusCode, 422, refused.body.slice(0, 500));
  assert.match(
    refused.body,
    /<p class="error" role="alert" id="refusal" data-code="validation_error" data-param="siret">/,
  );
  assert.match(refused.body, /id="siret" name="siret" value="73282932000018"[^>]*aria-invalid="true"/);
  assert.match(refused.body, /id="address.city" name="address.city" value="Paris"/, 'the other typed values stay');
  const blank = await client.post('/dashboard/test/customers', { ...buyer, name: '  ' });
  assert.equal(blank.statusCode, 422);
  assert.match(blank.body, /data-param="name"/);
  const none = await h.call('GET', '/v1/customers', { key });
  assert.equal(none.data.data.length, 0, 'nothing was created');
});

test('the edit form changes the customer; a blank field clears it; another company’s customer is a 404', async () => {
  const { client, companyId } = await signedIn(h, 'en');
  const key = await h.key(companyId);
  await client.get('/dashboard/test/customers/new');
  const created = await client.post('/dashboard/test/customers', { ...buyer, email: 'old@atelier.example' });
  const id = /(cus_[A-Za-z0-9]+)/.exec(String(created.headers.location))![1]!;

  const edit = await client.get(`/dashboard/test/customers/${id}/edit`);
  assert.equal(edit.statusCode, 200);
  assert.match(edit.body, /id="email" name="email" value="old@atelier.example"/);
  const saved = await client.post(`/dashboard/test/customers/${id}`, {
    ...buyer,
    name: 'Atelier Lumière Paris',
    email: '',
    'address.city': 'Paris 2e',
  });
  assert.equal(saved.statusCode, 303, saved.body.slice(0, 500));
  assert.equal(saved.headers.location, `/dashboard/test/customers/${id}?notice=customer_updated`);
  const read = await h.call('GET', `/v1/customers/${id}`, { key });
  assert.equal(read.data.name, 'Atelier Lumière Paris');
  assert.equal(read.data.email, null, 'the emptied field is cleared');
  assert.equal(read.data.address.city, 'Paris 2e');
  assert.equal(read.data.siret, '73282932000017', 'unchanged fields are kept');

  const refused = await client.post(`/dashboard/test/customers/${id}`, { ...buyer, email: 'not an address' });
  assert.equal(refused.statusCode, 422);
  assert.match(refused.body, /data-param="email"/);
  assert.match(refused.body, /value="not an address"/);

  const other = await signedIn(h, 'en');
  for (const url of [`/dashboard/test/customers/${id}`, `/dashboard/test/customers/${id}/edit`]) {
    const page = await other.client.get(url);
    assert.equal(page.statusCode, 404, url);
    assert.ok(!page.body.includes('Atelier'), 'nothing of it is shown');
  }
  await other.client.get('/dashboard/test/customers');
  const write = await other.client.post(`/dashboard/test/customers/${id}`, { ...buyer, name: 'Taken over' });
  assert.equal(write.statusCode, 404);
  assert.equal((await h.call('GET', `/v1/customers/${id}`, { key })).data.name, 'Atelier Lumière Paris');
});

test('a form without its CSRF token changes nothing', async () => {
  const { client, companyId } = await signedIn(h, 'en');
  const key = await h.key(companyId);
  await client.get('/dashboard/test/customers/new');
  const forged = await client.post('/dashboard/test/customers', buyer, { csrf: null });
  assert.equal(forged.statusCode, 403);
  assert.match(forged.body, /data-code="csrf_token_invalid"/);
  const wrong = await client.post(
    '/dashboard/test/customers/import',
    { csv: 'name\nForged' },
    { csrf: 'x'.repeat(43) },
  );
  assert.equal(wrong.statusCode, 403);
  assert.equal((await h.call('GET', '/v1/customers', { key })).data.data.length, 0);
});

test('the list pages by 25 with a working next link', async () => {
  const { client, companyId } = await signedIn(h, 'en');
  const start = h.clock.now().getTime();
  for (let i = 0; i < 27; i++) {
    const ctx = contextFor(companyId, false, new Date(start + i * 1000));
    await createCustomer(h.deps, ctx, { name: `Client ${String(i).padStart(2, '0')}` });
  }
  const first = await client.get('/dashboard/test/customers');
  assert.equal((first.body.match(/data-customer="/g) ?? []).length, 25);
  assert.match(first.body, /Client 26/, 'newest first');
  assert.ok(!first.body.includes('Client 01<'), 'the oldest are on the next page');
  const next = /<a rel="next" href="([^"]+)">Older/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
  assert.ok(next, 'a next link');
  const second = await client.get(next);
  assert.equal(second.statusCode, 200);
  assert.equal((second.body.match(/data-customer="/g) ?? []).length, 2);
  assert.match(second.body, /Client 00/);
  assert.match(second.body, /Client 01/);
  assert.ok(!second.body.includes('rel="next"'), 'the last page');
  assert.match(second.body, /← Newest/);
});

test('a CSV import with one good and one bad line reports both, and imports the good one', async () => {
  const { client, companyId } = await signedIn(h, 'en');
  const key = await h.key(companyId);
  const form = await client.get('/dashboard/test/customers/import');
  assert.equal(form.statusCode, 200);
  assert.match(form.body, /<textarea id="csv" name="csv"/);
  const csv = 'name;siren;email\nBoulangerie Dupont;732829320;contact@dupont.example\nMauvais SIREN;123456789;\n';
  const report = await client.post('/dashboard/test/customers/import', { csv });
  assert.equal(report.statusCode, 200, report.body.slice(0, 500));
  assert.match(report.body, /data-count="lines">2 lines read/);
  assert.match(report.body, /data-count="imported">1 customers created/);
  assert.match(report.body, /data-count="refused">1 lines refused/);
  assert.match(
    report.body,
    /<tr data-line="3" data-code="validation_error"><td class="num">3<\/td>[\s\S]*?<code>siren<\/code>/,
  );
  const listed = await h.call('GET', '/v1/customers', { key });
  assert.deepEqual(
    listed.data.data.map((c: { name: string }) => c.name),
    ['Boulangerie Dupont'],
  );

  const badHeader = await client.post('/dashboard/test/customers/import', { csv: 'nom;siren\nX;1\n' });
  assert.ok(badHeader.statusCode >= 400 && badHeader.statusCode < 500);
  assert.match(badHeader.body, /id="refusal" data-code="[a-z_]+"/);
  assert.match(badHeader.body, />nom;siren\nX;1\n<\/textarea>/, 'the pasted file stays');
});

test('the customer pages render in French and in English', async () => {
  const { client } = await signedIn(h, null);
  const fr = await client.get('/dashboard/test/customers');
  assert.match(fr.body, /<h1>Clients<\/h1>/);
  assert.match(fr.body, /Importer un fichier CSV/);
  await client.get('/dashboard/language/en?back=%2Fdashboard%2Ftest%2Fcustomers');
  const en = await client.get('/dashboard/test/customers');
  assert.match(en.body, /<h1>Customers<\/h1>/);
  assert.match(en.body, /Import a CSV file/);
  const form = await client.get('/dashboard/test/customers/new');
  assert.match(form.body, /<label for="address.postalCode">Postal code<\/label>/);
});

test('a customer’s page lists its last invoices, linked to their pages', async () => {
  const { companyId, key } = await seller(h);
  const buyerId = await customer(h, key);
  const draft = await readyDraft(h, key, { customerId: buyerId });
  const other = await readyDraft(h, key);
  const user = await userOf(h.deps, companyId);
  const client = new PageClient(h, randomIp(), 'en');
  assert.equal((await client.logIn(user.email, user.password)).statusCode, 303);
  const page = await client.get(`/dashboard/test/customers/${buyerId}`);
  assert.equal(page.statusCode, 200);
  assert.match(
    page.body,
    new RegExp(`data-document="${draft.id}"><td><a href="/dashboard/test/invoices/${draft.id}">`),
  );
  assert.ok(!page.body.includes(other.id), 'only this customer’s invoices');
  assert.match(page.body, new RegExp(`href="/dashboard/test/invoices\\?customer=${buyerId}"`));
});

test('deleting a customer: a confirmation page, then a CSRF-protected POST; another company cannot', async () => {
  const { client, companyId } = await signedIn(h, 'fr');
  const key = await h.key(companyId);
  await client.get('/dashboard/test/customers/new');
  const created = await client.post('/dashboard/test/customers', buyer);
  const id = /(cus_[A-Za-z0-9]+)/.exec(String(created.headers.location))![1]!;
  const shown = await client.get(`/dashboard/test/customers/${id}`);
  assert.match(shown.body, new RegExp(`href="/dashboard/test/customers/${id}/delete">Supprimer le client<`));

  const confirm = await client.get(`/dashboard/test/customers/${id}/delete`);
  assert.equal(confirm.statusCode, 200);
  assert.match(confirm.body, /Supprimer le client Atelier Lumière SAS \?/);
  assert.match(confirm.body, new RegExp(`<form method="post" action="/dashboard/test/customers/${id}/delete"`));
  assert.equal(
    (await h.call('GET', `/v1/customers/${id}`, { key })).data.deleted ?? false,
    false,
    'a GET deletes nothing',
  );

  const forged = await client.post(`/dashboard/test/customers/${id}/delete`, {}, { csrf: null });
  assert.equal(forged.statusCode, 403);
  const other = await signedIn(h, 'en');
  await other.client.get('/dashboard/test/customers');
  assert.equal((await other.client.post(`/dashboard/test/customers/${id}/delete`, {})).statusCode, 404);
  assert.equal((await h.call('GET', `/v1/customers/${id}`, { key })).statusCode, 200, 'still there');

  const deleted = await client.post(`/dashboard/test/customers/${id}/delete`, {});
  assert.equal(deleted.statusCode, 303, deleted.body.slice(0, 300));
  assert.equal(deleted.headers.location, `/dashboard/test/customers/${id}?notice=customer_deleted`);
  const after = await client.get(String(deleted.headers.location));
  assert.match(after.body, /Le client est supprimé\./);
  assert.match(after.body, /data-deleted="true"/);
  const read = await h.call('GET', `/v1/customers/${id}`, { key });
  assert.equal(read.data.deleted, true, read.body);
  assert.equal((await client.get(`/dashboard/test/customers/${id}/delete`)).statusCode, 303, 'nothing left to confirm');
});
