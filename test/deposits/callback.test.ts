/**
 * The platform's callback for the statuses of the deposits: the subscription the polling pass
 * makes for a connection (its signing key sealed), the pushes of pa-simulator (as it made them:
 * the flow, signed), applied once through the same path as polling; unsigned or wrongly signed
 * calls learn nothing (`not_found`).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import { encryptionKeyOf, openSecret } from '../../src/kernel/sealed-secret.js';
import { sealContext, sealedColumns } from '../../src/db/sealed-columns.js';
import { signCallback, signatureHeader, signatureTimestampHeader } from '../../src/platform/callback-signature.js';
import { pollInbox } from '../../src/platform/service.js';
import { registry } from '../../src/capabilities.js';
import {
  buyerSiren,
  connectedSeller,
  eventTypes,
  read,
  readyInvoice,
  send,
  startWorld,
  type ConnectedSeller,
  type World,
} from './support.js';

let world: World;
let platform: CheckedSimulator;
let seller: ConnectedSeller;
const callbackBase = 'https://api.facteur.test';

before(async () => {
  world = await startWorld();
  platform = await startCheckedSimulator();
  seller = await connectedSeller(world, platform);
  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
});
after(async () => {
  await platform.stop();
  await world.close();
  assert.deepEqual(
    platform.violations().filter((line) => !line.includes('directoryLineStatus must NOT have more than 7')),
    [],
  );
});

async function readerRow() {
  const { rows } = await world.h.deps.pool.query(
    'select establishment_id, webhook_id, signing_key, cursor from platform_readers where company_id = $1',
    [seller.companyId],
  );
  return rows[0] as { establishment_id: string; webhook_id: string | null; signing_key: string | null } | undefined;
}

/** Posts a flow to the callback route, signed with `key` at the harness's time. */
function push(path: string, flow: unknown, key: string) {
  const body = JSON.stringify(flow);
  const timestamp = Math.floor(world.h.clock.now().getTime() / 1000);
  return world.h.app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/json',
      [signatureHeader]: signCallback(body, key, timestamp),
      [signatureTimestampHeader]: String(timestamp),
    },
    payload: body,
  });
}

test('subscribed on the first poll; each pushed status applied once, in order; a bad signature is not_found', async () => {
  const invoice = await readyInvoice(world, seller);
  await send(world, seller, invoice.id);
  await pollInbox(world.h.deps, registry.inbox, { companyIds: [seller.companyId], callbackBaseUrl: callbackBase });
  const reader = await readerRow();
  assert.ok(reader?.webhook_id, 'subscribed');
  assert.ok(reader.signing_key && !reader.signing_key.includes(' '), 'the signing key is stored sealed');
  const signingKey = openSecret(
    encryptionKeyOf(world.h.deps.config),
    reader.signing_key,
    sealContext(sealedColumns.platformReaderSigningKey, [seller.companyId, false, reader.establishment_id]),
  );
  // The connection's one callback URL, given to its one subscription.
  const path = `/platform-callbacks/${seller.companyId}/test/${reader.establishment_id}`;

  await world.deposits.drain();
  // The simulator pushed each life-cycle flow to the callback URL (unreachable from it here): replayed as pushed.
  const trackingId = `${invoice.id}-a1`;
  let pushed: any[] = [];
  // Up to 30 s: each push is logged once it failed, on a loaded machine.
  for (let i = 0; i < 1200; i += 1) {
    pushed = platform.exchanges.filter(
      (exchange) =>
        exchange.service === 'callback' &&
        exchange.path === `${callbackBase}${path}` &&
        (exchange.requestBody as any).trackingId === trackingId,
    );
    if (new Set(pushed.map((exchange) => (exchange.requestBody as any).flowId)).size >= 6) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  // Logged as each delivery failed, which a busy machine can reorder: replayed in the platform's
  // order (its submittedAt ticks strictly up).
  const flows = [
    ...new Map(pushed.map((exchange) => [(exchange.requestBody as any).flowId, exchange.requestBody as any])).values(),
  ].sort((a, b) => Date.parse(a.submittedAt) - Date.parse(b.submittedAt));
  assert.equal(flows.length, 6, 'the invoice flow and its five life-cycle flows');

  const forged = await push(path, flows[1], Buffer.from('not the key').toString('base64'));
  assert.equal(forged.statusCode, 404, forged.body);
  assert.equal((await read(world, seller, invoice.id)).transmissionStatus, 'sending');

  for (const flow of flows) {
    const answer = await push(path, flow, signingKey);
    assert.equal(answer.statusCode, 202, answer.body);
  }
  const approved = await read(world, seller, invoice.id);
  assert.equal(approved.status, 'approved');
  assert.deepEqual(await eventTypes(world, seller, invoice.id), [
    'invoice.sent',
    'invoice.sending',
    'invoice.deposited',
    'invoice.transmitted',
    'invoice.available',
    'invoice.received',
    'invoice.approved',
  ]);
  // Pushed twice, then polled: nothing applied again.
  for (const flow of flows) {
    const again = await push(path, flow, signingKey);
    assert.equal(JSON.parse(again.body).applied, 0);
  }
  assert.equal(await world.poll(), 0);
  assert.equal((await eventTypes(world, seller, invoice.id)).length, 7);

  // The path of the statuses' subscriptions made before the one inbox answers the same (once still).
  const former = await push(
    `/platform-callbacks/statuses/${seller.companyId}/test/${reader.establishment_id}`,
    flows[2],
    signingKey,
  );
  assert.equal(former.statusCode, 202, former.body);
  assert.equal(JSON.parse(former.body).applied, 0);
  const elsewhere = await push(
    `/platform-callbacks/${seller.companyId}/live/${reader.establishment_id}`,
    flows[1],
    signingKey,
  );
  assert.equal(elsewhere.statusCode, 404);
});
