/**
 * The outbox's generic steps for kinds that need more than a queued file (platform/outbox.ts,
 * outbox-worker.ts): a file made after the flow was queued (`prepare`), a flow held back until
 * its file is ready, a refusal of the service's own without a platform call, a backoff the kind
 * runs itself (`retryAt`), an owner's flows taken back, a lease found lost before the deposit,
 * and the worker woken by the commit that queued a flow. Real PostgreSQL, the simulator over HTTPS.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness.js';
import { seller } from '../invoices/support.js';
import { startCheckedSimulator, type CheckedSimulator } from './support.js';
import { inTransaction, type CallContext } from '../../src/db/transaction.js';
import { currentVersion } from '../../src/kernel/api-version.js';
import type { Scope } from '../../src/db/scope.js';
import type { FlowFailure, FlowKind, FlowPreparation, OutgoingFlow } from '../../src/platform/flows.js';
import {
  createOutboxWorker,
  deliverDueFlows,
  endPlatformFlow,
  latestPlatformFlow,
  outboxPass,
  platformFlowOf,
  queuePlatformFlow,
  reschedulePlatformFlow,
  withdrawPlatformFlows,
} from '../../src/platform/service.js';

let h: Harness;
let platform: CheckedSimulator;
let scope: Scope;

/** What the test kind was told, and what its `prepare` answers next. */
const told: { deposited: string[]; failed: { trackingId: string; failure: FlowFailure }[] } = {
  deposited: [],
  failed: [],
};
let nextPreparation: (flow: OutgoingFlow) => FlowPreparation = (flow) => ({
  state: 'ready',
  file: {
    file: Buffer.from(`<made-late>${flow.trackingId}</made-late>`),
    name: `${flow.trackingId}.xml`,
    syntax: 'CDAR',
  },
});
let retryAt: Date | null = null;

const testKind: FlowKind = {
  kind: 'test.late_file',
  afterLapse: 'deposit',
  worker: { concurrency: 2 },
  call: { retryBudgetMs: 0 },
  connector: async () => platform.connector(),
  prepare: async (_deps, flow) => nextPreparation(flow),
  retryAt: () => retryAt,
  deposited: async (_deps, _tx, flow) => void told.deposited.push(flow.trackingId),
  failed: async (_deps, _tx, flow, failure) => void told.failed.push({ trackingId: flow.trackingId, failure }),
};

const ctxAt = (now: Date): CallContext => ({
  scope,
  requestId: null,
  idempotencyKey: null,
  apiVersion: currentVersion,
  now,
});

/** A flow queued without its file (made when it is tried), committed. */
async function queue(trackingId: string, ownerId = 'own_1', kind = testKind.kind): Promise<void> {
  const now = h.clock.now();
  await inTransaction(h.deps.db, ctxAt(now), (tx) =>
    queuePlatformFlow(
      tx,
      scope,
      {
        kind,
        ownerId,
        trackingId,
        establishmentId: null,
        file: Buffer.alloc(0),
        name: '',
        syntax: 'CDAR',
      },
      now,
    ),
  );
}

