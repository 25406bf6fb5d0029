/**
 * The dashboard in French first, and its invoice pages over `app.inject`: the list with its
 * filters, a document's page (statuses, rejection and next step in words), and its actions as
 * forms with CSRF calling the API's use cases.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../support/harness.js';
import { randomIp } from '../support/harness.js';
import { PageClient, userOf } from './support.js';
import { customer, documentHarness, finalizedInvoice, frenchBuyer, readyDraft, seller } from '../invoices/support.js';
import { centsOf } from '../../src/dashboard/pages/invoices.js';
import { createFileWorker } from '../../src/invoices/generation.js';
import { testCacheDir } from '../einvoice/support.js';

let h: Harness;
before(async () => {
  h = await documentHarness();
});
after(() => h.close());

/** A seller company with a tax profile, and a user of it logged in to the dashboard. */
async function sellerSignedIn(lang: 'fr' | 'en' | null = null) {
  const { companyId, key } = await seller(h);
  const user = await userOf(h.deps, companyId);
  const client = new PageClient(h, randomIp(), lang);
  const response = await client.logIn(user.email, user.password);
  assert.equal(response.statusCode, 303, response.body.slice(0, 300));
  return { companyId, key, client };
}

test('French by default; the language switch is remembered in a cookie and only goes back into the dashboard', async () => {
  const visitor = new PageClient(h, randomIp(), null);
  const login = await visitor.get('/dashboard/login');
  assert.match(login.body, /<html lang="fr">/);
  assert.match(login.body, /<button type="submit">Se connecter<\/button>/);
  const switched = await visitor.get('/dashboard/language/en?back=%2Fdashboard%2Flogin');
  assert.equal(switched.statusCode, 303);
  assert.equal(switched.headers.location, '/dashboard/login');
  assert.match(String(switched.headers['set-cookie']), /__Host-facteur_lang=en; Path=\/; Max-Age=\d+; Secure/);
  const english = await visitor.get('/dashboard/login');
  assert.match(english.body, /<html lang="en">/);
  assert.match(english.body, /<button type="submit">Log in<\/button>/);
  const elsewhere = await visitor.get('/dashboard/language/fr?back=https%3A%2F%2Fevil.example%2F');
  assert.equal(elsewhere.headers.location, '/dashboard/test/keys', 'never an open redirect');
  assert.equal((await visitor.get('/dashboard/language/de')).statusCode, 404);
});

test('every signed-in page renders in French and in English, with dates and numbers in the locale', async () => {
  const { client } = await sellerSignedIn();
  const account = await client.get('/dashboard/test/account');
  assert.equal(account.statusCode, 200);
  assert.match(account.body, /<html lang="fr">/);
  assert.match(account.body, /<h1>Compte<\/h1>/);
  assert.match(account.body, /Raison sociale/);
  // fr-FR groups thousands with a narrow no-break space, and writes month names in French.
  assert.match(account.body, /\d{1,3}[\u202f\u00a0]\d{3} documents de production/);
  assert.match(account.body, /<time datetime="[^"]+">\d{1,2} (octobre|novembre|décembre) 2026/);
  for (const path of ['keys', 'webhooks', 'events', 'invoices', 'credit-notes', 'password']) {
    const page = await client.get(`/dashboard/test/${path}`);
    assert.equal(page.statusCode, 200, path);
    assert.match(page.body, /<html lang="fr">/, path);
    assert.match(page.body, /Se déconnecter/, path);
  }
  await client.get('/dashboard/language/en?back=%2Fdashboard%2Ftest%2Faccount');
  const english = await client.get('/dashboard/test/account');
  assert.match(english.body, /<html lang="en">/);
  assert.match(english.body, /<h1>Account<\/h1>/);
  assert.match(english.body, /\d{1,3},\d{3} live documents/);
  assert.match(english.body, /<time datetime="[^"]+">\d{1,2} (October|November|December) 2026/);
});

