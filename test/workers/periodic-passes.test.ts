/**
 * The periodic passes after a restart: a node that starts runs its passes at once (not a period
 * later), and a pass whose node died mid-run is run by another within its short lease (40 s on
 * the clock after the dead node's last renewal, not 10 minutes).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createPassRunner, type PeriodicPass } from '../../src/workers/periodic-passes.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pass of this test (a name of its own) whose runs the test counts and may hold. */
function testPass(gate: Promise<void> = Promise.resolve()) {
  const runs: number[] = [];
  const pass: PeriodicPass = {
    name: `test.pass-${randomUUID()}`,
    everyMs: 60_000,
    run: async () => {
      runs.push(Date.now());
      await gate;
      return 0;
    },
  };
  return { pass, runs };
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(20);
  }
  return false;
}

const removePass = (name: string) => h.deps.pool.query('delete from periodic_passes where name = $1', [name]);

test('a node that starts runs a pass at once, though its last run set the next one a period later', async (t) => {
  const { pass, runs } = testPass();
  t.after(() => removePass(pass.name));
  // The node before the restart ran it just now: the next run was a minute away.
  await h.deps.pool.query(`insert into periodic_passes (name, every_ms, next_run_at) values ($1, 60000, $2)`, [
    pass.name,
    new Date(h.clock.now().getTime() + 60_000),
  ]);
  const runner = createPassRunner(h.deps, [pass]);
  await runner.start();
  try {
    assert.ok(await until(() => runs.length === 1, 3000), 'run on the start');
  } finally {
    await runner.stop();
  }
  const { rows } = await h.deps.pool.query('select next_run_at from periodic_passes where name = $1', [pass.name]);
  assert.equal((rows[0].next_run_at as Date).getTime(), h.clock.now().getTime() + 60_000, 'then every period');
});

test('a pass whose node died mid-run is run by another node 41 s later on the clock', async (t) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const dying = testPass(held);
  t.after(() => removePass(dying.pass.name));
  const dead = createPassRunner(h.deps, [dying.pass]);
  await dead.start();
  assert.ok(await until(() => dying.runs.length === 1, 3000), 'the first node runs the pass');
  const { rows } = await h.deps.pool.query('select locked_until from periodic_passes where name = $1', [
    dying.pass.name,
  ]);
  const leasedFor = (rows[0].locked_until as Date).getTime() - h.clock.now().getTime();
  assert.ok(leasedFor <= 40_000, `leased at most 40 s (it was 10 minutes): ${leasedFor} ms`);
  // The first node is gone: it claims nothing more, and its beats never come (the clock moves
  // past its lease at once, long before a beat is due in real time).
  const stopping = dead.stop();
  const survivor = { pass: { ...dying.pass }, runs: [] as number[] };
  survivor.pass.run = async () => {
    survivor.runs.push(Date.now());
    return 0;
  };
  const other = createPassRunner(h.deps, [survivor.pass]);
  await other.start();
  try {
    assert.equal(await until(() => survivor.runs.length > 0, 300), false, 'leased: not run by the other node');
    h.clock.advance(41_000);
    assert.ok(await until(() => survivor.runs.length === 1, 3000), 'run by the other node once the lease lapsed');
  } finally {
    release();
    await Promise.all([stopping, other.stop()]);
  }
});
