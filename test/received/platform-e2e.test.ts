/**
 * End to end over HTTPS, in live mode: a live establishment connected to `pa-simulator` (the
 * buyer's platform) through the API; the polling pass subscribes it; the simulator pushes incoming
 * invoices, signed, to the service listening over TLS; the service fetches each flow's file,
 * ingests it once (pushed then polled, or pushed twice), keeps its cursor in the database, and
 * sends its answers back through that establishment's connection as CDAR flows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { buildApp } from '../../src/app.js';
import { signCallback } from '../../src/platform/callback-signature.js';
import { parseCdarMessage } from '../../src/platform/cdar.js';
import { pollInbox } from '../../src/platform/service.js';
import { registry } from '../../src/capabilities.js';
import { closeValidation } from '../../src/received/official-validation.js';
import { startHarness } from '../support/harness.js';
import { startCheckedSimulator } from '../platform/support.js';
import { connectHeadOffice } from '../deposits/support.js';
import { seller } from '../invoices/support.js';
import { ciiExample, ownFacturX } from './support.js';

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('received invoices end to end with pa-simulator over HTTPS', async (t) => {
  const h = await startHarness();
  const tls = {
    cert: readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8'),
    key: readFileSync(process.env.FACTEUR_TEST_RECEIVER_KEY!, 'utf8'),
  };
  const server = await buildApp(h.deps, { https: tls });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const origin = `https://localhost:${(server.server.address() as AddressInfo).port}`;
  const platform = await startCheckedSimulator();
  const connector = platform.connector();
  let serving = true;
  const stopServer = async () => {
    if (serving) await server.close();
    serving = false;
  };
  t.after(async () => {
    await platform.stop();
    await stopServer();
    await h.close();
    await closeValidation();
  });

  const { companyId, key } = await seller(h, { env: 'live' });
  const establishmentId = await connectHeadOffice(h, key, platform);
  const poll = () => pollInbox(h.deps, registry.inbox, { companyIds: [companyId], callbackBaseUrl: origin });
  const callbackUrl = `${origin}/platform-callbacks/${companyId}/live/${establishmentId}`;
  const list = async () => (await h.call('GET', '/v1/received-invoices', { key })).data.data as any[];
  const readerRow = async () =>
    (
      await h.deps.pool.query(
        'select connection_key, cursor, webhook_id, signing_key from platform_readers where company_id = $1 and livemode',
        [companyId],
      )
    ).rows[0];

  await t.test(
    'the first poll subscribes the connected establishment once, for every flow type, its key sealed',
    async () => {
      assert.equal(await poll(), 0);
      const reader = await readerRow();
      assert.ok(reader?.webhook_id, 'subscribed');
      assert.ok(reader.signing_key && !reader.signing_key.includes(' '), 'the signing key is stored sealed');
      const subscriptions = platform.exchanges.filter(
        (exchange) => exchange.method === 'POST' && exchange.path === '/flow-service/v1/webhooks',
      );
      assert.deepEqual(
        subscriptions.map((exchange) => exchange.requestBody),
        [{ callbackUrl, flowTypes: ['CustomerInvoice', 'CustomerInvoiceLC'] }],
      );
      assert.equal(await poll(), 0);
      assert.equal(
        platform.exchanges.filter((exchange) => exchange.path === '/flow-service/v1/webhooks').length,
        1,
        'subscribed once',
      );
    },
  );

  await t.test('pushed: an official CII example and the service’s own Factur-X, each once', async () => {
    const cii = ciiExample();
    const ciiFlow = platform.simulator.deliverIncoming(cii, { name: 'CII_example1.xml' });
    const received = await until('the pushed CII', async () => {
      const found = (await list()).find((invoice) => invoice.flowId === ciiFlow);
      return found ?? null;
    });
    assert.equal(received.syntax, 'CII');
    assert.equal(received.establishmentId, establishmentId, 'the establishment whose connection delivered it');
    assert.equal(received.number, '12115118');
    assert.equal(received.conformant, false, 'a non-French example fails the BR-FR rules: kept, flagged');
    const original = await h.call('GET', `/v1/received-invoices/${received.id}/files/original`, { key });
    assert.ok(original.rawPayload.equals(cii), 'the file as the platform gave it, byte for byte');

    const pdf = await ownFacturX({ number: 'F2026-E2E-0001' });
    const pdfFlow = platform.simulator.deliverIncoming(pdf);
    const own = await until('the pushed Factur-X', async () => {
      const found = (await list()).find((invoice) => invoice.flowId === pdfFlow);
      return found ?? null;
    });
    assert.equal(own.syntax, 'Factur-X');
    assert.equal(own.conformant, true, JSON.stringify(own.validationErrors));

    // Pushed, then polled: the poll finds both flows and makes nothing new.
    assert.equal(await poll(), 0);
    assert.equal((await list()).length, 2);
    const events = await h.call('GET', '/v1/events?type=invoice.incoming.received&limit=100', { key });
    assert.equal(events.data.data.length, 2);
    assert.ok(platform.simulator.stats().callbacksDelivered >= 2);
  });

  await t.test('polled: a flow whose push was lost is found by the polling pass', async () => {
    const delivered = platform.simulator.stats().callbacksDelivered;
    const sent = await request(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'forged' }),
    });
    assert.equal(sent.statusCode, 404, 'an unsigned callback is refused');
    await sent.body.dump();
    const body = JSON.stringify({ flowId: 'forged', flowType: 'CustomerInvoice', flowDirection: 'In' });
    const stamp = Math.floor(Date.now() / 1000);
    const wrongKey = await request(callbackUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'afnor-signature': signCallback(body, Buffer.alloc(32, 7).toString('base64'), stamp),
        'afnor-signature-timestamp': String(stamp),
      },
      body,
    });
    assert.equal(wrongKey.statusCode, 404, 'a callback signed with another key is refused');
    await wrongKey.body.dump();

    // The flow is stored while the service's callback is away: its push fails, the poll takes it.
    await stopServer();
    const flowId = platform.simulator.deliverIncoming(await ownFacturX({ number: 'F2026-E2E-0002' }));
    assert.equal(platform.simulator.stats().callbacksDelivered, delivered);
    const cursorBefore = (await readerRow()).cursor;
    // Two passes racing (two workers): the reader is leased to one, the invoice made once.
    const raced = await Promise.all([poll(), poll()]);
    assert.equal(raced[0] + raced[1], 1);
    assert.equal((await list()).filter((invoice) => invoice.flowId === flowId).length, 1);
    const cursorAfter = (await readerRow()).cursor;
    assert.ok(cursorAfter && cursorAfter !== cursorBefore, 'the cursor moved, in the database');
    // The next poll asks the platform for what came after the stored cursor only.
    const searches = () =>
      platform.exchanges.filter(
        (exchange) =>
          exchange.path === '/flow-service/v1/flows/search' && !(exchange.requestBody as any)?.where?.trackingId,
      );
    const before = searches().length;
    assert.equal(await poll(), 0);
    const [search] = searches().slice(before);
    assert.ok((search?.requestBody as any).where.updatedAfter, JSON.stringify(search?.requestBody));
  });

  await t.test('the answers go back to the platform as CDAR flows', async () => {
    const [latest] = await list();
    const approved = await h.call('POST', `/v1/received-invoices/${latest.id}/approve`, { key, body: {} });
    assert.equal(approved.statusCode, 200, approved.body);
    const paid = await h.call('POST', `/v1/received-invoices/${latest.id}/payment-transmitted`, { key, body: {} });
    assert.equal(paid.statusCode, 200, paid.body);
    const history = (await h.call('GET', `/v1/received-invoices/${latest.id}/history`, { key })).data.data;
    assert.deepEqual(
      history.map((entry: any) => entry.status),
      ['fr:203', 'fr:205', 'fr:211'],
    );
    const deposits = platform.exchanges.filter(
      (exchange) =>
        exchange.method === 'POST' &&
        exchange.path === '/flow-service/v1/flows' &&
        (exchange.requestBody as any)?.flowInfo?.flowSyntax === 'CDAR',
    );
    assert.equal(deposits.length, 2);
    assert.ok(deposits.every((exchange) => exchange.status === 202));
    for (const entry of history.slice(1)) assert.ok(entry.platformFlowId, 'the platform flow id of the CDAR deposit');
    const flows = history.slice(1).map((entry: any) => entry.platformFlowId as string);
    const cdars = await Promise.all(flows.map((flowId: string) => connector.downloadFlow(flowId)));
    assert.deepEqual(
      cdars.map((cdar) => (cdar.ok ? parseCdarMessage(cdar.value.toString('utf8'))[0]!.statusCode : null)),
      ['205', '211'],
    );
    assert.deepEqual(platform.violations(), []);
  });
});
