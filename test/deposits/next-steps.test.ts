/**
 * The next steps the service owns after a platform's rejection (contract, "Next step by rejection
 * category"), acted on end to end against pa-simulator over HTTPS: an addressing error reads the
 * directory again and deposits a new attempt, a buyer the platform does not find is watched in the
 * directory and resumed, an uncodified reason (`AUTRE`) is explained in `rejectionNote`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import { maxAutomaticRedeposits } from '../../src/invoices/rejection-follow-up.js';
import {
  buyerSiren,
  connectedSeller,
  depositRows,
  documentEvents,
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
let main: ConnectedSeller;

before(async () => {
  world = await startWorld();
  platform = await startCheckedSimulator();
  main = await connectedSeller(world, platform);
  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
});
after(async () => {
  await platform.stop();
  await world.close();
  assert.deepEqual(
    platform.violations().filter((line) => !line.includes('directoryLineStatus must NOT have more than 7')),
    [],
    'every exchange follows the AFNOR OpenAPI documents',
  );
});

/** The directory lookups the simulator answered so far. */
const directoryLookups = () => platform.exchanges.filter((exchange) => exchange.service === 'directory').length;

/** The buyer's directory line: active (`Enabled`), or not. */
const buyerListed = (status: 'Enabled' | 'Disabled') =>
  platform.simulator.seedDirectory([{ siren: buyerSiren, status }]);

/** The obligation of a document the service holds back: it retries on its own at that time. */
const retriedByService = (reasonCode: string, reasonSource: string, nextAttemptAt: Date) => ({
  state: 'waiting',
  reasonCode,
  reasonSource,
  owner: 'service',
  action: 'retry',
  nextAttemptAt: nextAttemptAt.toISOString(),
});

/** An invoice sent and deposited, its first attempt scripted (the later ones are the default: approved). */
async function depositedWith(firstAttempt: Parameters<typeof platform.simulator.script>[1]) {
  const invoice = await readyInvoice(world, main);
  platform.simulator.script(`${invoice.id}-a1`, firstAttempt);
  await send(world, main, invoice.id);
  await world.deposits.drain();
  return invoice;
}

const rejectionFields = (doc: any) => ({
  category: doc.einvoicing.rejectionCategory,
  code: doc.einvoicing.rejectionCode,
  source: doc.einvoicing.rejectionSource,
  reason: doc.einvoicing.rejectionReason,
  note: doc.einvoicing.rejectionNote,
});

test('AUTRE at the acknowledgement: category other, the platform’s explanation in rejectionNote', async () => {
  const invoice = await readyInvoice(world, main);
  const explanation = 'Le compte du destinataire est clos sur cette plateforme';
  platform.simulator.script(invoice.number, { outcome: 'reject', reason: { code: 'AUTRE', text: explanation } });
  await send(world, main, invoice.id);
  await world.deposits.drain();
  await world.poll();
  const doc = await read(world, main, invoice.id);
  assert.deepEqual([doc.status, doc.transmissionStatus], ['rejected', 'rejected']);
  assert.deepEqual(rejectionFields(doc), {
    category: 'other',
    code: 'AUTRE',
    source: 'platform',
    reason: explanation,
    note: explanation,
  });
});

test('AUTRE answered to the deposit itself: the same note', async () => {
  const invoice = await readyInvoice(world, main);
  const explanation = 'Flux refusé : motif non codifié';
  platform.simulator.script(invoice.number, {
    depositAnswers: [{ status: 400, errorCode: 'AUTRE', errorMessage: explanation }],
  });
  await send(world, main, invoice.id);
  await world.deposits.drain();
  const doc = await read(world, main, invoice.id);
  assert.deepEqual(rejectionFields(doc), {
    category: 'other',
    code: 'AUTRE',
    source: 'platform',
    reason: explanation,
    note: explanation,
  });
});

