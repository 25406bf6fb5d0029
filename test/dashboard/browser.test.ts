/**
 * The dashboard in a real browser: Chromium (Debian's when present, else the npm one: see
 * test/support/chromium.ts) driven by playwright-core, against the app
 * served over real HTTPS on 127.0.0.1, webhooks delivered to a local HTTPS receiver. Screenshots
 * of the main pages go to $FACTEUR_ARTIFACTS_DIR (default: <tmp>/facteur-artifacts/dashboard),
 * outside the repository; their paths are printed.
 *
 * The steps share one server and run in order. When no browser can be launched, every step fails
 * with the reason; it is never skipped.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect, disconnect } from '../../src/db/database.js';
import { makeDeps, type Deps } from '../../src/deps.js';
import { createCompany, advanceSandboxClock } from '../../src/companies/service.js';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { createDeliveryClient, type DeliveryClient } from '../../src/webhooks/delivery-client.js';
import { startReceiver, stubResolver, type Receiver } from '../support/webhook-receiver.js';
import { userOf } from './support.js';
import { langCookie } from '../../src/dashboard/language.js';
import { launchChromium, type LaunchedChromium } from '../support/chromium.js';

const artifactsDir = process.env.FACTEUR_ARTIFACTS_DIR ?? join(tmpdir(), 'facteur-artifacts', 'dashboard');

let deps: Deps;
let closePool: () => Promise<void>;
let app: FastifyInstance;
let base = '';
let browser: Browser;
let launched: LaunchedChromium | undefined;
/** Why no browser could be launched: every step fails with it. */
let missingChromium: string | null = null;
let receiver: Receiver;
let client: DeliveryClient;
const workers = new Map<string, DeliveryWorker>();
const contexts: BrowserContext[] = [];

interface Tenant {
  companyId: string;
  user: { email: string; password: string };
  page: Page;
}
let alice: Tenant;
/** What Alice made, that Bob must never see. */
const made = { keyId: '', secret: '', endpointId: '', eventId: '' };

async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  console.log(`screenshot: ${path}`);
}

async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport });
  context.setDefaultTimeout(10_000);
  // The steps read the English texts; French, the default, has its own tests.
  await context.addCookies([{ name: langCookie, value: 'en', url: base, secure: true }]);
  contexts.push(context);
  return context.newPage();
}

async function tenant(name: string): Promise<Tenant> {
  const company = await createCompany(deps, { name, siren: '732829320', plan: 'essential' });
  workers.set(company.id, createDeliveryWorker(deps, { client, companies: [company.id] }));
  return { companyId: company.id, user: await userOf(deps, company.id), page: await newPage() };
}

