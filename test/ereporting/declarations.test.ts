import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness.js';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import {
  advice,
  chair,
  consumerBuyer,
  customer,
  finalizedCreditNote,
  eventsOf,
  finalizedInvoice,
  seller,
  sellerSiren,
} from '../invoices/support.js';
import { claimSubmission, runEreportingPass } from '../../src/ereporting/service.js';
import { declarationFlow } from '../../src/ereporting/declaration-flow.js';
import { deliverFlow, flowLeaseMs } from '../../src/platform/outbox.js';
import { currentVersion } from '../../src/kernel/api-version.js';

/**
 * E-reporting end to end: documents finalized through the API, gathered by the pass into their
 * declarations, transmitted over HTTPS to pa-simulator (every exchange checked against the AFNOR
 * OpenAPI documents), accepted or rejected on script, retried.
 */

async function setUp(t: { after: (fn: () => Promise<void>) => void }): Promise<{ h: Harness; sim: CheckedSimulator }> {
  const sim = await startCheckedSimulator();
  const h = await startHarness({
    clockStart: '2026-10-15T10:00:00Z',
    config: { sandboxPlatform: { baseUrl: sim.url, ...sim.simulator.clients[0]!, adminToken: null } },
  });
  t.after(async () => {
    await h.close();
    await sim.stop();
  });
  return { h, sim };
}

async function consumerSale(h: Harness, key: string, customerId: string, lines = [chair]): Promise<any> {
  return finalizedInvoice(h, key, { customerId, lines });
}

