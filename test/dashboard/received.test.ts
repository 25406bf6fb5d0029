/**
 * The received-invoices inbox over `app.inject`: the groups, a received invoice's page with its
 * PDF and validation, and each answer as a form with CSRF going to the supplier through the
 * platform (a pa-simulator speaking AFNOR), as the API's route does.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomIp, startHarness, type Harness } from '../support/harness.js';
import { closeValidation } from '../../src/received/official-validation.js';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import { connectHeadOffice } from '../deposits/support.js';
import { seller } from '../invoices/support.js';
import { ownFacturX, receive } from '../received/support.js';
import { PageClient, userOf } from './support.js';

let h: Harness;
let platform: CheckedSimulator;
before(async () => {
  h = await startHarness();
  platform = await startCheckedSimulator();
});
after(async () => {
  await platform.stop();
  await closeValidation();
  await h.close();
});

/** How many CDAR statuses were deposited on the simulator. */
const cdarDeposits = () =>
  platform.exchanges.filter(
    (exchange) =>
      exchange.path === '/flow-service/v1/flows' &&
      exchange.method === 'POST' &&
      (exchange.requestBody as any)?.flowInfo?.flowSyntax === 'CDAR',
  ).length;

/** The answers sent for a received invoice (its first entry is its own arrival), each with its platform flow. */
async function answersSent(key: string, id: string): Promise<{ status: string; reasonCode: string | null }[]> {
  const history = (await h.call('GET', `/v1/received-invoices/${id}/history`, { key })).data.data as any[];
  return history
    .slice(1)
    .filter((entry) => entry.platformFlowId)
    .map((entry) => ({ status: entry.status, reasonCode: entry.reasonCode }));
}

test('the inbox: approve and refuse through the platform, with the reform reason codes, CSRF required', async () => {
  const { key, companyId } = await seller(h);
  await connectHeadOffice(h, key, platform);
  const user = await userOf(h.deps, companyId);
  const client = new PageClient(h, randomIp(), null);
  assert.equal((await client.logIn(user.email, user.password)).statusCode, 303);

  const first = (await receive(h, key, await ownFacturX({ number: 'F2026-DASH-0001' }))).data;
  const second = (await receive(h, key, await ownFacturX({ number: 'F2026-DASH-0002' }))).data;
  const inbox = await client.get('/dashboard/test/received');
  assert.equal(inbox.statusCode, 200);
  assert.match(inbox.body, /<h1>Factures reçues<\/h1>/);
  assert.match(inbox.body, /Nouvelles/);
  assert.match(inbox.body, new RegExp(`data-received="${first.id}"`));
  assert.match(inbox.body, new RegExp(`data-received="${second.id}"`));

  const page = await client.get(`/dashboard/test/received/${first.id}`);
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<iframe class="pdf" src="\/dashboard\/test\/received\/[^"]+\/pdf"/);
  assert.match(page.body, /id="validation" data-conformant="(true|false|null)"/);
  assert.match(page.body, /<button type="submit">Approuver<\/button>/);
  assert.match(page.body, /<select id="answer-refuse-code" name="reasonCode" required>[\s\S]*?TX_TVA_ERR/);
  const pdf = await client.get(`/dashboard/test/received/${first.id}/pdf`);
  assert.equal(pdf.statusCode, 200);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  assert.match(String(pdf.headers['content-security-policy']), /frame-ancestors 'self'/);

  const forged = await client.post(`/dashboard/test/received/${first.id}/approve`, {}, { csrf: null });
  assert.equal(forged.statusCode, 403);
  assert.equal((await h.call('GET', `/v1/received-invoices/${first.id}`, { key })).data.status, 'received');
  assert.equal(cdarDeposits(), 0, 'nothing left for a forged form');

  const approved = await client.post(`/dashboard/test/received/${first.id}/approve`);
  assert.equal(approved.statusCode, 303, approved.body.slice(0, 400));
  assert.equal(approved.headers.location, `/dashboard/test/received/${first.id}?notice=answered`);
  assert.equal((await h.call('GET', `/v1/received-invoices/${first.id}`, { key })).data.status, 'approved');

  await client.get(`/dashboard/test/received/${second.id}`);
  const noCode = await client.post(`/dashboard/test/received/${second.id}/refuse`, { reason: 'Taux faux' });
  assert.equal(noCode.statusCode, 400, 'the reason code is required, as on the API');
  assert.match(noCode.body, /class="error"/);
  const refused = await client.post(`/dashboard/test/received/${second.id}/refuse`, {
    reasonCode: 'TX_TVA_ERR',
    reason: 'Taux faux',
  });
  assert.equal(refused.statusCode, 303, refused.body.slice(0, 400));
  assert.equal((await h.call('GET', `/v1/received-invoices/${second.id}`, { key })).data.status, 'refused');

  assert.equal(cdarDeposits(), 2, 'each answer reached the platform once');
  assert.deepEqual(await answersSent(key, first.id), [{ status: 'fr:205', reasonCode: null }]);
  assert.deepEqual(await answersSent(key, second.id), [{ status: 'fr:210', reasonCode: 'TX_TVA_ERR' }]);
  const answered = await client.get('/dashboard/test/received?status=approved');
  assert.match(answered.body, new RegExp(`data-received="${first.id}"`));
  assert.ok(!answered.body.includes(`data-received="${second.id}"`));
  const done = await client.get(`/dashboard/test/received/${second.id}`);
  assert.match(done.body, /Aucune réponse n’est possible dans cet état/);
  assert.match(done.body, /data-lifecycle="fr:210"[^>]*>[\s\S]*?<strong>Refusée<\/strong>[\s\S]*?TX_TVA_ERR/);

  const other = await userOf(h.deps, (await seller(h)).companyId);
  const stranger = new PageClient(h, randomIp(), 'en');
  await stranger.logIn(other.email, other.password);
  assert.equal((await stranger.get(`/dashboard/test/received/${first.id}`)).statusCode, 404);
  await stranger.get('/dashboard/test/received');
  assert.equal((await stranger.post(`/dashboard/test/received/${first.id}/dispute`)).statusCode, 404);
});
