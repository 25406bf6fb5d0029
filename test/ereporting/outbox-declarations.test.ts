/**
 * A declaration's deposit through the platform's outbox (src/ereporting/declaration-flow.ts): a
 * `platform_flows` row of kind `ereporting.declaration`, deposited outside any transaction by
 * the route or the pass that queued it, or taken back by a pass once its holder died; the
 * platform's refusal leaves the declaration reserved, sent by the next pass. Over HTTPS to
 * pa-simulator, every exchange checked against the AFNOR OpenAPI documents.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness.js';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import { consumerBuyer, customer, eventsOf, finalizedInvoice, seller, sellerSiren } from '../invoices/support.js';
import { claimSubmission, runEreportingPass } from '../../src/ereporting/service.js';
import { declarationFlow } from '../../src/ereporting/declaration-flow.js';
import { deliverDueFlows, deliverFlow, flowLeaseMs } from '../../src/platform/outbox.js';
import { currentVersion } from '../../src/kernel/api-version.js';

async function setUp(t: { after: (fn: () => Promise<void>) => void }): Promise<{ h: Harness; sim: CheckedSimulator }> {
  const sim = await startCheckedSimulator();
  const h = await startHarness({
    clockStart: '2026-10-15T10:00:00Z',
    config: { sandboxPlatform: { baseUrl: sim.url, ...sim.simulator.clients[0]!, adminToken: null } },
  });
  t.after(async () => {
    await h.close();
    await sim.stop();
    assert.deepEqual(sim.violations(), []);
  });
  return { h, sim };
}

/** One consumer sale gathered into its declaration, `reserved`, its period over. */
async function dueDeclaration(h: Harness) {
  const { companyId, key } = await seller(h);
  const consumer = await customer(h, key, consumerBuyer);
  await finalizedInvoice(h, key, {
    customerId: consumer,
    lines: [{ description: 'Chaise', quantity: '1', unitPrice: '100', nature: 'goods' }],
  });
  await runEreportingPass(h.deps, [companyId]);
  const listed = await h.call('GET', '/v1/ereporting/declarations', { key });
  const [declaration] = listed.data.data;
  assert.equal(declaration.status, 'reserved');
  h.clock.set(new Date('2026-11-02T00:00:00Z'));
  return { companyId, key, declaration };
}

async function flowRows(h: Harness, companyId: string) {
  const { rows } = await h.deps.pool.query(
    `select kind, owner_id, tracking_id, state, flow_id, tries, last_error, syntax, establishment_id, lock_token
       from platform_flows where company_id = $1 order by created`,
    [companyId],
  );
  return rows;
}

/** The deposit requests the platform saw, with the `flowInfo` each stated. */
const depositExchanges = (sim: CheckedSimulator) =>
  sim.exchanges.filter((exchange) => exchange.method === 'POST' && /\/v1\/flows$/.test(exchange.path.split('?')[0]!));

test("the route's deposit is an outbox flow of kind ereporting.declaration: deposited, the declaration's flow id, B2C", async (t) => {
  const { h, sim } = await setUp(t);
  const { companyId, key, declaration } = await dueDeclaration(h);
  const sent = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key });
  assert.equal(sent.statusCode, 200, sent.body);
  assert.equal(sent.data.status, 'accepted');
  const [flow, ...others] = await flowRows(h, companyId);
  assert.equal(others.length, 0);
  assert.deepEqual(
    [flow.kind, flow.owner_id, flow.tracking_id, flow.state, flow.flow_id, flow.syntax, flow.tries, flow.lock_token],
    ['ereporting.declaration', declaration.id, `${declaration.id}-1`, 'deposited', sent.data.flowId, 'FRR', 1, null],
  );
  const [deposit] = depositExchanges(sim);
  const info = (deposit!.requestBody as { flowInfo: Record<string, unknown> }).flowInfo;
  assert.deepEqual([info.trackingId, info.processingRule, info.flowSyntax], [`${declaration.id}-1`, 'B2C', 'FRR']);
  // The event carries the request that queued it, as when the route confirmed it itself.
  const [submitted] = await eventsOf(h, key, 'ereporting.submitted');
  assert.equal(submitted.data.id, declaration.id);
  assert.ok(submitted.request?.id, JSON.stringify(submitted));
});

test('a pass that died after the platform took the file: the next pass finds it by its tracking id, deposits nothing twice', async (t) => {
  const { h, sim } = await setUp(t);
  const { companyId, key, declaration } = await dueDeclaration(h);
  const ctx = {
    scope: { companyId, livemode: false },
    requestId: null,
    idempotencyKey: null,
    apiVersion: currentVersion,
    now: h.clock.now(),
  };
  const claim = await claimSubmission(h.deps, ctx, declaration.id, sellerSiren);
  assert.equal(claim.kind, 'queued');
  const { flow } = claim as Extract<typeof claim, { kind: 'queued' }>;
  const taken = await sim.connector().deposit({
    file: flow.file,
    name: flow.name,
    syntax: 'FRR',
    trackingId: flow.trackingId,
    processingRule: 'B2C',
  });
  assert.ok(taken.ok);
  const requests = sim.simulator.stats().depositRequests;

  // While its lease holds, the pass leaves it (busy), and so does the outbox.
  await runEreportingPass(h.deps, [companyId]);
  assert.equal(await deliverDueFlows(h.deps, [declarationFlow], { companyIds: [companyId] }), 0);
  let row = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.equal(row.status, 'reserved');
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, 0);

  h.clock.advance(flowLeaseMs + 1000);
  await runEreportingPass(h.deps, [companyId]);
  row = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.deepEqual([row.status, row.flowId], ['accepted', taken.value.flowId]);
  assert.equal(sim.simulator.stats().depositRequests, requests, 'searched by its tracking id: no deposit request');
  const [recorded] = await flowRows(h, companyId);
  assert.deepEqual([recorded.state, recorded.flow_id, recorded.tries], ['deposited', taken.value.flowId, 2]);
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, 1);
  assert.equal((await eventsOf(h, key, 'ereporting.accepted')).length, 1);
  await runEreportingPass(h.deps, [companyId]);
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, 1);
});

