/**
 * The received-invoices inbox in Chromium (test/support/chromium.ts), in French, against the app
 * served over real HTTPS: a received invoice is opened from the inbox and approved with its form,
 * and the answer reaches the pa-simulator (the company's platform) as a status 205.
 * Without a browser the test fails with the reason; it is never skipped.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { closeValidation } from '../../src/received/official-validation.js';
import { startHarness, type Harness } from '../support/harness.js';
import { launchChromium, type LaunchedChromium } from '../support/chromium.js';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import { connectHeadOffice } from '../deposits/support.js';
import { seller } from '../invoices/support.js';
import { ownFacturX, receive } from '../received/support.js';
import { userOf } from './support.js';

let h: Harness;
let platform: CheckedSimulator;
let served: FastifyInstance;
let base = '';
let launched: LaunchedChromium | undefined;
let missingChromium: string | null = null;

before(async () => {
  h = await startHarness();
  platform = await startCheckedSimulator();
  // The same service (same database and platform access) served over HTTPS for the browser.
  const tls = {
    cert: readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8'),
    key: readFileSync(process.env.FACTEUR_TEST_RECEIVER_KEY!, 'utf8'),
  };
  served = await buildApp(h.deps, { https: { ...tls, minVersion: 'TLSv1.2' } });
  await served.listen({ host: '127.0.0.1', port: 0 });
  base = `https://127.0.0.1:${(served.server.address() as AddressInfo).port}`;
  try {
    launched = await launchChromium();
  } catch (error) {
    missingChromium = `No Chromium could be launched: ${error instanceof Error ? error.message : String(error)}`;
  }
});

after(async () => {
  await launched?.close();
  await served?.close();
  await platform?.stop();
  await closeValidation();
  await h.deps.pool.query(`delete from auth_failures where ip = 'sign-in:ip:127.0.0.1'`).catch(() => undefined);
  await h?.close();
});

test('a received invoice approved from the inbox reaches the platform as a 205', { timeout: 240_000 }, async () => {
  if (missingChromium) assert.fail(missingChromium);
  const { key, companyId } = await seller(h);
  await connectHeadOffice(h, key, platform);
  const user = await userOf(h.deps, companyId);
  const received = (await receive(h, key, await ownFacturX({ number: 'F2026-NAV-0001' }))).data;

  const context = await launched!.browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  await page.goto(`${base}/dashboard/test/received`);
  assert.match((await page.textContent('button[type=submit]')) ?? '', /Se connecter/, 'French by default');
  await page.fill('#email', user.email);
  await page.fill('#password', user.password);
  await Promise.all([page.waitForURL(/\/dashboard\/test\/received$/), page.click('button[type=submit]')]);
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  assert.match((await page.textContent('h1'))!, /Factures reçues/);

  await Promise.all([
    page.waitForURL(new RegExp(`/received/${received.id}$`)),
    page.click(`tr[data-received="${received.id}"] a`),
  ]);
  await Promise.all([page.waitForURL(/notice=answered/), page.click('#answer-approve button[type=submit]')]);
  assert.match((await page.textContent('.notice'))!, /Votre réponse part vers le fournisseur/);
  assert.match((await page.textContent('dl.facts'))!, /approuvée/);
  await context.close();

  const read = await h.call('GET', `/v1/received-invoices/${received.id}`, { key });
  assert.equal(read.data.status, 'approved');
  const history = (await h.call('GET', `/v1/received-invoices/${received.id}/history`, { key })).data.data as any[];
  const sent = history.slice(1).filter((entry) => entry.platformFlowId);
  assert.deepEqual(
    sent.map((entry) => entry.status),
    ['fr:205'],
    'the approval left through the platform',
  );
  const deposits = platform.exchanges.filter(
    (exchange) =>
      exchange.path === '/flow-service/v1/flows' &&
      exchange.method === 'POST' &&
      (exchange.requestBody as any)?.flowInfo?.flowSyntax === 'CDAR',
  );
  assert.equal(deposits.length, 1, 'the simulator received the CDAR once');
});