async function declarations(h: Harness, key: string, query = ''): Promise<any[]> {
  const response = await h.call('GET', `/v1/ereporting/declarations${query}`, { key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data.data;
}

/** One consumer sale gathered by the pass into its declaration, `reserved`. */
async function reservedDeclaration(h: Harness, env: 'test' | 'live' = 'test') {
  const { companyId, key } = await seller(h, { env });
  const consumer = await customer(h, key, consumerBuyer);
  await consumerSale(h, key, consumer);
  await runEreportingPass(h.deps, [companyId]);
  const [declaration] = await declarations(h, key);
  return { companyId, key, declaration };
}

test('B2C sales are gathered per period, sent when due, accepted; a credit note goes to its own period', async (t) => {
  const { h, sim } = await setUp(t);
  const { companyId, key } = await seller(h);
  const consumer = await customer(h, key, consumerBuyer);
  const business = await customer(h, key);
  const first = await consumerSale(h, key, consumer);
  await consumerSale(h, key, consumer, [chair, advice]);
  await finalizedInvoice(h, key, { customerId: business }); // domestic B2B: e-invoicing, not reported

  await runEreportingPass(h.deps, [companyId]);
  let [october, ...others] = await declarations(h, key, '?flow=10.3');
  assert.equal(others.length, 0);
  assert.equal(october.object, 'ereporting');
  assert.equal(october.status, 'reserved');
  assert.equal(october.type, 'AggregatedCustomerTransactionReport');
  assert.equal(october.period, '2026-10-01/2026-10-31');
  assert.equal(october.establishment, '10000000900017');
  assert.equal(october.operationCount, 2);
  assert.equal(october.taxableAmount, 29800 * 2 + 27000);
  assert.deepEqual(october.obligation, {
    state: 'waiting',
    reasonCode: 'not_sent',
    reasonSource: 'service',
    owner: 'service',
    action: 'send',
    nextAttemptAt: '2026-11-01T00:00:00.000Z',
  });
  const goods = october.lines.find((line: any) => line.category === 'TLB1');
  assert.deepEqual(
    [goods.date, goods.vatRate, goods.taxableAmount, goods.taxAmount, goods.count],
    ['2026-10-15', '20.00', 59600, 11920, 2],
  );
  const detail = (await h.call('GET', `/v1/ereporting/declarations/${october.id}`, { key })).data;
  assert.equal(detail.operations.length, 2);
  assert.ok(detail.operations.some((op: any) => op.sourceId === first.id && op.taxableAmount === 29800));

  // A second pass adds nothing; nothing leaves before the period is over.
  await runEreportingPass(h.deps, [companyId]);
  [october] = await declarations(h, key, '?flow=10.3');
  assert.deepEqual([october.status, october.operationCount], ['reserved', 2]);
  assert.equal(sim.simulator.stats().deposits, 0);

  // November: the pass sends October's declaration; the platform accepts it.
  h.clock.set(new Date('2026-11-03T09:00:00Z'));
  await runEreportingPass(h.deps, [companyId]);
  october = (await h.call('GET', `/v1/ereporting/declarations/${october.id}`, { key })).data;
  assert.equal(october.status, 'accepted');
  assert.equal(october.obligation.state, 'fulfilled');
  assert.ok(october.flowId);
  assert.equal(sim.simulator.stats().deposits, 1);
  const submitted = await eventsOf(h, key, 'ereporting.submitted');
  assert.equal(submitted.length, 1);
  assert.deepEqual(submitted[0].data, {
    id: october.id,
    object: 'ereporting',
    status: 'submitted',
    type: 'AggregatedCustomerTransactionReport',
    period: '2026-10-01/2026-10-31',
    attempt: 1,
  });
  const accepted = await eventsOf(h, key, 'ereporting.accepted');
  assert.equal(accepted.length, 1);
  assert.deepEqual(
    [accepted[0].data.status, accepted[0].data.paRejectionCode, accepted[0].data.obligation.state],
    ['accepted', null, 'fulfilled'],
  );

  // A credit note of an October sale, issued in November, is reported in November's declaration.
  await finalizedCreditNote(h, key, first);
  await runEreportingPass(h.deps, [companyId]);
  const all = await declarations(h, key, '?flow=10.3');
  assert.equal(all.length, 2);
  const november = all.find((d) => d.period === '2026-11-01/2026-11-30');
  assert.deepEqual([november.status, november.operationCount, november.taxableAmount], ['reserved', 1, -29800]);
  const octoberAgain = all.find((d) => d.id === october.id);
  assert.deepEqual([octoberAgain.operationCount, octoberAgain.taxableAmount], [2, october.taxableAmount]);
  assert.deepEqual(await declarations(h, key, '?period=2026-11-01/2026-11-30'), [november]);
  assert.deepEqual(await declarations(h, key, '?state=accepted'), [octoberAgain]);

  assert.deepEqual(sim.violations(), []);
});

test('payments of services taxed on collection go to flow 10.4', async (t) => {
  const { h } = await setUp(t);
  const { companyId, key } = await seller(h);
  const consumer = await customer(h, key, consumerBuyer);
  const invoice = await consumerSale(h, key, consumer, [advice]);
  const paid = await h.call('POST', '/v1/payments', {
    key,
    body: { invoiceId: invoice.id, amount: invoice.total, method: 'card' },
  });
  assert.equal(paid.statusCode, 201, paid.body);
  await runEreportingPass(h.deps, [companyId]);
  const [payments] = await declarations(h, key, '?flow=10.4');
  assert.equal(payments.type, 'AggregatedCustomerPaymentReport');
  assert.equal(payments.operationCount, 1);
  assert.deepEqual(
    payments.lines.map((line: any) => [line.kind, line.vatRate, line.amount, line.count]),
    [['aggregated_payment', '20.00', invoice.total, 1]],
  );
});

test('live: the declaration is built and stays reserved, submitting answers ereporting_not_enabled', async (t) => {
  const { h, sim } = await setUp(t);
  const { companyId, key, declaration } = await reservedDeclaration(h, 'live');
  assert.equal(declaration.livemode, true);
  assert.deepEqual(declaration.obligation, {
    state: 'waiting',
    reasonCode: 'ereporting_not_enabled',
    reasonSource: 'service',
    owner: 'client',
    action: null,
    nextAttemptAt: null,
  });
  const refused = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key });
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.data.error.code, 'ereporting_not_enabled');
  h.clock.set(new Date('2026-11-05T00:00:00Z'));
  await runEreportingPass(h.deps, [companyId]);
  const after = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.equal(after.status, 'reserved');
  assert.equal(sim.simulator.stats().deposits, 0);
  // The test environment of the same company sees none of it.
  const testKey = await h.key(companyId, { env: 'test' });
  assert.equal(
    (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key: testKey })).statusCode,
    404,
  );
});

