/**
 * The outbox (src/platform/outbox.ts): a flow's holder that died after the platform took it is
 * found again by its tracking id, never sent twice; nothing calls a platform inside a transaction.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import { queueDueStatements, sendDueStatements, statementTrackingId } from '../../src/payments/statement-sender.js';
import { claimDueFlows } from '../../src/platform/flow-store.js';
import { flowLeaseMs } from '../../src/platform/outbox.js';
import { inTransaction } from '../../src/db/transaction.js';
import { PlatformCallInTransaction } from '../../src/kernel/transaction-mark.js';
import { buyerSiren, connectedSeller, send, startWorld, type ConnectedSeller, type World } from './support.js';
import { advice, chair, finalizedInvoice } from '../invoices/support.js';

let world: World;
let platform: CheckedSimulator;
let seller: ConnectedSeller;

before(async () => {
  world = await startWorld();
  platform = await startCheckedSimulator();
  seller = await connectedSeller(world, platform);
  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
});
after(async () => {
  await platform.stop();
  await world.close();
  assert.deepEqual(platform.violations(), [], 'every exchange follows the AFNOR OpenAPI documents');
});

/** A paid invoice, deposited: its payment's statement is due. */
async function dueStatement(): Promise<string> {
  const { h } = world;
  const invoice = await finalizedInvoice(h, seller.key, { customerId: seller.customerId, lines: [chair, advice] });
  await world.files.drain();
  await send(world, seller, invoice.id);
  assert.equal(await world.deposits.drain(), 1);
  await world.poll();
  const paid = await h.call('POST', '/v1/payments', { key: seller.key, body: { invoiceId: invoice.id, amount: 5000 } });
  assert.equal(paid.statusCode, 201, paid.body);
  h.clock.advance(1000);
  return paid.data.id as string;
}

test('a statement whose holder died after the platform took it is found by its tracking id: recorded sent, deposited once', async () => {
  const { h } = world;
  const companyIds = [seller.companyId];
  const paymentId = await dueStatement();
  assert.equal(await queueDueStatements(h.deps, { companyIds }), 1);
  assert.equal(await queueDueStatements(h.deps, { companyIds }), 0, 'queued once while under way');

  // A worker leases the flow, deposits it, and dies before recording anything.
  const [flow] = await claimDueFlows(
    h.deps.db,
    { now: h.clock.now(), limit: 10, leaseMs: flowLeaseMs, token: 'dead-worker' },
    ['payments.statement'],
    companyIds,
  );
  assert.ok(flow);
  assert.equal(flow.trackingId, statementTrackingId(paymentId));
  const connector = platform.connector();
  const deposited = await connector.deposit({
    file: flow.file,
    name: flow.name,
    syntax: 'CDAR',
    trackingId: flow.trackingId,
  });
  assert.ok(deposited.ok);
  const depositsBefore = platform.simulator.stats().deposits;
  const requestsBefore = platform.simulator.stats().depositRequests;

  // Its lease holds: nothing is taken meanwhile.
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 0);
  h.clock.advance(flowLeaseMs + 1000);
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 1, 'taken back once the lease lapsed');
  assert.equal(platform.simulator.stats().deposits, depositsBefore, 'found by its tracking id, not deposited again');
  assert.equal(
    platform.simulator.stats().depositRequests,
    requestsBefore,
    'searched before any deposit: not even a request the platform refuses as a duplicate',
  );
  const payment = (await h.call('GET', `/v1/payments/${paymentId}`, { key: seller.key })).data;
  assert.equal(payment.fr212.state, 'sent');
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 0, 'nothing due after');
});

test('no platform call runs inside a database transaction: the connector refuses before any request', async () => {
  const { h } = world;
  const connector = platform.connector();
  const requests = platform.simulator.stats().depositRequests;
  await assert.rejects(
    inTransaction(h.deps.db, null, () => connector.findDeposit('fr212-any')),
    (error: unknown) => error instanceof PlatformCallInTransaction && /findDeposit|search/i.test(String(error)),
  );
  assert.equal(platform.simulator.stats().depositRequests, requests);
  const outside = await connector.findDeposit('fr212-any');
  assert.ok(outside.ok, 'outside a transaction the same call goes');
});
