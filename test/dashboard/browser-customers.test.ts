/**
 * The customer pages in Chromium (test/support/chromium.ts), in French, against the app served
 * over real HTTPS: a customer is created through the form, a refusal is corrected in place, and
 * the customer is read back by the API. Without a browser the test fails with the reason; it is
 * never skipped.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { startHarness, type Harness } from '../support/harness.js';
import { launchChromium, type LaunchedChromium } from '../support/chromium.js';
import { userOf } from './support.js';

let h: Harness;
let served: FastifyInstance;
let base = '';
let launched: LaunchedChromium | undefined;
let missingChromium: string | null = null;

before(async () => {
  h = await startHarness();
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
  await h.deps.pool.query(`delete from auth_failures where ip = 'sign-in:ip:127.0.0.1'`).catch(() => undefined);
  await h?.close();
});

test(
  'a customer created through the form in the browser, after a refusal corrected in place',
  { timeout: 120_000 },
  async () => {
    if (missingChromium) assert.fail(missingChromium);
    const { companyId, key } = await h.tenant();
    const user = await userOf(h.deps, companyId);
    const context = await launched!.browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/test/customers`);
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await Promise.all([page.waitForURL(/\/dashboard\/test\/customers$/), page.click('button[type=submit]')]);
    assert.match((await page.textContent('h1'))!, /Clients/);

    await Promise.all([page.waitForURL(/\/customers\/new$/), page.click(`a[href$="/customers/new"]`)]);
    await page.fill('[id="name"]', 'Atelier Lumière SAS');
    await page.fill('[id="siret"]', '73282932000018');
    await page.fill('[id="address.line1"]', '12 rue de la Paix');
    await page.fill('[id="address.postalCode"]', '75002');
    await page.fill('[id="address.city"]', 'Paris');
    await Promise.all([page.waitForLoadState('load'), page.click('#customer-form button[type=submit]')]);
    assert.equal(await page.getAttribute('#refusal', 'data-param'), 'siret', 'the refusal names the field');
    assert.equal(await page.getAttribute('[id="siret"]', 'aria-invalid'), 'true');
    assert.equal(await page.inputValue('[id="address.city"]'), 'Paris', 'what was typed stays');

    await page.fill('[id="siret"]', '73282932000017');
    await Promise.all([page.waitForURL(/notice=customer_created/), page.click('#customer-form button[type=submit]')]);
    assert.match((await page.textContent('.notice'))!, /Le client est créé/);
    assert.match((await page.textContent('#customer'))!, /73282932000017/);
    const id = /\/customers\/(cus_[A-Za-z0-9]+)/.exec(page.url())![1]!;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of [`customers/${id}`, 'customers/new', 'customers/import']) {
      await page.goto(`${base}/dashboard/test/${path}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > 390)
          .map((e) => `${e.tagName}.${e.className}#${e.id}:${Math.round(e.getBoundingClientRect().right)}`)
          .slice(0, 12)
          .join(' '),
      );
      assert.ok(width <= 390, `${path} fits a phone's width (${width}px): ${wide}`);
    }
    await context.close();

    const read = await h.call('GET', `/v1/customers/${id}`, { key });
    assert.equal(read.data.name, 'Atelier Lumière SAS');
    assert.equal(read.data.address.city, 'Paris');
  },
);