test('live, once the establishment is connected: ereporting_not_enabled until it allows e-reporting, then transmitted', async (t) => {
  const { h, sim } = await setUp(t);
  const { companyId, key } = await seller(h, { env: 'live' });
  const siren: string = (await h.call('GET', '/v1/account', { key })).data.siren;
  const [head] = (await h.call('GET', '/v1/establishments', { key })).data.data;
  sim.simulator.seedDirectory([{ siren, siret: head.siret }]);
  const client = sim.simulator.clients[0]!;
  const connected = await h.call('POST', `/v1/establishments/${head.id}`, {
    key,
    body: { platform: { baseUrl: sim.url, clientId: client.clientId, clientSecret: client.clientSecret } },
  });
  assert.equal(connected.statusCode, 200, connected.body);
  const consumer = await customer(h, key, consumerBuyer);
  await consumerSale(h, key, consumer);
  await runEreportingPass(h.deps, [companyId]);
  const [declaration] = await declarations(h, key);
  assert.equal(declaration.obligation.reasonCode, 'ereporting_not_enabled');
  const refused = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key });
  assert.equal(refused.statusCode, 400, refused.body);
  assert.equal(refused.data.error.code, 'ereporting_not_enabled');
  assert.match(refused.data.error.hint ?? refused.data.error.message, /ereportingEnabled/);
  assert.equal(sim.simulator.stats().deposits, 0);
  const enabled = await h.call('POST', `/v1/establishments/${head.id}`, { key, body: { ereportingEnabled: true } });
  assert.equal(enabled.data.ereportingEnabled, true);
  // The pass sees the switch before the period is over: the obligation is the service's again,
  // told by ereporting.obligation_updated.
  await runEreportingPass(h.deps, [companyId]);
  const waiting = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.equal(waiting.status, 'reserved');
  assert.deepEqual(waiting.obligation, {
    state: 'waiting',
    reasonCode: 'not_sent',
    reasonSource: 'service',
    owner: 'service',
    action: 'send',
    nextAttemptAt: declaration.dueAt,
  });
  const updates = await eventsOf(h, key, 'ereporting.obligation_updated');
  assert.equal(updates.length, 1, JSON.stringify(updates));
  assert.equal(updates[0].data.id, declaration.id);
  assert.equal(updates[0].data.object, 'ereporting');
  assert.equal(updates[0].data.obligation.reasonCode, 'not_sent');
  // Switched off again: back on the client, told once more; on again for the sending below.
  await h.call('POST', `/v1/establishments/${head.id}`, { key, body: { ereportingEnabled: false } });
  await runEreportingPass(h.deps, [companyId]);
  await runEreportingPass(h.deps, [companyId]);
  const off = await eventsOf(h, key, 'ereporting.obligation_updated');
  assert.equal(off.length, 2);
  assert.equal(
    (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data.obligation.reasonCode,
    'ereporting_not_enabled',
  );
  await h.call('POST', `/v1/establishments/${head.id}`, { key, body: { ereportingEnabled: true } });
  // The pass sends it once its period is over, through the establishment's own connection.
  h.clock.set(new Date('2026-11-05T00:00:00Z'));
  await runEreportingPass(h.deps, [companyId]);
  const after = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.ok(['submitted', 'accepted'].includes(after.status), after.status);
  assert.equal(sim.simulator.stats().deposits, 1);
  assert.deepEqual(sim.violations(), []);
});