test("a document's page names the rule set that validated its files", async (t) => {
  const { companyId, key, client } = await sellerSignedIn();
  const fileWorker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds: [companyId] });
  t.after(() => fileWorker.stop());
  const invoice = await finalizedInvoice(h, key);
  assert.equal(await fileWorker.drain(), 1);
  const page = await client.get(`/dashboard/test/invoices/${invoice.id}`);
  assert.equal(page.statusCode, 200);
  // Issued 15 October 2026 (the harness's clock): FNFE-MPE 1.4.0.03, in force from 1 September.
  assert.match(page.body, /data-rule-set="1\.4\.0\.03"/);
  assert.match(
    page.body,
    /Validés par les règles officielles en vigueur à la date d’émission : FNFE-MPE 1\.4\.0\.03\./,
  );
});

test('what a person types as an amount is read as cents', () => {
  assert.equal(centsOf('1 234,56'), 123456);
  assert.equal(centsOf('357.6'), 35760);
  assert.equal(centsOf('12\u202f000 €'), 1200000);
  assert.ok(Number.isNaN(centsOf('12,345')));
  assert.ok(Number.isNaN(centsOf('-5')));
});

test('invoices: finalized from the dashboard (CSRF required), listed with filters, amounts in euros, names escaped', async () => {
  const { key, client } = await sellerSignedIn();
  const hostile = await customer(h, key, { ...frenchBuyer, name: '<script>alert(1)</script> SARL' });
  const draft = await readyDraft(h, key, { customerId: hostile });

  const page = await client.get(`/dashboard/test/invoices/${draft.id}`);
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /Facture \(brouillon\)/);

  const forged = await client.post(`/dashboard/test/invoices/${draft.id}/finalize`, {}, { csrf: null });
  assert.equal(forged.statusCode, 403);
  assert.match(forged.body, /data-code="csrf_token_invalid"/);
  const stillDraft = await h.call('GET', `/v1/invoices/${draft.id}`, { key });
  assert.equal(stillDraft.data.status, 'draft', 'nothing happened without the token');

  const finalized = await client.post(`/dashboard/test/invoices/${draft.id}/finalize`);
  assert.equal(finalized.statusCode, 303, finalized.body.slice(0, 500));
  assert.equal(finalized.headers.location, `/dashboard/test/invoices/${draft.id}?notice=finalized`);
  const read = await h.call('GET', `/v1/invoices/${draft.id}`, { key });
  assert.equal(read.data.status, 'finalized');
  assert.ok(read.data.number);
  const shown = await client.get(`/dashboard/test/invoices/${draft.id}?notice=finalized`);
  assert.match(shown.body, /La facture est finalisée/);
  assert.ok(!shown.body.includes('<script>alert(1)</script>'), 'the name is escaped');
  assert.match(shown.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt; SARL/);
  assert.match(shown.body, /357,60[\u202f\u00a0]€/, 'the total in French');
  assert.match(
    shown.body,
    /<iframe class="pdf" src="\/dashboard\/test\/invoices\/[^"]+\/files\/pdf"|data-files="pending"/,
  );

  const other = await readyDraft(h, key);
  const list = await client.get('/dashboard/test/invoices');
  assert.match(list.body, new RegExp(`data-document="${draft.id}"[\\s\\S]*?${read.data.number}`));
  assert.match(list.body, new RegExp(`data-document="${other.id}"`));
  const drafts = await client.get('/dashboard/test/invoices?status=draft');
  assert.match(drafts.body, new RegExp(`data-document="${other.id}"`));
  assert.ok(!drafts.body.includes(`data-document="${draft.id}"`), 'the status filter applies');
  const byCustomer = await client.get(`/dashboard/test/invoices?customer=${hostile}`);
  assert.ok(byCustomer.body.includes(`data-document="${draft.id}"`));
  assert.ok(!byCustomer.body.includes(`data-document="${other.id}"`), 'the customer filter applies');
  const byNumber = await client.get(`/dashboard/test/invoices?number=${encodeURIComponent(read.data.number)}`);
  assert.ok(byNumber.body.includes(`data-document="${draft.id}"`));
  assert.ok(!byNumber.body.includes(`data-document="${other.id}"`), 'the number search applies');
  const later = await client.get('/dashboard/test/invoices?date_from=2099-01-01');
  assert.match(later.body, /Rien ne correspond à ces filtres/);

  const again = await client.post(`/dashboard/test/invoices/${draft.id}/finalize`);
  assert.ok(again.statusCode >= 400 && again.statusCode < 500, 'a refusal of the use case is shown on the page');
  assert.match(again.body, /class="error"/);
});

