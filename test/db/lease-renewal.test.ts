/**
 * Short leases renewed while their holder works (db/leased-claim.ts `renewLeased`,
 * db/lease-heartbeat.ts): one statement renews every lease in hand and tells the lost ones apart;
 * a polling pass keeps its readers past their lease while it works, drops a reader it lost, and a
 * reader left by a dead pass (leased, never renewed) is polled again once its short lease lapsed
 * on the harness's clock.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { renewLeased } from '../../src/db/leased-claim.js';
import { pollEachReader, readerLeaseMs, type ClaimedReader, type ReaderPass } from '../../src/db/reader-claim.js';
import {
  claimInboxReaders,
  ensureInboxReaders,
  renewInboxReaders,
  updateInboxReader,
} from '../../src/platform/inbox-store.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds (up to 5 s of real time: a heartbeat beats on real time). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 250; i += 1) {
    if (await check()) return;
    await sleep(20);
  }
  assert.fail(`never: ${what}`);
}

const passLease = { table: 'periodic_passes', key: ['name'] };

/** A periodic pass row of this test, leased to `token` (null: free) until `until`. */
async function passRow(token: string | null, lockedUntil: Date | null): Promise<string> {
  const name = `test.lease-${randomUUID()}`;
  await h.deps.pool.query(
    `insert into periodic_passes (name, every_ms, next_run_at, locked_until, lock_token) values ($1, 60000, now(), $2, $3)`,
    [name, lockedUntil, token],
  );
  return name;
}

const lockedUntilOf = async (name: string): Promise<Date | null> =>
  (await h.deps.pool.query('select locked_until from periodic_passes where name = $1', [name])).rows[0].locked_until;

test('renewLeased: one statement extends the leases still held, and tells the lost ones apart', async (t) => {
  const now = h.clock.now();
  const soon = new Date(now.getTime() + 1000);
  const mine = await passRow('mine', soon);
  const lapsedButMine = await passRow('mine', new Date(now.getTime() - 5000));
  const takenOver = await passRow('another-holder', soon);
  const settled = await passRow(null, null);
  const locked = await passRow('mine', soon);
  t.after(() =>
    h.deps.pool.query('delete from periodic_passes where name = any($1)', [
      [mine, lapsedButMine, takenOver, settled, locked],
    ]),
  );
  // Another transaction holds one row (its holder settling it): the renewal does not wait for it.
  const other = await h.deps.pool.connect();
  try {
    await other.query('begin');
    await other.query('select 1 from periodic_passes where name = $1 for update', [locked]);
    const held = [mine, lapsedButMine, takenOver, settled, locked];
    const started = Date.now();
    const kept = await renewLeased(h.deps.db, passLease, held, (name) => ({ key: [name], token: 'mine' }), {
      now,
      leaseMs: 30_000,
    });
    assert.ok(Date.now() - started < 2000, 'the locked row was skipped, not waited for');
    assert.deepEqual(kept, [mine, lapsedButMine, locked], 'taken over or settled: lost; locked: still held');
    await other.query('commit');
  } finally {
    other.release();
  }
  const renewed = now.getTime() + 30_000;
  assert.equal((await lockedUntilOf(mine))!.getTime(), renewed);
  assert.equal((await lockedUntilOf(lapsedButMine))!.getTime(), renewed, 'lapsed, nobody took it: still the holder’s');
  assert.equal((await lockedUntilOf(takenOver))!.getTime(), soon.getTime(), "another holder's lease is left alone");
  assert.equal(await lockedUntilOf(settled), null, 'a settled row is not leased again');
  assert.equal((await lockedUntilOf(locked))!.getTime(), soon.getTime(), 'renewed by the next beat');
});

/** A company with `count` status readers (establishments of its own), none leased. */
async function readers(count: number): Promise<{ companyId: string; establishments: string[] }> {
  const companyId = await h.company();
  const establishments = Array.from({ length: count }, (_, index) => `est_lease_${index}_${randomUUID()}`);
  for (const establishmentId of establishments)
    await ensureInboxReaders(h.deps.db, [{ companyId, livemode: false, id: establishmentId }], h.clock.now());
  return { companyId, establishments };
}

async function readerLease(companyId: string, establishmentId: string) {
  const { rows } = await h.deps.pool.query(
    'select lock_token, locked_until from platform_readers where company_id = $1 and establishment_id = $2',
    [companyId, establishmentId],
  );
  return rows[0] as { lock_token: string | null; locked_until: Date | null };
}