async function logIn(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${base}/dashboard/`);
  assert.match(page.url(), /\/dashboard\/login/, 'a signed-out visitor is sent to the log-in page');
  await page.fill('#email', user.email);
  await page.fill('#password', user.password);
  await Promise.all([page.waitForURL(/\/dashboard\/test\/keys$/), page.click('button[type=submit]')]);
}

async function api(path: string, key: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: await response.json() };
}

/** Delivers what is due for the tenant, as the service's worker would. */
async function deliver(tenant: Tenant): Promise<void> {
  await workers.get(tenant.companyId)!.drain();
}

/** A step of the scenario; without Chromium every step fails with the reason (never skipped). */
function step(name: string, run: () => Promise<void>): void {
  it(name, async () => {
    if (missingChromium) assert.fail(missingChromium);
    await run();
  });
}

describe('the dashboard in Chromium', { timeout: 300_000 }, () => {
  before(async () => {
    try {
      launched = await launchChromium();
    } catch (error) {
      missingChromium = `No Chromium could be launched: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    browser = launched.browser;
    console.log(`browser: ${launched.description}`);
    await mkdir(artifactsDir, { recursive: true });
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('run the suite with `npm test`: it provides the database');
    const resolver = stubResolver({ localhost: ['127.0.0.1'] });
    const connection = connect(url, 8);
    closePool = () => disconnect(connection);
    // A low lockout threshold, so the last step locks an account in a few tries.
    const config = { ...loadConfig({}), databaseUrl: url, allowPrivateWebhooks: true, authFailureLimit: 5 };
    const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) as unknown as Deps['log'];
    deps = makeDeps(connection, config, log, { mailer: null, resolveHost: resolver });
    client = createDeliveryClient({ resolve: resolver, allowPrivate: true }, 5000);
    // The certificate `npm test` made for local HTTPS servers (localhost, 127.0.0.1).
    const tls = {
      cert: readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8'),
      key: readFileSync(process.env.FACTEUR_TEST_RECEIVER_KEY!, 'utf8'),
    };
    app = await buildApp(deps, { https: { ...tls, minVersion: 'TLSv1.2' } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    receiver = await startReceiver('/hooks');
    alice = await tenant('Alice SAS');
  });

  after(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await launched?.close();
    for (const worker of workers.values()) await worker.stop();
    await client?.close();
    await receiver?.close();
    await app?.close();
    // Leave no sign-in lock on this address for anything run after.
    await deps?.pool.query(`delete from auth_failures where ip = 'sign-in:ip:127.0.0.1'`).catch(() => undefined);
    await closePool?.();
  });

  step('logs in, creates a key, shows its secret once, and the API accepts it', async () => {
    const { page } = alice;
    await page.goto(`${base}/dashboard/test/keys`);
    await shot(page, '01-login');
    await page.fill('#email', alice.user.email);
    await page.fill('#password', alice.user.password);
    await Promise.all([page.waitForURL(/\/dashboard\/test\/keys$/), page.click('button[type=submit]')]);
    assert.equal(await page.locator('.banner-test').count(), 1, 'the test side is marked');

    await page.check('input[name=scopes][value="webhooks:read"]');
    await page.click('button:has-text("Create the key")');
    const secret = await page.inputValue('#new-secret');
    assert.match(secret, /^svc_test_[0-9A-Za-z]{32}$/);
    made.secret = secret;
    made.keyId = (await page.textContent('#new-key-title'))!.replace('Your new key ', '').trim();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.click('button[data-copy="new-secret"]');
    await page.waitForFunction(
      () => document.querySelector('button[data-copy="new-secret"]')?.textContent === 'Copied',
    );
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      secret,
      'the copy button copies the secret',
    );
    await shot(page, '02-keys-secret-shown-once');

    await page.goto(`${base}/dashboard/test/keys`);
    const row = page.locator(`tr[data-key="${made.keyId}"]`);
    assert.match((await row.textContent())!, /webhooks:read/);
    assert.match((await row.textContent())!, /active/);
    assert.ok(!(await page.content()).includes(secret), 'the secret is never shown again');

    const answer = await api('/v1/events', secret);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  });

  step('revokes the key, and the API refuses it at once', async () => {
    const { page } = alice;
    await page.goto(`${base}/dashboard/test/keys`);
    await Promise.all([
      page.waitForURL(/notice=key_revoked/),
      page.click(`tr[data-key="${made.keyId}"] button:has-text("Revoke")`),
    ]);
    assert.match((await page.locator(`tr[data-key="${made.keyId}"]`).textContent())!, /revoked/);
    assert.match((await page.textContent('.notice'))!, /revoked/);
    const answer = await api('/v1/events', made.secret);
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error.code, 'api_key_revoked');
    await shot(page, '03-keys-revoked');
  });

  step('adds an endpoint on the local HTTPS receiver, pings it and shows the delivery', async () => {
    const { page } = alice;
    await page.goto(`${base}/dashboard/test/webhooks`);
    await page.fill('#url', receiver.url);
    await page.fill('#description', 'local receiver');
    await page.click('button:has-text("Add the endpoint")');
    assert.match(await page.inputValue('#endpoint-secret'), /^whsec_/, 'the secret is shown on creation');
    made.endpointId = (await page.locator('dl.facts dt:has-text("Id") + dd').textContent())!.trim();
    assert.match(made.endpointId, /^we_/);
    await shot(page, '04-endpoint-created');

    const before = receiver.received.length;
    await Promise.all([page.waitForURL(/\/events\/evt_/), page.click('button:has-text("Send a ping")')]);
    made.eventId = /\/events\/(evt_[0-9a-z]+)/.exec(page.url())![1]!;
    await deliver(alice);
    assert.equal(receiver.received.length, before + 1);
    assert.equal(receiver.received[before]!.headers['service-event-type'], 'ping');
    await page.reload();
    const attempts = page.locator('#attempts tbody tr');
    assert.equal(await attempts.count(), 1);
    assert.match((await attempts.first().textContent())!, /200/);
    assert.match((await page.locator('#endpoints').textContent())!, /delivered/);
    assert.match((await page.textContent('#payload'))!, /"type": "ping"/);
    await shot(page, '05-event-delivered');
  });

  step(
    'replays to the failing receiver as a new generation, then to every failed endpoint once it answers again',
    async () => {
      const { page } = alice;
      receiver.fallback = { status: 500 };
      await Promise.all([
        page.waitForURL(/notice=replayed/),
        page.click(`tr[data-endpoint="${made.endpointId}"] button:has-text("Replay to this endpoint")`),
      ]);
      await deliver(alice);
      await page.reload();
      const endpointRow = page.locator(`#endpoints tr[data-endpoint="${made.endpointId}"]`);
      assert.match((await endpointRow.locator('td').nth(1).textContent())!, /^2$/, 'generation 2');
      assert.match((await page.locator('#attempts tbody tr').last().textContent())!, /500/);
      await shot(page, '06-event-replay-failing');

      // The four retries on the sandbox clock: the delivery of generation 2 ends failed.
      for (const minutes of [1, 5, 30, 120]) {
        await advanceSandboxClock(deps, alice.companyId, minutes * 60_000 + 1000);
        await deliver(alice);
      }
      await page.reload();
      assert.match((await endpointRow.textContent())!, /failed/);
      assert.equal(
        await page.locator('#attempts tbody tr').count(),
        6,
        'one attempt in generation 1, five in generation 2',
      );

      receiver.fallback = { status: 200 };
      await Promise.all([
        page.waitForURL(/notice=replayed/),
        page.click('button:has-text("Replay to every failed endpoint")'),
      ]);
      await deliver(alice);
      await page.reload();
      assert.match((await endpointRow.locator('td').nth(1).textContent())!, /^3$/, 'generation 3');
      assert.match((await endpointRow.textContent())!, /delivered/);
      assert.match((await page.locator('#attempts tbody tr').last().textContent())!, /200/);
      await shot(page, '07-event-replayed-to-failed');
    },
  );

  step(
    'edits, rotates, reveals after the password, disables the endpoint; lists events; shows the account, live side and phone size',
    async () => {
      const { page } = alice;
      await page.goto(`${base}/dashboard/test/webhooks/${made.endpointId}`);
      await page.uncheck('input[name=events][value="*"]');
      await page.click('summary:has-text("Or choose event types")');
      await page.check('input[name=events][value="invoice.paid"]');
      await Promise.all([page.waitForURL(/notice=endpoint_updated/), page.click('button:has-text("Save")')]);
      assert.match((await page.locator('dl.facts').textContent())!, /invoice\.paid/);

      await page.click('button:has-text("Rotate the secret")');
      const rotated = await page.inputValue('#endpoint-secret');
      assert.match(rotated, /^whsec_/);
      await page.goto(`${base}/dashboard/test/webhooks/${made.endpointId}`);
      assert.ok(!(await page.content()).includes(rotated), 'the secret is masked on later reads');
      await page.fill('#reveal-password', 'not the password');
      await page.click('button:has-text("Reveal")');
      assert.match((await page.textContent('.error'))!, /not right/);
      await page.fill('#reveal-password', alice.user.password);
      await page.click('button:has-text("Reveal")');
      assert.equal(await page.inputValue('#endpoint-secret'), rotated);
      await shot(page, '08-endpoint-secret-revealed');

      await Promise.all([page.waitForURL(/notice=endpoint_disabled/), page.click('button:has-text("Disable")')]);
      assert.match((await page.locator('dl.facts').textContent())!, /disabled/);

      await page.goto(`${base}/dashboard/test/events`);
      assert.equal(await page.locator(`tr[data-event="${made.eventId}"]`).count(), 1);
      await page.selectOption('#type', 'invoice.paid');
      await page.click('button:has-text("Filter")');
      assert.equal(await page.locator(`tr[data-event="${made.eventId}"]`).count(), 0, 'filtered out by type');
      await page.goto(`${base}/dashboard/test/events?type=ping&delivery=delivered`);
      assert.equal(await page.locator(`tr[data-event="${made.eventId}"]`).count(), 1);
      await shot(page, '09-events');

      await page.goto(`${base}/dashboard/test/account`);
      assert.match((await page.textContent('main'))!, /Alice SAS/);
      assert.match((await page.textContent('#usage'))!, /of 10,000 live documents/);
      await shot(page, '10-account');

      await page.click('.env-switch a:has-text("Live")');
      assert.match(page.url(), /\/dashboard\/live\/account$/);
      assert.equal(await page.locator('.banner-live').count(), 1, 'the live side is clearly marked');
      await page.click('nav.sections a:has-text("Webhooks")');
      assert.ok(!(await page.content()).includes(made.endpointId), 'the live side does not show test endpoints');
      await page.goto(`${base}/dashboard/live/keys`);
      await shot(page, '11-live-keys');

      const phone = await newPage({ width: 390, height: 844 });
      await logIn(phone, alice.user);
      await phone.goto(`${base}/dashboard/test/events/${made.eventId}`);
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `the page fits a phone's width (${width}px)`);
      await shot(phone, '12-phone-event');
    },
  );

  step('a user of another company sees none of it', async () => {
    const bob = await tenant('Bob SARL');
    await logIn(bob.page, bob.user);
    for (const section of ['keys', 'webhooks', 'events', 'account']) {
      await bob.page.goto(`${base}/dashboard/test/${section}`);
      const content = await bob.page.content();
      for (const id of [made.keyId, made.endpointId, made.eventId, alice.companyId])
        assert.ok(!content.includes(id), `${section} shows ${id} of another company`);
    }
    const endpoint = await bob.page.goto(`${base}/dashboard/test/webhooks/${made.endpointId}`);
    assert.equal(endpoint!.status(), 404);
    const event = await bob.page.goto(`${base}/dashboard/test/events/${made.eventId}`);
    assert.equal(event!.status(), 404);
    await shot(bob.page, '13-other-company-not-found');
  });

  step(
    'a wrong password many times locks the account: the right one is refused too, with the time to wait',
    async () => {
      // A user of its own: Alice's wrong passwords at the secret reveal already count toward her
      // account's lock (test/security/password-prompts.test.ts), and this step counts from none.
      const { user, page } = await tenant('Carol SAS');
      await page.goto(`${base}/dashboard/login`);
      for (let i = 0; i < deps.config.authFailureLimit; i++) {
        await page.fill('#email', user.email);
        await page.fill('#password', `wrong password ${i}`);
        await page.click('button[type=submit]');
        assert.equal(await page.getAttribute('.error', 'data-code'), 'invalid_credentials');
      }
      await page.fill('#email', user.email);
      await page.fill('#password', user.password);
      await page.click('button[type=submit]');
      assert.equal(await page.getAttribute('.error', 'data-code'), 'brute_force_blocked');
      assert.match((await page.textContent('.error'))!, /refused for 10 minutes/);
      assert.match(page.url(), /\/dashboard\/login/);
      await shot(page, '14-login-locked');
    },
  );
});