test('a rejected invoice shows its category and the next step in words; sending is an action of the page', async () => {
  const { key, client } = await sellerSignedIn();
  const draft = await readyDraft(h, key);
  await client.get(`/dashboard/test/invoices/${draft.id}`);
  const finalized = await client.post(`/dashboard/test/invoices/${draft.id}/finalize`);
  assert.equal(finalized.statusCode, 303, /class="error"[^<]*/.exec(finalized.body)?.[0]);
  await client.get(`/dashboard/test/invoices/${draft.id}`);
  const sent = await client.post(`/dashboard/test/invoices/${draft.id}/send`);
  assert.equal(sent.statusCode, 303, /class="error"[^<]*<[^<]*/.exec(sent.body)?.[0]);
  assert.equal((await h.call('GET', `/v1/invoices/${draft.id}`, { key })).data.transmissionStatus, 'sending');
  for (const body of [{ status: 'fr:200' }, { status: 'fr:210', reasonCode: 'TX_TVA_ERR', reason: 'Taux erroné' }]) {
    const simulated = await h.call('POST', `/v1/sandbox/invoices/${draft.id}/simulate`, { key, body });
    assert.equal(simulated.statusCode, 200, simulated.body);
  }
  const page = await client.get(`/dashboard/test/invoices/${draft.id}`);
  assert.match(page.body, /data-category="refused_by_buyer"/);
  assert.match(page.body, /id="next-step">Contactez le client ; aucun nouveau dépôt n’est fait automatiquement\./);
  assert.match(page.body, /Taux erroné/);
  assert.match(page.body, /data-lifecycle="fr:200"[^>]*>[^<]*<time[^>]*>[^<]*<\/time> · <strong>Déposée<\/strong>/);
  assert.match(page.body, /data-lifecycle="fr:210"[\s\S]*?<strong>Refusée<\/strong>[\s\S]*?\(acheteur\)/);
  assert.match(page.body, /data-status="refused"/);

  await client.get('/dashboard/language/en?back=%2Fdashboard%2Ftest%2Fkeys');
  const english = await client.get(`/dashboard/test/invoices/${draft.id}`);
  assert.match(english.body, /id="next-step">Contact the customer; no new deposit is made automatically\./);
});