/** A pass over the company's status readers whose polls the test lets finish; each poll releases its reader. */
function heldPass(companyId: string, leaseMs?: number) {
  const polled: string[] = [];
  const gates = new Map<string, () => void>();
  const pass: ReaderPass = {
    claim: (tx, lease, done) => claimInboxReaders(tx, lease, done, [companyId]),
    renew: renewInboxReaders,
    poll: async (reader: ClaimedReader) => {
      polled.push(reader.establishmentId);
      await new Promise<void>((resolve) => gates.set(reader.establishmentId, resolve));
      await updateInboxReader(h.deps.db, reader, { lastPolledAt: h.clock.now() }, true);
      return 1;
    },
    failed: async () => undefined,
    ...(leaseMs ? { leaseMs } : {}),
  };
  const finish = async (establishmentId: string) => {
    await until(async () => gates.has(establishmentId), `${establishmentId} polled`);
    gates.get(establishmentId)!();
  };
  return { pass, polled, finish };
}

/** A pass whose polls release their reader at once. */
function quickPass(companyId: string) {
  const polled: string[] = [];
  const pass: ReaderPass = {
    claim: (tx, lease, done) => claimInboxReaders(tx, lease, done, [companyId]),
    renew: renewInboxReaders,
    poll: async (reader: ClaimedReader) => {
      polled.push(reader.establishmentId);
      await updateInboxReader(h.deps.db, reader, { lastPolledAt: h.clock.now() }, true);
      return 1;
    },
    failed: async () => undefined,
  };
  return { pass, polled };
}

test('a live pass keeps its readers past their lease: renewed while it works, no other pass takes them', async () => {
  const { companyId, establishments } = await readers(2);
  // A lease of 300 ms renewed every 100 ms (real time), on the harness's clock.
  const live = heldPass(companyId, 300);
  const running = pollEachReader(h.deps, live.pass);
  await until(async () => live.polled.length === 1, 'the first reader polled');
  const token = (await readerLease(companyId, establishments[0]!)).lock_token;
  h.clock.advance(10_000);
  // Both readers in hand, the one polled and the one waiting its turn, renewed past the clock's move.
  for (const establishmentId of establishments)
    await until(
      async () => (await readerLease(companyId, establishmentId)).locked_until! > h.clock.now(),
      `${establishmentId} renewed`,
    );
  const other = quickPass(companyId);
  assert.equal(await pollEachReader(h.deps, other.pass), 0, 'another pass finds every reader leased');
  assert.equal((await readerLease(companyId, establishments[0]!)).lock_token, token);
  for (const establishmentId of establishments) await live.finish(establishmentId);
  assert.equal(await running, 2);
  assert.equal((await readerLease(companyId, establishments[0]!)).locked_until, null, 'released: the beat stopped');
});

test('a reader whose lease another pass took while it waited in hand is not polled', async () => {
  const { companyId, establishments } = await readers(2);
  const live = heldPass(companyId, 300);
  const running = pollEachReader(h.deps, live.pass);
  await until(async () => live.polled.length === 1, 'the first reader polled');
  const waiting = establishments.find((id) => id !== live.polled[0])!;
  // Its lease lapsed (a stalled node) and another pass claimed it: a renewal finds it lost.
  await h.deps.pool.query(
    `update platform_readers set lock_token = 'another-pass' where company_id = $1 and establishment_id = $2`,
    [companyId, waiting],
  );
  await sleep(400);
  await live.finish(live.polled[0]!);
  // Polled anyway, the lost reader's poll would wait for the test: the pass would not end.
  assert.equal(await Promise.race([running, sleep(2000).then(() => 'still polling')]), 1);
  assert.deepEqual(live.polled, [establishments.find((id) => id !== waiting)], 'the lost reader was dropped');
  assert.equal((await readerLease(companyId, waiting)).lock_token, 'another-pass', 'left to the pass that has it');
});

test("a dead pass's reader (leased, never renewed) is polled again once its short lease lapsed on the clock", async () => {
  const { companyId, establishments } = await readers(1);
  const [dead] = await claimInboxReaders(
    h.deps.db,
    { now: h.clock.now(), limit: 10, leaseMs: readerLeaseMs, token: 'dead-pass' },
    [],
    [companyId],
  );
  assert.equal(dead?.establishmentId, establishments[0]);
  h.clock.advance(19_000);
  assert.equal(await pollEachReader(h.deps, quickPass(companyId).pass), 0, 'still leased 19 s after the claim');
  // (A poll used to lease its readers 300 s.) 21 s after the claim, the reader is polled again.
  h.clock.advance(2_000);
  const late = quickPass(companyId);
  assert.equal(await pollEachReader(h.deps, late.pass), 1, 'taken back 21 s after the claim');
  assert.deepEqual(late.polled, establishments);
});