/** The sandbox's platform answering deposits `ms` later: whoever deposits first still holds the flow as the others come. */
function slowDeposits(h: Harness, ms: number): void {
  const platform = h.deps.sandboxPlatform;
  const connectorOf = platform.connectorOf.bind(platform);
  platform.connectorOf = async (companyId) => {
    const connector = await connectorOf(companyId);
    return new Proxy(connector, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== 'deposit' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          await new Promise((resolve) => setTimeout(resolve, ms));
          return value.apply(target, args);
        };
      },
    });
  };
}

test('the route, the e-reporting pass and the outbox pass racing: one deposit, one ereporting.submitted', async (t) => {
  const { h, sim } = await setUp(t);
  const { companyId, key, declaration } = await dueDeclaration(h);
  slowDeposits(h, 500);
  const results = await Promise.all([
    h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key }),
    runEreportingPass(h.deps, [companyId]),
    deliverDueFlows(h.deps, [declarationFlow], { companyIds: [companyId] }),
    h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key }),
  ]);
  for (const answer of [results[0], results[3]] as any[]) {
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(answer.data.status, 'accepted');
  }
  assert.equal(sim.simulator.stats().depositRequests, 1);
  assert.equal((await flowRows(h, companyId)).length, 1);
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, 1);
  assert.equal((await eventsOf(h, key, 'ereporting.accepted')).length, 1);
});

test('the platform answering 503: reserved, pa_unavailable, the flow failed with its error; the next pass sends it', async (t) => {
  const { h, sim } = await setUp(t);
  const { companyId, key, declaration } = await dueDeclaration(h);
  sim.simulator.script(declaration.id, { depositAnswers: [{ status: 503 }] });
  const refused = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key });
  assert.equal(refused.statusCode, 503, refused.body);
  assert.equal(refused.data.error.code, 'pa_unavailable');
  const row = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.deepEqual([row.status, row.flowId], ['reserved', null]);
  let [flow] = await flowRows(h, companyId);
  assert.equal(flow.state, 'failed');
  assert.match(flow.last_error, /^pa_unavailable: /);
  assert.equal(flow.lock_token, null);
  // The outbox does not send a failed flow on its own: the declaration's pass queues it again.
  assert.equal(await deliverDueFlows(h.deps, [declarationFlow], { companyIds: [companyId] }), 0);
  assert.equal(sim.simulator.stats().depositRequests, 1);

  await runEreportingPass(h.deps, [companyId]);
  const sent = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.equal(sent.status, 'accepted');
  [flow] = await flowRows(h, companyId);
  assert.deepEqual([flow.state, flow.flow_id, flow.last_error, flow.tries], ['deposited', sent.flowId, null, 2]);
  assert.equal(sim.simulator.stats().depositRequests, 2);
  assert.equal(sim.simulator.stats().deposits, 1);
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, 1);
});

test('a declaration whose flow is on its way takes no new operation: what it reports is what was deposited', async (t) => {
  const { h } = await setUp(t);
  const { companyId, key } = await seller(h);
  const consumer = await customer(h, key, consumerBuyer);
  const sale = { description: 'Chaise', quantity: '1', unitPrice: '100', nature: 'goods' };
  await finalizedInvoice(h, key, { customerId: consumer, lines: [sale] });
  await runEreportingPass(h.deps, [companyId]);
  const [declaration] = (await h.call('GET', '/v1/ereporting/declarations', { key })).data.data;
  const ctx = {
    scope: { companyId, livemode: false },
    requestId: null,
    idempotencyKey: null,
    apiVersion: currentVersion,
    now: h.clock.now(),
  };
  const claim = await claimSubmission(h.deps, ctx, declaration.id, sellerSiren);
  assert.equal(claim.kind, 'queued');
  // Another sale of the same period, gathered while the claimed file is on its way.
  await finalizedInvoice(h, key, { customerId: consumer, lines: [sale] });
  await runEreportingPass(h.deps, [companyId]);
  const held = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.deepEqual([held.status, held.operationCount], ['reserved', 1]);
  const { flow } = claim as Extract<typeof claim, { kind: 'queued' }>;
  assert.equal((await deliverFlow(h.deps, declarationFlow, flow, { ctx })).state, 'deposited');
  const sent = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.deepEqual([sent.status, sent.operationCount], ['submitted', 1]);
});