test('a rejected declaration is kept; retry makes the next attempt, replayed; every refusal', async (t) => {
  const { h, sim } = await setUp(t);
  const { companyId, key, declaration } = await reservedDeclaration(h);

  const notRejected = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/retry`, { key });
  assert.equal(notRejected.statusCode, 400);
  assert.equal(notRejected.data.error.code, 'ereporting_declaration_not_rejected');

  sim.simulator.script(declaration.id, {
    outcome: 'reject',
    reason: { code: 'REJ_SEMAN', text: 'Montants incohérents' },
  });
  const rejected = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key });
  assert.equal(rejected.statusCode, 422, rejected.body);
  assert.equal(rejected.data.error.code, 'ereporting_declaration_rejected');
  const trace = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.deepEqual(
    [trace.status, trace.paRejectionCode, trace.paRejectionReason, trace.obligation.action],
    ['rejected', 'REJ_SEMAN', 'Montants incohérents', 'resubmit'],
  );
  const [event] = await eventsOf(h, key, 'ereporting.rejected');
  assert.deepEqual(
    [event.data.id, event.data.paRejectionCode, event.data.paRejectionReason, event.data.attempt],
    [declaration.id, 'REJ_SEMAN', 'Montants incohérents', 1],
  );
  // Submitting it again answers the same rejection and transmits nothing.
  const again = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key });
  assert.equal(again.data.error.code, 'ereporting_declaration_rejected');
  assert.equal(sim.simulator.stats().depositRequests, 1);

  const retried = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/retry`, { key });
  assert.equal(retried.statusCode, 201, retried.body);
  assert.deepEqual(
    [retried.data.status, retried.data.attempt, retried.data.previousAttemptId, retried.data.period],
    ['reserved', 2, declaration.id, declaration.period],
  );
  assert.equal(sim.simulator.stats().depositRequests, 1, 'the retry transmits nothing');
  const replayed = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/retry`, { key });
  assert.equal(replayed.statusCode, 200);
  assert.equal(replayed.data.id, retried.data.id);
  const second = (await h.call('GET', `/v1/ereporting/declarations/${retried.data.id}`, { key })).data;
  assert.equal(second.operations.length, 1, 'the attempt shows the operations of its chain');

  // Attempts 2 and 3 rejected too: the limit.
  sim.simulator.script(retried.data.id, { outcome: 'reject', reason: { code: 'REJ_SEMAN', text: 'encore' } });
  assert.equal(
    (await h.call('POST', `/v1/ereporting/declarations/${retried.data.id}/submit`, { key })).statusCode,
    422,
  );
  const third = await h.call('POST', `/v1/ereporting/declarations/${retried.data.id}/retry`, { key });
  assert.equal(third.data.attempt, 3);
  sim.simulator.script(third.data.id, { outcome: 'reject', reason: { code: 'REJ_SEMAN', text: 'toujours' } });
  assert.equal((await h.call('POST', `/v1/ereporting/declarations/${third.data.id}/submit`, { key })).statusCode, 422);
  const limit = await h.call('POST', `/v1/ereporting/declarations/${third.data.id}/retry`, { key });
  assert.equal(limit.data.error.code, 'ereporting_attempt_limit_reached');

  // A chain that cannot be validated; a declaration without its facts.
  await h.deps.pool.query(
    `update ereporting_declarations set superseded_by_id = 'rep_gone' where company_id = $1 and id = $2`,
    [companyId, declaration.id],
  );
  const superseded = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/retry`, { key });
  assert.equal(superseded.data.error.code, 'ereporting_declaration_already_superseded');
  await h.deps.pool.query(`update ereporting_declarations set lines = null where company_id = $1 and id = $2`, [
    companyId,
    third.data.id,
  ]);
  const incomplete = await h.call('POST', `/v1/ereporting/declarations/${third.data.id}/retry`, { key });
  assert.equal(incomplete.data.error.code, 'ereporting_declaration_incomplete');

  // Three rejections, three events, each once.
  assert.equal((await eventsOf(h, key, 'ereporting.rejected')).length, 3);
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, 3);
  assert.deepEqual(sim.violations(), []);
});