async function flowRow(trackingId: string) {
  const { rows } = await h.deps.pool.query(
    'select state, tries, next_attempt_at, last_error, flow_id, lock_token from platform_flows where company_id = $1 and tracking_id = $2',
    [scope.companyId, trackingId],
  );
  return rows[0] as {
    state: string;
    tries: number;
    next_attempt_at: Date;
    last_error: string | null;
    flow_id: string | null;
    lock_token: string | null;
  };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

before(async () => {
  h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  platform = await startCheckedSimulator();
  const company = await seller(h);
  scope = { companyId: company.companyId, livemode: false };
});
after(async () => {
  await platform.stop();
  await h.close();
});

test('the worker wakes on the commit that queued a flow and deposits the file its kind makes then', async () => {
  const worker = createOutboxWorker(h.deps, [testKind], { companyIds: [scope.companyId], pollMs: 60_000 });
  await worker.start();
  try {
    const requests = platform.simulator.stats().depositRequests;
    await queue('late-1');
    await until(async () => told.deposited.includes('late-1'), 'the deposit');
    const row = await flowRow('late-1');
    assert.equal(row.state, 'deposited');
    assert.ok(row.flow_id);
    assert.equal(platform.simulator.stats().depositRequests, requests + 1, 'deposited once, searched for nothing');
    const held = await platform.connector().downloadFlow(row.flow_id!);
    assert.ok(held.ok);
    assert.equal(held.value.toString(), '<made-late>late-1</made-late>', 'the file its kind made went');
  } finally {
    await worker.stop();
  }
});

test('a flow whose file is not ready waits pending until the time its kind says, its try not counted', async () => {
  const at = new Date(h.clock.now().getTime() + 120_000);
  nextPreparation = () => ({ state: 'later', at, reason: 'files_pending' });
  await queue('late-2');
  const worker = createOutboxWorker(h.deps, [testKind], { companyIds: [scope.companyId] });
  const [claimed] = await worker.claim(5);
  assert.equal(claimed?.trackingId, 'late-2');
  const outcome = await worker.handle(claimed!);
  assert.deepEqual(outcome, { state: 'later', at });
  const row = await flowRow('late-2');
  assert.equal(row.state, 'pending');
  assert.equal(row.tries, 0, 'no platform call: not a try');
  assert.equal(row.last_error, 'files_pending');
  assert.equal(new Date(row.next_attempt_at).getTime(), at.getTime());
  assert.deepEqual(await worker.claim(5), [], 'not due before its time');

  nextPreparation = (flow) => ({
    state: 'ready',
    file: { file: Buffer.from(`<x>${flow.trackingId}</x>`), name: 'x.xml', syntax: 'CDAR' },
  });
  h.clock.advance(121_000);
  const [again] = await worker.claim(5);
  assert.equal(again?.tries, 1, 'its first try: no search needed');
  assert.equal((await worker.handle(again!))?.state, 'deposited');
  assert.ok(told.deposited.includes('late-2'));
});

test("the service's own refusal fails the flow without a platform call; a kind's backoff keeps it pending", async () => {
  const failure: FlowFailure = { code: 'buyer_not_in_directory', message: 'no address', platform: null };
  nextPreparation = () => ({ state: 'refused', failure });
  const requests = platform.simulator.stats().depositRequests;
  await queue('late-3');
  const worker = createOutboxWorker(h.deps, [testKind], { companyIds: [scope.companyId] });
  const [claimed] = await worker.claim(5);
  assert.deepEqual(await worker.handle(claimed!), { state: 'failed', failure, retryAt: null });
  assert.equal((await flowRow('late-3')).state, 'failed');
  assert.deepEqual(told.failed.at(-1), { trackingId: 'late-3', failure });
  assert.equal(platform.simulator.stats().depositRequests, requests, 'no deposit asked');

  retryAt = new Date(h.clock.now().getTime() + 30_000);
  await queue('late-4');
  const [backedOff] = await worker.claim(5);
  const outcome = await worker.handle(backedOff!);
  assert.deepEqual(outcome, { state: 'failed', failure, retryAt });
  const row = await flowRow('late-4');
  assert.equal(row.state, 'pending', 'the kind tries it again by itself');
  assert.equal(new Date(row.next_attempt_at).getTime(), retryAt.getTime());
  assert.equal(row.lock_token, null);
  assert.equal(told.failed.at(-1)?.trackingId, 'late-4', 'the failure recorded by the kind all the same');
  retryAt = null;
});

test("an owner's pending flows taken back: their holder records nothing; a lost lease deposits nothing", async () => {
  nextPreparation = (flow) => ({
    state: 'ready',
    file: { file: Buffer.from(`<y>${flow.trackingId}</y>`), name: 'y.xml', syntax: 'CDAR' },
  });
  await queue('late-5', 'own_5');
  const worker = createOutboxWorker(h.deps, [testKind], { companyIds: [scope.companyId] });
  const [held] = await worker.claim(5);
  const now = h.clock.now();
  const withdrawn = await inTransaction(h.deps.db, ctxAt(now), (tx) =>
    withdrawPlatformFlows(tx, scope, testKind.kind, 'own_5', now),
  );
  assert.deepEqual(withdrawn, ['late-5']);
  const deposited = told.deposited.length;
  assert.equal((await worker.handle(held!))?.state, 'lost');
  assert.equal((await flowRow('late-5')).state, 'abandoned');
  assert.equal(told.deposited.length, deposited, 'the owner heard nothing of it');

  await queue('late-6');
  const [lost] = await worker.claim(5);
  const requests = platform.simulator.stats().depositRequests;
  const signal = AbortSignal.abort();
  assert.equal((await worker.handle(lost!, signal))?.state, 'lost');
  assert.equal(platform.simulator.stats().depositRequests, requests, 'no deposit once the lease is known lost');
});

test('the periodic pass leaves the kinds that have a worker of their own to it', async () => {
  await queue('late-7');
  assert.equal(await deliverDueFlows(h.deps, [], { companyIds: [scope.companyId] }), 0);
  const pass = outboxPass([testKind]);
  assert.equal(await pass.run(h.deps, [scope.companyId]), 0);
  assert.equal((await flowRow('late-7')).state, 'pending', 'untouched by the pass');
});

test("the platform's word moves a flow due again: its holder records nothing, the owner's latest flow is found", async () => {
  nextPreparation = (flow) => ({
    state: 'ready',
    file: { file: Buffer.from(`<z>${flow.trackingId}</z>`), name: 'z.xml', syntax: 'CDAR' },
  });
  await queue('late-8-a1', 'own_8');
  h.clock.advance(1000);
  await queue('late-8-a2', 'own_8');
  const latest = await latestPlatformFlow(h.deps.db, scope, testKind.kind, 'own_8');
  assert.equal(latest?.trackingId, 'late-8-a2', 'the last queued');
  assert.equal((await platformFlowOf(h.deps.db, scope, 'late-8-a1'))?.state, 'pending');
  assert.equal(await platformFlowOf(h.deps.db, scope, 'late-none'), undefined);

  const worker = createOutboxWorker(h.deps, [testKind], { companyIds: [scope.companyId] });
  const held = (await worker.claim(5)).find((flow) => flow.trackingId === 'late-8-a2')!;
  const now = h.clock.now();
  const at = new Date(now.getTime() + 3_600_000);
  assert.equal(
    await inTransaction(h.deps.db, ctxAt(now), (tx) => reschedulePlatformFlow(tx, scope, 'late-8-a2', at, now)),
    true,
  );
  assert.equal((await worker.handle(held))?.state, 'lost', "the word read is the flow's last");
  const row = await flowRow('late-8-a2');
  assert.equal(row.state, 'pending');
  assert.equal(new Date(row.next_attempt_at).getTime(), at.getTime());
  assert.equal(row.lock_token, null);

  // An acknowledgement `Error` read while a holder tries it again: the flow ends failed, the holder's try dropped.
  h.clock.advance(3_601_000);
  const again = (await worker.claim(5)).find((flow) => flow.trackingId === 'late-8-a2')!;
  const later = h.clock.now();
  await inTransaction(h.deps.db, ctxAt(later), (tx) =>
    endPlatformFlow(tx, scope, 'late-8-a2', { state: 'failed', lastError: 'REJ_SEMAN' }, later),
  );
  assert.equal((await worker.handle(again))?.state, 'lost');
  const ended = await flowRow('late-8-a2');
  assert.equal(ended.state, 'failed');
  assert.equal(ended.last_error, 'REJ_SEMAN');
});

test('deposits the platform took together are recorded in one transaction; one refused record loses none of the others', async () => {
  const recorded: string[] = [];
  const batchKind: FlowKind = {
    ...testKind,
    kind: 'test.batch',
    prepare: async (_deps, flow) => ({
      state: 'ready',
      file: { file: Buffer.from(`<b>${flow.trackingId}</b>`), name: 'b.xml', syntax: 'CDAR' },
    }),
    deposited: async (_deps, _tx, flow) => {
      if (flow.trackingId.startsWith('poison')) throw new Error('the owner refuses this record');
      recorded.push(flow.trackingId);
    },
  };
  const queueBatch = (trackingId: string) => queue(trackingId, trackingId, batchKind.kind);
  // Rows written by one transaction carry its id (xmin).
  const writer = async (trackingId: string) =>
    (
      await h.deps.pool.query(
        'select xmin::text as xmin, state from platform_flows where company_id = $1 and tracking_id = $2',
        [scope.companyId, trackingId],
      )
    ).rows[0] as { xmin: string; state: string };
  const worker = createOutboxWorker(h.deps, [batchKind], { companyIds: [scope.companyId], recordWindowMs: 5_000 });

  await queueBatch('batch-1');
  await queueBatch('batch-2');
  const pair = (await worker.claim(5)).filter((flow) => flow.trackingId.startsWith('batch-'));
  assert.equal(pair.length, 2);
  // A hand of 2 (the kind's concurrency) fills the batch: recorded at once, not after the 5 s window.
  const outcomes = await Promise.all(pair.map((flow) => worker.handle(flow)));
  assert.deepEqual(
    outcomes.map((outcome) => outcome?.state),
    ['deposited', 'deposited'],
  );
  const [first, second] = [await writer('batch-1'), await writer('batch-2')];
  assert.deepEqual([first.state, second.state], ['deposited', 'deposited']);
  assert.equal(first.xmin, second.xmin, 'one commit for both');
  assert.deepEqual(recorded.sort(), ['batch-1', 'batch-2']);

  await queueBatch('poison-3');
  await queueBatch('batch-4');
  const mixed = (await worker.claim(5)).filter((flow) => ['poison-3', 'batch-4'].includes(flow.trackingId));
  assert.equal(mixed.length, 2);
  const results = await Promise.allSettled(mixed.map((flow) => worker.handle(flow)));
  assert.equal((await writer('batch-4')).state, 'deposited', 'recorded alone once the batch failed');
  assert.ok(recorded.includes('batch-4'));
  assert.notEqual(
    (await writer('poison-3')).state,
    'deposited',
    'its record refused: left to the lease and the search',
  );
  assert.equal(results.length, 2);
});