test('addressing error (213 REJ_ADR): the service reads the directory again and deposits a new attempt by itself', async () => {
  const invoice = await depositedWith({ outcome: 'reject', reason: { code: 'REJ_ADR', text: 'Adresse inconnue' } });
  await world.poll();
  const rejected = await read(world, main, invoice.id);
  assert.deepEqual([rejected.status, rejected.transmissionStatus], ['rejected', 'rejected']);
  assert.deepEqual(rejectionFields(rejected), {
    category: 'addressing_error',
    code: 'REJ_ADR',
    source: 'platform',
    reason: 'Adresse inconnue',
    note: null,
  });
  const [watched] = await depositRows(world, main.companyId, invoice.id);
  assert.equal(watched!.state, 'waiting_directory');
  assert.ok(watched!.next_attempt_at! <= world.h.clock.now(), 'the directory is read again at once');
  const handled = retriedByService('REJ_ADR', 'platform', watched!.next_attempt_at!);
  assert.deepEqual(rejected.obligation, handled, 'handled by the service; no client action');
  const [event] = (await documentEvents(world, main, invoice.id)).filter((e) => e.type === 'invoice.rejected');
  assert.deepEqual(event.data.obligation, handled, 'the rejection tells it already');

  // The buyer's address was found a moment ago and is remembered: read again anyway, once.
  const lookups = directoryLookups();
  await world.deposits.drain();
  assert.equal(directoryLookups() - lookups, 1, 'the directory read again');
  assert.deepEqual(
    (await depositRows(world, main.companyId, invoice.id)).map((row) => [row.attempt, row.state]),
    [
      [1, 'abandoned'],
      [2, 'deposited'],
    ],
  );
  assert.equal(platform.simulator.stats().flowsByInvoice[invoice.number], 2, 'a second deposit on the platform');
  await world.poll();
  const approved = await read(world, main, invoice.id);
  assert.equal(approved.status, 'approved');
  assert.equal(approved.einvoicing.paTrackingId, `${invoice.id}-a2`);
  assert.equal(approved.einvoicing.rejectionCode, null);
  assert.deepEqual(
    approved.einvoicing.previousSubmissions.map((entry: any) => [
      entry.rejectionCode,
      entry.rejectionCategory,
      entry.rejectionSource,
    ]),
    [['REJ_ADR', 'addressing_error', 'platform']],
  );
  assert.deepEqual((await eventTypes(world, main, invoice.id)).slice(0, 5), [
    'invoice.sent',
    'invoice.sending',
    'invoice.rejected',
    'invoice.sending',
    'invoice.deposited',
  ]);
});

test('routing error (221) with no active address in the directory: watched every hour, deposited once one appears', async () => {
  const invoice = await depositedWith({
    outcome: 'reject',
    reason: { code: 'ROUTAGE_ERR', text: 'Routage impossible' },
  });
  buyerListed('Disabled');
  try {
    await world.poll();
    const rejected = await read(world, main, invoice.id);
    assert.deepEqual(
      [rejected.status, rejected.einvoicing.rejectionCategory, rejected.einvoicing.rejectionCode],
      ['rejected', 'addressing_error', 'ROUTAGE_ERR'],
    );
    await world.deposits.drain();
    const [watching] = await depositRows(world, main.companyId, invoice.id);
    assert.equal(watching!.state, 'waiting_directory');
    assert.ok(watching!.next_attempt_at! > world.h.clock.now(), 'no address: looked at again on the hour');
    assert.deepEqual(
      (await read(world, main, invoice.id)).obligation,
      retriedByService('ROUTAGE_ERR', 'platform', watching!.next_attempt_at!),
    );
    assert.equal(await world.deposits.drain(), 0, 'not before the hour');
    assert.equal(platform.simulator.stats().flowsByInvoice[invoice.number], 1, 'nothing deposited again meanwhile');
  } finally {
    buyerListed('Enabled');
  }
  world.h.clock.advance(3_600_000);
  await world.deposits.drain();
  assert.deepEqual(
    (await depositRows(world, main.companyId, invoice.id)).map((row) => [row.attempt, row.state]),
    [
      [1, 'abandoned'],
      [2, 'deposited'],
    ],
  );
  await world.poll();
  const approved = await read(world, main, invoice.id);
  assert.equal(approved.status, 'approved');
  assert.deepEqual(
    approved.einvoicing.previousSubmissions.map((entry: any) => entry.rejectionCode),
    ['ROUTAGE_ERR'],
  );
});