test('a credit note issued from the invoice page: a draft crediting the whole invoice, with its reason, linked both ways', async () => {
  const { key, client } = await sellerSignedIn();
  const draft = await readyDraft(h, key);
  const draftPage = await client.get(`/dashboard/test/invoices/${draft.id}`);
  assert.ok(!draftPage.body.includes('id="issue-credit-note"'), 'a draft offers no credit note');
  const early = await client.post(`/dashboard/test/invoices/${draft.id}/credit-note`);
  assert.equal(early.statusCode, 400);
  assert.match(early.body, /class="error"/);
  assert.equal((await h.call('GET', `/v1/credit-notes?relatedInvoiceId=${draft.id}`, { key })).data.data.length, 0);

  await client.post(`/dashboard/test/invoices/${draft.id}/finalize`);
  const invoice = (await h.call('GET', `/v1/invoices/${draft.id}`, { key })).data;
  const page = await client.get(`/dashboard/test/invoices/${draft.id}`);
  assert.match(page.body, /id="issue-credit-note"[\s\S]*?Émettre un avoir pour cette facture/);

  const forged = await client.post(`/dashboard/test/invoices/${draft.id}/credit-note`, { notes: 'x' }, { csrf: null });
  assert.equal(forged.statusCode, 403);
  const tooLong = await client.post(`/dashboard/test/invoices/${draft.id}/credit-note`, { notes: 'a'.repeat(5001) });
  assert.equal(tooLong.statusCode, 400);
  assert.match(tooLong.body, /5001/);
  assert.equal((await h.call('GET', `/v1/credit-notes?relatedInvoiceId=${draft.id}`, { key })).data.data.length, 0);

  const issued = await client.post(`/dashboard/test/invoices/${draft.id}/credit-note`, {
    notes: 'Remise commerciale accordée',
  });
  assert.equal(issued.statusCode, 303, /class="error"[^<]*/.exec(issued.body)?.[0]);
  const [, creditNoteId] = /^\/dashboard\/test\/credit-notes\/([^?]+)\?notice=credit_note_created$/.exec(
    issued.headers.location as string,
  )!;
  const creditNote = (await h.call('GET', `/v1/credit-notes/${creditNoteId}`, { key })).data;
  assert.equal(creditNote.status, 'draft');
  assert.equal(creditNote.relatedInvoiceId, invoice.id);
  assert.equal(creditNote.relatedInvoiceNumber, invoice.number);
  assert.deepEqual(
    creditNote.lines.map((line: { description: string; quantity: string }) => [line.description, line.quantity]),
    invoice.lines.map((line: { description: string; quantity: string }) => [line.description, line.quantity]),
    'the invoice lines, as issued',
  );
  assert.equal(creditNote.notes, 'Remise commerciale accordée');
  const shown = await client.get(issued.headers.location as string);
  assert.match(shown.body, /Le brouillon d’avoir couvre toute la facture/);
  assert.match(shown.body, new RegExp(`data-related-invoice="${invoice.id}">${invoice.number}<`));
  assert.ok(!shown.body.includes('id="issue-credit-note"'), 'a credit note offers no credit note of its own');

  const finalized = await client.post(`/dashboard/test/credit-notes/${creditNoteId}/finalize`);
  assert.equal(finalized.statusCode, 303, /class="error"[^<]*/.exec(finalized.body)?.[0]);
  const numbered = (await h.call('GET', `/v1/credit-notes/${creditNoteId}`, { key })).data;
  assert.ok(numbered.number);
  assert.equal(numbered.total, invoice.total, 'the whole invoice is credited');
});

test('another company reaches none of the documents, whatever the id in the URL', async () => {
  const alice = await sellerSignedIn('en');
  const bob = await sellerSignedIn('en');
  const draft = await readyDraft(h, alice.key);
  const list = await bob.client.get('/dashboard/test/invoices');
  assert.ok(!list.body.includes(draft.id));
  assert.equal((await bob.client.get(`/dashboard/test/invoices/${draft.id}`)).statusCode, 404);
  assert.equal((await bob.client.get(`/dashboard/test/invoices/${draft.id}/files/pdf`)).statusCode, 404);
  assert.equal((await bob.client.post(`/dashboard/test/invoices/${draft.id}/finalize`)).statusCode, 404);
  assert.equal((await bob.client.get(`/dashboard/live/invoices/${draft.id}`)).statusCode, 404, 'nor across modes');
  const read = await h.call('GET', `/v1/invoices/${draft.id}`, { key: alice.key });
  assert.equal(read.data.status, 'draft');
});

test('e-reporting: the declarations page, what is due next, in French', async () => {
  const { client } = await sellerSignedIn();
  const page = await client.get('/dashboard/test/ereporting');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<h2>Prochaine échéance<\/h2>/);
  assert.match(page.body, /<select id="state" name="state">[\s\S]*?à transmettre/);
  const filtered = await client.get('/dashboard/test/ereporting?state=rejected');
  assert.equal(filtered.statusCode, 200);
  const shownStates = [...filtered.body.matchAll(/<td><span data-state="([a-z]+)"/g)].map((match) => match[1]);
  assert.ok(
    shownStates.every((shown) => shown === 'rejected'),
    'the state filter applies',
  );
});
