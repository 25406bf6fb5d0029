/**
 * The deposit job's short lease, renewed while its worker is alive: a deposit that takes longer
 * than the lease stays with its worker (another worker does not deposit it again), and a worker
 * told its lease was lost deposits nothing (the worker that took the job over does).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import { buyerSiren, connectedSeller, depositRows, readyInvoice, send, startWorld, type World } from './support.js';

let world: World;
let platform: CheckedSimulator;

before(async () => {
  world = await startWorld();
  platform = await startCheckedSimulator();
  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
});
after(async () => {
  await platform.stop();
  await world.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function lockedUntil(companyId: string, documentId: string): Promise<Date | null> {
  const { rows } = await world.h.deps.pool.query(
    'select locked_until from document_deposits where company_id = $1 and document_id = $2',
    [companyId, documentId],
  );
  return rows[0].locked_until;
}

test('a worker that deposits past its lease keeps the job: renewed, no other worker takes it', async () => {
  const seller = await connectedSeller(world, platform);
  const invoice = await readyInvoice(world, seller);
  await send(world, seller, invoice.id);
  const before = platform.simulator.stats();
  let tookIt!: () => void;
  const platformTookIt = new Promise<void>((resolve) => (tookIt = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // A lease of 600 ms on the harness's clock, renewed every 200 ms of real time.
  const holder = world.depositWorker({
    companyIds: [seller.companyId],
    leaseMs: 600,
    afterDeposit: async () => {
      tookIt();
      await released;
    },
  });
  const draining = holder.drain();
  await platformTookIt;
  world.h.clock.advance(10_000);
  // The lease lapsed on the clock; the holder's next beat renews it from there.
  for (let i = 0; i < 250 && !((await lockedUntil(seller.companyId, invoice.id))! > world.h.clock.now()); i += 1)
    await sleep(20);
  assert.ok((await lockedUntil(seller.companyId, invoice.id))! > world.h.clock.now(), 'renewed past the clock');
  const other = world.depositWorker({ companyIds: [seller.companyId] });
  assert.deepEqual(await other.claim(), [], 'the live holder keeps its job');
  release();
  assert.equal(await draining, 1);
  const [job] = await depositRows(world, seller.companyId, invoice.id);
  assert.deepEqual([job!.state, job!.tries], ['deposited', 1]);
  assert.equal(await lockedUntil(seller.companyId, invoice.id), null, 'settled: no lease left');
  const stats = platform.simulator.stats();
  assert.equal(stats.depositRequests - before.depositRequests, 1, 'one deposit');
});

test('a worker whose lease was lost does not deposit: the job is left to the worker that has it', async () => {
  const seller = await connectedSeller(world, platform);
  const invoice = await readyInvoice(world, seller);
  await send(world, seller, invoice.id);
  const before = platform.simulator.stats();
  const worker = world.depositWorker({ companyIds: [seller.companyId] });
  const [claim] = await worker.claim(1);
  assert.equal(claim?.documentId, invoice.id);
  // What the heartbeat signals once a renewal finds the job another worker's.
  const lost = new AbortController();
  lost.abort();
  await worker.handle(claim!, lost.signal);
  assert.equal(platform.simulator.stats().depositRequests - before.depositRequests, 0, 'nothing deposited');
  const [job] = await depositRows(world, seller.companyId, invoice.id);
  assert.deepEqual([job!.state, job!.flow_id, job!.last_error], ['pending', null, null], 'nothing recorded');
});