test(`addressing errors again and again: ${maxAutomaticRedeposits} new attempts, then the client is told`, async () => {
  const invoice = await readyInvoice(world, main);
  // Every attempt of this invoice is rejected for its address.
  platform.simulator.script(invoice.number, {
    outcome: 'reject',
    reason: { code: 'REJ_ADR', text: 'Adresse inconnue' },
  });
  await send(world, main, invoice.id);
  for (let round = 0; round <= maxAutomaticRedeposits; round += 1) {
    await world.deposits.drain();
    await world.poll();
    // A polled page applies its events a millisecond apart: the look "at once" is due a moment later.
    world.h.clock.advance(1000);
  }
  assert.equal(await world.deposits.drain(), 0, 'the service stopped');
  const rows = await depositRows(world, main.companyId, invoice.id);
  assert.deepEqual(
    rows.map((row) => row.state),
    [...Array.from({ length: maxAutomaticRedeposits }, () => 'abandoned'), 'deposited'],
  );
  assert.equal(platform.simulator.stats().flowsByInvoice[invoice.number], maxAutomaticRedeposits + 1);
  const doc = await read(world, main, invoice.id);
  assert.deepEqual([doc.status, doc.einvoicing.rejectionCode], ['rejected', 'REJ_ADR']);
  assert.equal(doc.einvoicing.previousSubmissions.length, maxAutomaticRedeposits);
  const toClient = {
    state: 'waiting',
    reasonCode: 'redeposit_limit_reached',
    reasonSource: 'service',
    owner: 'client',
    action: 'resubmit',
    nextAttemptAt: null,
  };
  assert.deepEqual(doc.obligation, toClient);
  const rejections = (await documentEvents(world, main, invoice.id)).filter((e) => e.type === 'invoice.rejected');
  assert.equal(rejections.length, maxAutomaticRedeposits + 1);
  assert.deepEqual(rejections.at(-1).data.obligation, toClient);

  // The client corrects and sends again: its attempt goes as any resubmission.
  platform.simulator.script(invoice.number, {});
  await send(world, main, invoice.id);
  await world.deposits.drain();
  await world.poll();
  assert.equal((await read(world, main, invoice.id)).status, 'approved');
});

test('a buyer the platform does not find (213 DEST_INC), though the directory lists it: watched, resumed on a later look', async () => {
  const invoice = await depositedWith({
    outcome: 'reject',
    reason: { code: 'DEST_INC', text: 'Destinataire inconnu' },
  });
  await world.poll();
  const rejected = await read(world, main, invoice.id);
  assert.deepEqual(rejectionFields(rejected), {
    category: 'buyer_not_in_directory',
    code: 'DEST_INC',
    source: 'platform',
    reason: 'Destinataire inconnu',
    note: null,
  });
  const [watching] = await depositRows(world, main.companyId, invoice.id);
  assert.equal(watching!.state, 'waiting_directory');
  assert.ok(watching!.next_attempt_at! > world.h.clock.now(), 'looked at on the next hour');
  const watched = retriedByService('DEST_INC', 'platform', watching!.next_attempt_at!);
  assert.deepEqual(rejected.obligation, watched, 'the service watches the directory');
  const [event] = (await documentEvents(world, main, invoice.id)).filter((e) => e.type === 'invoice.rejected');
  assert.deepEqual(event.data.obligation, watched);
  const lookups = directoryLookups();
  assert.equal(
    await world.deposits.drain(),
    0,
    'the directory says active, the platform said unknown: not again at once',
  );
  assert.equal(directoryLookups(), lookups);

  buyerListed('Disabled');
  try {
    world.h.clock.advance(3_600_000);
    await world.deposits.drain();
    const [still] = await depositRows(world, main.companyId, invoice.id);
    assert.equal(still!.state, 'waiting_directory', 'no active address on the hour: watched on');
    assert.ok(still!.next_attempt_at! > watching!.next_attempt_at!);
    assert.deepEqual(
      (await read(world, main, invoice.id)).obligation,
      retriedByService('DEST_INC', 'platform', still!.next_attempt_at!),
    );
    assert.equal(platform.simulator.stats().flowsByInvoice[invoice.number], 1);
  } finally {
    buyerListed('Enabled');
  }
  // The simulator's directory has an active line again: the next look resumes the deposit.
  world.h.clock.advance(3_600_000);
  await world.deposits.drain();
  assert.deepEqual(
    (await depositRows(world, main.companyId, invoice.id)).map((row) => [row.attempt, row.state]),
    [
      [1, 'abandoned'],
      [2, 'deposited'],
    ],
  );
  assert.equal(platform.simulator.stats().flowsByInvoice[invoice.number], 2);
  await world.poll();
  const approved = await read(world, main, invoice.id);
  assert.equal(approved.status, 'approved');
  assert.deepEqual(
    approved.einvoicing.previousSubmissions.map((entry: any) => [
      entry.rejectionCode,
      entry.rejectionCategory,
      entry.rejectionSource,
    ]),
    [['DEST_INC', 'buyer_not_in_directory', 'platform']],
  );
});