test('a retried attempt is accepted by its submit route', async (t) => {
  const { h, sim } = await setUp(t);
  const { key, declaration } = await reservedDeclaration(h);
  sim.simulator.script(declaration.id, { outcome: 'reject', reason: { code: 'REJ_PER', text: 'Période invalide' } });
  await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key });
  const retried = (await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/retry`, { key })).data;
  const sent = await h.call('POST', `/v1/ereporting/declarations/${retried.id}/submit`, { key });
  assert.equal(sent.statusCode, 200, sent.body);
  assert.deepEqual([sent.data.status, sent.data.attempt], ['accepted', 2]);
  const replay = await h.call('POST', `/v1/ereporting/declarations/${retried.id}/submit`, { key });
  assert.deepEqual([replay.statusCode, replay.data.status], [200, 'accepted']);
  assert.equal(sim.simulator.stats().depositRequests, 2);
  const accepted = await eventsOf(h, key, 'ereporting.accepted');
  assert.deepEqual(
    accepted.map((e) => [e.data.id, e.data.attempt]),
    [[retried.id, 2]],
  );
});

test('two passes and the route racing: transmitted once, each event once', async (t) => {
  const { h, sim } = await setUp(t);
  const other = await startHarness({
    clockStart: '2026-10-15T10:00:00Z',
    config: { sandboxPlatform: { baseUrl: sim.url, ...sim.simulator.clients[0]!, adminToken: null } },
  });
  t.after(() => other.close());
  const { companyId, key } = await seller(h);
  const consumer = await customer(h, key, consumerBuyer);
  await consumerSale(h, key, consumer);
  await consumerSale(h, key, consumer, [advice]);
  await runEreportingPass(h.deps, [companyId]);
  const listed = await declarations(h, key);
  const later = new Date('2026-11-02T00:00:00Z');
  h.clock.set(later);
  other.clock.set(later);
  const results = await Promise.all([
    runEreportingPass(h.deps, [companyId]),
    runEreportingPass(other.deps, [companyId]),
    ...listed.map((d) => h.call('POST', `/v1/ereporting/declarations/${d.id}/submit`, { key })),
  ]);
  for (const response of results.slice(2) as any[]) {
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.data.status, 'accepted');
  }
  assert.equal(sim.simulator.stats().depositRequests, listed.length, 'each declaration transmitted once');
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, listed.length);
  assert.equal((await eventsOf(h, key, 'ereporting.accepted')).length, listed.length);
  // Replayed later (another pass, the route again): nothing new.
  await runEreportingPass(other.deps, [companyId]);
  for (const d of listed) await h.call('POST', `/v1/ereporting/declarations/${d.id}/submit`, { key });
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, listed.length);
  assert.equal(sim.simulator.stats().depositRequests, listed.length);
});

/**
 * A due declaration that a pass claimed (its flow queued in the outbox under the pass's lease)
 * and has not deposited yet, and the submit route called meanwhile.
 */
async function heldByAPass(t: { after: (fn: () => Promise<void>) => void }) {
  const { h, sim } = await setUp(t);
  const { companyId, key, declaration } = await reservedDeclaration(h);
  h.clock.set(new Date('2026-11-02T00:00:00Z'));
  const passCtx = {
    scope: { companyId, livemode: false },
    requestId: null,
    idempotencyKey: null,
    apiVersion: currentVersion,
    now: h.clock.now(),
  };
  const claim = await claimSubmission(h.deps, passCtx, declaration.id, sellerSiren);
  assert.equal(claim.kind, 'queued');
  const flow = (claim as Extract<typeof claim, { kind: 'queued' }>).flow;
  const submit = () => h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key });
  /** The route called while the pass holds the flow; `passStep` is what the pass does next. */
  const submitWhileHeld = async (passStep: () => Promise<unknown>) => {
    const answer = submit();
    await new Promise((resolve) => setTimeout(resolve, 600)); // the route is waiting on the flow
    await passStep();
    return answer;
  };
  const passDelivers = () => deliverFlow(h.deps, declarationFlow, flow, { ctx: passCtx });
  return { h, sim, key, declaration, flow, submit, submitWhileHeld, passDelivers };
}

test('the route waiting on a pass that deposited reads the verdict itself', async (t) => {
  const { h, sim, key, submitWhileHeld, passDelivers } = await heldByAPass(t);
  const answer = await submitWhileHeld(passDelivers);
  assert.deepEqual([answer.statusCode, answer.data.status], [200, 'accepted'], answer.body);
  assert.equal(sim.simulator.stats().depositRequests, 1);
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, 1);
  assert.equal((await eventsOf(h, key, 'ereporting.accepted')).length, 1);
});

test('the route waiting on a pass the platform did not take it from transmits it itself', async (t) => {
  const { h, sim, key, declaration, submitWhileHeld, passDelivers } = await heldByAPass(t);
  sim.simulator.script(declaration.id, { depositAnswers: [{ status: 503 }] });
  const answer = await submitWhileHeld(async () => assert.equal((await passDelivers()).state, 'failed'));
  assert.deepEqual([answer.statusCode, answer.data.status], [200, 'accepted'], answer.body);
  assert.equal(sim.simulator.stats().depositRequests, 2, "the pass's refused try, then the route's");
  assert.equal(sim.simulator.stats().deposits, 1);
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, 1);
  assert.equal((await eventsOf(h, key, 'ereporting.accepted')).length, 1);
});

test('a pass that died once the platform took the file: the route takes its flow back, finds it, transmitted once', async (t) => {
  const { h, sim, key, flow, submit } = await heldByAPass(t);
  // The pass deposited the file, then died before recording anything: its lease lapses.
  const deposited = await sim.connector().deposit({
    file: flow.file,
    name: flow.name,
    syntax: 'FRR',
    trackingId: flow.trackingId,
    processingRule: 'B2C',
  });
  assert.ok(deposited.ok);
  h.clock.advance(flowLeaseMs + 1000);
  const answer = await submit();
  assert.deepEqual([answer.statusCode, answer.data.status], [200, 'accepted'], answer.body);
  assert.equal(answer.data.flowId, deposited.value.flowId);
  assert.equal(sim.simulator.stats().depositRequests, 1, 'the file was not deposited again');
  assert.equal((await eventsOf(h, key, 'ereporting.submitted')).length, 1);
  assert.equal((await eventsOf(h, key, 'ereporting.accepted')).length, 1);
});

test('the route waiting on a pass that the platform keeps waiting answers pa_unavailable, Retry-After', async (t) => {
  const { sim, submit } = await heldByAPass(t);
  const started = Date.now();
  const answer = await submit();
  assert.equal(answer.statusCode, 503, answer.body);
  assert.equal(answer.data.error.code, 'pa_unavailable');
  assert.equal(answer.headers['retry-after'], '60');
  assert.ok(Date.now() - started >= 10_000, 'it waited for the pass first');
  assert.equal(sim.simulator.stats().depositRequests, 0);
});

test('the sandbox clock moves the pass; scopes and other companies', async (t) => {
  const { h } = await setUp(t);
  const { companyId, key, declaration } = await reservedDeclaration(h);
  const moved = await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 20 * 86_400 } });
  assert.equal(moved.statusCode, 200, moved.body);
  const after = (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key })).data;
  assert.equal(after.status, 'accepted');

  const stranger = await h.tenant();
  assert.equal(
    (await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key: stranger.key })).statusCode,
    404,
  );
  assert.equal(
    (await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key: stranger.key })).statusCode,
    404,
  );
  assert.equal(
    (await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/retry`, { key: stranger.key })).statusCode,
    404,
  );
  assert.deepEqual(await declarations(h, stranger.key), []);
  const reader = await h.key(companyId, { scopes: ['invoices:read'] });
  assert.equal((await h.call('GET', `/v1/ereporting/declarations/${declaration.id}`, { key: reader })).statusCode, 200);
  const forbidden = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key: reader });
  assert.equal(forbidden.statusCode, 403);
  const unknown = await h.call('GET', '/v1/ereporting/declarations?state=lost', { key });
  assert.equal(unknown.statusCode, 422);
});

test('without a configured sandbox platform, test declarations go to a simulator started in process', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z', config: { sandboxPlatform: null } });
  t.after(() => h.close());
  const { key, declaration } = await reservedDeclaration(h);
  const sent = await h.call('POST', `/v1/ereporting/declarations/${declaration.id}/submit`, { key });
  assert.equal(sent.statusCode, 200, sent.body);
  assert.equal(sent.data.status, 'accepted');
});
