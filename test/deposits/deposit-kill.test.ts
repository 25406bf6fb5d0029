/**
 * `kill -9` of a deposit worker between the platform's answer and the service's commit: the
 * platform holds the flow, nothing is recorded; once the lease lapses (30 s after its last
 * renewal: a live worker renews it), the next worker finds the flow by the attempt's tracking id
 * and records it. One deposit on the platform, one event.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startScript } from '../support/processes.js';
import { startCheckedSimulator } from '../platform/support.js';
import {
  buyerSiren,
  connectedSeller,
  depositRows,
  eventTypes,
  read,
  readyInvoice,
  send,
  startWorld,
} from './support.js';

test(
  'kill -9 after the platform accepted the deposit, before the commit: one deposit, recorded by the next worker',
  { timeout: 120_000 },
  async (t) => {
    // The child opens the platform secret the parent sealed: the same key.
    const encryptionKey = randomBytes(32);
    const world = await startWorld({ config: { encryptionKey } });
    const platform = await startCheckedSimulator();
    t.after(async () => {
      await platform.stop();
      await world.close();
    });
    platform.simulator.seedDirectory([{ siren: buyerSiren }]);
    const seller = await connectedSeller(world, platform);
    const invoice = await readyInvoice(world, seller);
    await send(world, seller, invoice.id);
    const before = platform.simulator.stats();

    const script = startScript(
      new URL('./support/deposit-child.ts', import.meta.url),
      [seller.companyId, world.h.clock.now().toISOString()],
      { ...process.env, FACTEUR_ENCRYPTION_KEY: encryptionKey.toString('hex') },
      /DEPOSITED (\S+)/,
    );
    t.after(() => {
      if (script.child.exitCode === null && script.child.signalCode === null) script.child.kill('SIGKILL');
    });
    const deposited = (await script.reached)[1]!;
    assert.equal(deposited, invoice.id);
    const held = platform.simulator.stats();
    assert.deepEqual(
      [held.deposits - before.deposits, held.depositRequests - before.depositRequests],
      [1, 1],
      'the platform holds the flow',
    );

    script.child.kill('SIGKILL');
    assert.equal((await script.exited).signal, 'SIGKILL');
    const [left] = await depositRows(world, seller.companyId, invoice.id);
    assert.deepEqual([left!.state, left!.tries, left!.flow_id], ['pending', 1, null], 'nothing recorded');
    assert.equal((await read(world, seller, invoice.id)).transmissionStatus, 'sending');
    const { rows } = await world.h.deps.pool.query(
      "select locked_until from platform_flows where company_id = $1 and owner_id = $2 and kind = 'invoices.deposit'",
      [seller.companyId, invoice.id],
    );
    const leftFor = (rows[0].locked_until as Date).getTime() - world.h.clock.now().getTime();
    assert.ok(leftFor > 0 && leftFor <= 30_000, `the dead worker left a lease of at most 30 s: ${leftFor} ms`);

    const survivor = world.depositWorker();
    assert.equal(await survivor.drain(), 0, "the dead worker's lease holds the job");
    // A restarted service takes the job back once the short lease lapsed (it was 120 s).
    world.h.clock.advance(31_000);
    assert.equal(await survivor.drain(), 1, 'the lease lapsed: taken over');
    const [job] = await depositRows(world, seller.companyId, invoice.id);
    assert.equal(job!.state, 'deposited');
    assert.equal(job!.tries, 2);
    const after = platform.simulator.stats();
    assert.deepEqual(
      [after.deposits - before.deposits, after.depositRequests - before.depositRequests],
      [1, 1],
      'found by its tracking id, not deposited again',
    );
    // The platform's statuses, polled: its 200 moves the document to deposited, once.
    await world.poll();
    const doc = await read(world, seller, invoice.id);
    assert.notEqual(doc.transmissionStatus, 'sending');
    assert.equal(doc.einvoicing.paFlowId, job!.flow_id);
    assert.deepEqual(
      (await eventTypes(world, seller, invoice.id)).filter((type) => type === 'invoice.deposited'),
      ['invoice.deposited'],
    );
  },
);