test('a deposit answered 400 ROUTING_FAILURE: the same watch, the deposit resumed on the next look', async () => {
  const invoice = await readyInvoice(world, main);
  platform.simulator.script(invoice.number, {
    depositAnswers: [{ status: 400, errorCode: 'ROUTING_FAILURE', errorMessage: 'No route to the recipient' }],
  });
  const before = platform.simulator.stats();
  await send(world, main, invoice.id);
  await world.deposits.drain();
  const rejected = await read(world, main, invoice.id);
  assert.deepEqual(
    [
      rejected.status,
      rejected.einvoicing.rejectionCategory,
      rejected.einvoicing.rejectionCode,
      rejected.einvoicing.paErrorCode,
    ],
    ['rejected', 'buyer_not_in_directory', 'ROUTING_FAILURE', 'ROUTING_FAILURE'],
  );
  const [watching] = await depositRows(world, main.companyId, invoice.id);
  assert.equal(watching!.state, 'waiting_directory');
  assert.deepEqual(rejected.obligation, retriedByService('ROUTING_FAILURE', 'platform', watching!.next_attempt_at!));
  assert.equal(await world.deposits.drain(), 0);
  world.h.clock.advance(3_600_000);
  await world.deposits.drain();
  assert.deepEqual(
    (await depositRows(world, main.companyId, invoice.id)).map((row) => [row.attempt, row.state]),
    [
      [1, 'abandoned'],
      [2, 'deposited'],
    ],
  );
  assert.equal(platform.simulator.stats().depositRequests - before.depositRequests, 2);
  await world.poll();
  assert.equal((await read(world, main, invoice.id)).status, 'approved');
});

test('the platform says it does not find the buyer before the worker recorded the deposit: the watch stands', async () => {
  const invoice = await readyInvoice(world, main);
  // Refused at its acknowledgement, with a provider's reason.
  platform.simulator.script(`${invoice.id}-a1`, {
    outcome: 'reject',
    reason: { code: 'ROUTING_FAILURE', text: 'Unknown recipient' },
  });
  await send(world, main, invoice.id);
  // The worker stops between the platform's answer and its record, until the rejection is in.
  let tookIt!: () => void;
  const platformTookIt = new Promise<void>((resolve) => (tookIt = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const worker = world.depositWorker({
    companyIds: [main.companyId],
    afterDeposit: async () => {
      tookIt();
      await released;
    },
  });
  const [claim] = await worker.claim(1);
  assert.equal(claim?.ownerId, invoice.id);
  const handled = worker.handle(claim!);
  await platformTookIt;
  await world.poll();
  const [watching] = await depositRows(world, main.companyId, invoice.id);
  assert.equal(watching!.state, 'waiting_directory', 'the acknowledgement, read while the worker holds the job');
  release();
  await handled;
  const [job] = await depositRows(world, main.companyId, invoice.id);
  assert.deepEqual(
    [job!.state, job!.next_attempt_at?.toISOString()],
    ['waiting_directory', watching!.next_attempt_at!.toISOString()],
    "the worker's record does not undo the platform's word, nor its next look",
  );
  assert.ok(job!.flow_id, "the platform's flow id is kept");
  const doc = await read(world, main, invoice.id);
  assert.deepEqual(
    [doc.status, doc.einvoicing.rejectionCategory, doc.einvoicing.paFlowId],
    ['rejected', 'buyer_not_in_directory', job!.flow_id],
  );
  assert.deepEqual(doc.obligation, retriedByService('ROUTING_FAILURE', 'platform', job!.next_attempt_at!));
  world.h.clock.advance(3_600_000);
  await world.deposits.drain();
  await world.poll();
  const approved = await read(world, main, invoice.id);
  assert.deepEqual([approved.status, approved.einvoicing.paTrackingId], ['approved', `${invoice.id}-a2`]);
});
