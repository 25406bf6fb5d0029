/**
 * The claim loop's prefetch: items claimed ahead of the free slots wait in hand and start as a
 * slot frees, without a claim's round trip; never more than `concurrency` run at once; a stop
 * handles what was claimed (nothing stays leased until its lease lapses); items that finish during
 * a claim do not each cost a claim of their own.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { createClaimLoop } from '../../src/workers/claim-loop.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

/** A queue of `total` items and a loop over it whose handlers finish when the test says. */
function scripted(total: number, concurrency: number, prefetch: number, refillAt: number) {
  let next = 0;
  /** While set, a claim waits for it: items finish during a claim. */
  let claimGate: Promise<void> | null = null;
  const claims: number[] = [];
  const running = new Set<number>();
  const handled: number[] = [];
  let maxRunning = 0;
  const gates = new Map<number, () => void>();
  const loop = createClaimLoop<number>({
    pool: h.deps.pool,
    channel: 'facteur_claim_loop_test',
    log: pino({ level: 'silent' }),
    concurrency,
    prefetch,
    refillAt,
    pollMs: 60_000,
    claim: async (limit) => {
      claims.push(limit);
      await claimGate;
      const items = Array.from({ length: Math.min(limit, total - next) }, () => next++);
      return items;
    },
    handle: async (item) => {
      running.add(item);
      maxRunning = Math.max(maxRunning, running.size);
      await new Promise<void>((resolve) => gates.set(item, resolve));
      running.delete(item);
      handled.push(item);
    },
    describe: (item) => ({ item }),
  });
  const finish = async (item: number) => {
    for (let i = 0; i < 200 && !gates.has(item); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    gates.get(item)!();
    await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const holdClaims = () => {
    let open!: () => void;
    claimGate = new Promise<void>((resolve) => (open = resolve));
    return () => {
      claimGate = null;
      open();
    };
  };
  return { loop, claims, running, handled, finish, holdClaims, max: () => maxRunning, claimed: () => next };
}

test('prefetch: claimed ahead, started as slots free without a claim, never more than concurrency at once', async () => {
  const run = scripted(20, 2, 3, 2);
  await run.loop.start();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(run.claims, [5], 'one claim fills the slots and the prefetch');
  assert.deepEqual([...run.running].sort(), [0, 1]);
  await run.finish(0);
  // Item 2 was waiting in hand: it starts at once; four items in hand, above refillAt.
  assert.deepEqual([...run.running].sort(), [1, 2]);
  assert.deepEqual(run.claims, [5], 'no claim while more than refillAt items are in hand');
  await run.finish(1);
  await run.finish(2);
  // In hand now: 3 and 4 running, nothing waiting (2 <= refillAt): the loop claimed again.
  assert.ok(run.claims.length >= 2, `claimed again once refillAt was reached: ${run.claims}`);
  assert.ok(run.max() <= 2, `at most two at once, saw ${run.max()}`);
  const stopped = run.loop.stop();
  // A stop handles what was claimed: every claimed item ends handled.
  while (run.handled.length < run.claimed()) {
    const item = [...run.running][0];
    assert.ok(item !== undefined, 'a claimed item is neither running nor handled');
    await run.finish(item);
  }
  await stopped;
  assert.equal(run.handled.length, run.claimed());
  assert.deepEqual(
    [...run.handled].sort((a, b) => a - b),
    Array.from({ length: run.claimed() }, (_, i) => i),
  );
});

test('without prefetch the loop claims only free slots, as before', async () => {
  const run = scripted(6, 3, 0, 1);
  await run.loop.start();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(run.claims, [3]);
  await run.finish(0);
  assert.deepEqual(run.claims, [3], 'two still in hand, above refillAt');
  await run.finish(1);
  assert.deepEqual(run.claims, [3, 2], 'refilled the two free slots');
  const stopped = run.loop.stop();
  while (run.running.size > 0) await run.finish([...run.running][0]!);
  await stopped;
  assert.equal(run.handled.length, run.claimed());
});

test('items finished during a claim wait for the hand to fall to refillAt before the next claim', async () => {
  const run = scripted(40, 4, 4, 4);
  await run.loop.start();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(run.claims, [8], 'one claim fills the four slots and the four ahead');
  // Four finish: the four in hand start, four are held (= refillAt), a claim starts and is held.
  const release = run.holdClaims();
  for (const item of [0, 1, 2, 3]) await run.finish(item);
  assert.deepEqual(run.claims, [8, 4]);
  // One more finishes while the claim runs: three in hand, below the capacity, above nothing.
  await run.finish(4);
  release();
  await new Promise((resolve) => setTimeout(resolve, 30));
  // The claim brought four: seven in hand, more than refillAt. No claim for the one free place.
  assert.deepEqual(run.claims, [8, 4], `no claim of one item after the claim: ${run.claims}`);
  // Three more finish: four in hand, the next claim fills the hand again.
  for (const item of [5, 6, 7]) await run.finish(item);
  assert.deepEqual(run.claims, [8, 4, 4]);
  const stopped = run.loop.stop();
  while (run.running.size > 0) await run.finish([...run.running][0]!);
  await stopped;
  assert.equal(run.handled.length, run.claimed());
});

test('leases renewed while in hand: one renewal per beat for every item, a lost item dropped, the beat stopped at the end', async () => {
  const renewals: number[][] = [];
  /** Items another worker took over: renewals no longer find them. */
  const lost = new Set<number>();
  const handled: number[] = [];
  const signals = new Map<number, AbortSignal>();
  const gates = new Map<number, () => void>();
  let next = 0;
  const loop = createClaimLoop<number>({
    pool: h.deps.pool,
    channel: 'facteur_claim_loop_lease_test',
    log: pino({ level: 'silent' }),
    concurrency: 1,
    prefetch: 1,
    pollMs: 60_000,
    claim: async (limit) => Array.from({ length: Math.min(limit, 2 - next) }, () => next++),
    // A 60 ms lease: a beat every 20 ms.
    lease: {
      leaseMs: 60,
      renew: async (items) => {
        renewals.push([...items].sort());
        return items.filter((item) => !lost.has(item));
      },
    },
    handle: async (item, lease) => {
      handled.push(item);
      signals.set(item, lease);
      await new Promise<void>((resolve) => gates.set(item, resolve));
    },
    describe: (item) => ({ item }),
  });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await loop.start();
  await sleep(100);
  assert.deepEqual(handled, [0], 'one slot: item 1 waits in hand');
  assert.ok(renewals.length >= 2, `renewed every beat: ${renewals.length}`);
  assert.deepEqual(renewals.at(-1), [0, 1], 'one renewal for the item handled and the one waiting');
  lost.add(1);
  await sleep(60);
  assert.equal(signals.get(0)!.aborted, false, 'item 0 still held');
  lost.add(0);
  await sleep(60);
  assert.equal(signals.get(0)!.aborted, true, "item 0's handler learns its lease was lost");
  const stopped = loop.stop();
  gates.get(0)!();
  await stopped;
  assert.deepEqual(handled, [0], 'item 1, lost while it waited, is never handled');
  const beats = renewals.length;
  await sleep(80);
  assert.equal(renewals.length, beats, 'nothing in hand: no more beats');
});
