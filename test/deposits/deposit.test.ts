/**
 * The deposit pipeline end to end: send through a connected establishment, the durable deposit job
 * over HTTPS to pa-simulator, the statuses back by polling, the rejections and their fields, the
 * retries, duplicates, the directory pre-check, and a worker that dies after the platform accepted
 * the deposit. Every exchange is checked against the AFNOR OpenAPI documents.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import type { Scenario } from '../../src/pa-simulator/scenario.js';
import { directoryAnswerTtlMs } from '../../src/invoices/deposit-flow.js';
import { outboxWorkerLeaseMs } from '../../src/platform/service.js';
import { registry } from '../../src/capabilities.js';
import { inTransaction } from '../../src/db/transaction.js';
import { currentVersion } from '../../src/kernel/api-version.js';
import {
  addressedBuyer,
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
import { customer, decision, finalizedInvoice, seller, sellerProfile } from '../invoices/support.js';

let world: World;
let platform: CheckedSimulator;
/** The seller most tests share: its invoice numbers never repeat on the platform. */
let main: ConnectedSeller;
/** Departures from the documents a scripted answer makes on purpose (an undocumented 409). */
const deliberate = [
  'createFlow: status 409 is not documented',
  'directoryLineStatus must NOT have more than 7 characters',
];

before(async () => {
  world = await startWorld();
  platform = await startCheckedSimulator();
  main = await connectedSeller(world, platform);
  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
});
after(async () => {
  await platform.stop();
  await world.close();
  const violations = platform.violations().filter((line) => !deliberate.some((allowed) => line.includes(allowed)));
  assert.deepEqual(violations, [], 'every exchange follows the AFNOR OpenAPI documents');
});

/** An invoice of the main seller through the platform: scripted, sent, deposited, its statuses polled. */
async function through(scenario?: Scenario): Promise<{ invoice: any; doc: any }> {
  const invoice = await readyInvoice(world, main);
  if (scenario) platform.simulator.script(invoice.number, scenario);
  await send(world, main, invoice.id);
  await world.deposits.drain();
  await world.poll();
  return { invoice, doc: await read(world, main, invoice.id) };
}

test('send → deposited → approved over HTTPS: the events in order, the platform references on the resource', async () => {
  const seller = main;
  const before = platform.simulator.stats();
  const invoice = await readyInvoice(world, seller);
  const sent = await send(world, seller, invoice.id);
  assert.equal(sent.transmissionStatus, 'sending');
  assert.equal(sent.einvoicing.paTrackingId, `${invoice.id}-a1`);
  assert.equal(sent.einvoicing.paFlowId, null);
  assert.equal(platform.simulator.stats().depositRequests, before.depositRequests, 'the send itself calls no platform');

  assert.equal(await world.deposits.drain(), 1);
  const stats = platform.simulator.stats();
  assert.deepEqual([stats.deposits - before.deposits, stats.depositRequests - before.depositRequests], [1, 1]);
  const [job] = await depositRows(world, seller.companyId, invoice.id);
  assert.equal(job!.state, 'deposited');
  const deposited = await read(world, seller, invoice.id);
  assert.equal(deposited.einvoicing.paFlowId, job!.flow_id);
  assert.equal(deposited.transmissionStatus, 'sending', 'deposited only when the platform says 200');

  assert.ok((await world.poll()) > 0);
  const approved = await read(world, seller, invoice.id);
  assert.deepEqual(
    [approved.status, approved.transmissionStatus, approved.transmissionDetail],
    ['approved', 'approved', null],
  );
  assert.deepEqual(await eventTypes(world, seller, invoice.id), [
    'invoice.sent',
    'invoice.sending',
    'invoice.deposited',
    'invoice.transmitted',
    'invoice.available',
    'invoice.received',
    'invoice.approved',
  ]);
  const history = await world.h.call('GET', `/v1/invoices/${invoice.id}/history`, { key: seller.key });
  assert.deepEqual(
    history.data.data.map((entry: any) => entry.status),
    ['fr:200', 'fr:202', 'fr:203', 'fr:204', 'fr:205'],
  );
  assert.equal(await world.poll(), 0, 'read again: nothing applied twice');
  assert.equal((await eventTypes(world, seller, invoice.id)).length, 7);
  const simulated = await world.h.call('POST', `/v1/sandbox/invoices/${invoice.id}/simulate`, {
    key: seller.key,
    body: { status: 'fr:210', reasonCode: 'TX_TVA_ERR' },
  });
  assert.equal(simulated.data.error?.code, 'not_supported', 'its statuses are its own platform’s');
});

const fields = (doc: any) => ({
  category: doc.einvoicing.rejectionCategory,
  code: doc.einvoicing.rejectionCode,
  source: doc.einvoicing.rejectionSource,
  paErrorCode: doc.einvoicing.paErrorCode,
  reason: doc.einvoicing.rejectionReason,
  note: doc.einvoicing.rejectionNote,
});

const outcomes: [string, Scenario, string[], Partial<ReturnType<typeof fields>>, string][] = [
  [
    'reject REJ_SEMAN (213)',
    { outcome: 'reject', reason: { code: 'REJ_SEMAN', text: 'BR-FR-12 : adresse manquante' } },
    ['rejected', 'rejected', null as never],
    {
      category: 'semantic_error',
      code: 'REJ_SEMAN',
      source: 'platform',
      paErrorCode: 'REJ_SEMAN',
      reason: 'BR-FR-12 : adresse manquante',
    },
    'invoice.rejected',
  ],
  [
    'refuse TX_TVA_ERR (210)',
    { outcome: 'refuse', reason: { code: 'TX_TVA_ERR', text: 'Taux erroné' } },
    ['refused', 'rejected', 'refused'],
    { category: 'refused_by_buyer', code: 'TX_TVA_ERR', source: 'buyer', paErrorCode: null, reason: 'Taux erroné' },
    'invoice.refused',
  ],
  [
    'suspend (208)',
    { outcome: 'suspend' },
    ['suspended', 'transmitted', 'suspended'],
    { category: 'suspended', code: 'JUSTIF_ABS', source: 'buyer', paErrorCode: null },
    'invoice.suspended',
  ],
  [
    'dispute (207) with notes',
    { outcome: 'dispute', notes: ['Le bon de commande manque.', 'Merci de le joindre.'] },
    ['suspended', 'transmitted', 'suspended'],
    {
      category: 'suspended',
      code: 'MONTANTTOTAL_ERR',
      source: 'buyer',
      note: 'Le bon de commande manque.\nMerci de le joindre.',
    },
    'invoice.suspended',
  ],
  [
    'acknowledgement Error SYNTAX_ERROR',
    { outcome: 'reject', reason: { code: 'SYNTAX_ERROR', text: 'XML mal formé' } },
    ['rejected', 'rejected', null as never],
    {
      category: 'format_invalid',
      code: 'SYNTAX_ERROR',
      source: 'platform',
      paErrorCode: 'SYNTAX_ERROR',
      reason: 'XML mal formé',
    },
    'invoice.rejected',
  ],
  // The routing error (221), an addressing error the service follows up: next-steps.test.ts.
  [
    'irrecevable (501)',
    { outcome: 'reject', reason: { code: 'IRR_SYNTAX' } },
    ['rejected', 'rejected', null as never],
    { category: 'format_invalid', code: 'IRR_SYNTAX', source: 'platform', paErrorCode: 'IRR_SYNTAX' },
    'invoice.rejected',
  ],
  [
    '401 twice: platform_auth, never deposited',
    { depositAnswers: [{ status: 401 }, { status: 401 }] },
    ['rejected', 'rejected', null as never],
    { category: 'platform_auth', code: 'INVALID_TOKEN', source: 'platform', paErrorCode: 'INVALID_TOKEN' },
    'invoice.rejected',
  ],
  [
    '422 SEMANTIC_ERROR answered to the deposit',
    { depositAnswers: [{ status: 422, errorCode: 'SEMANTIC_ERROR', errorMessage: 'BR-CO-10' }] },
    ['rejected', 'rejected', null as never],
    {
      category: 'semantic_error',
      code: 'SEMANTIC_ERROR',
      source: 'platform',
      paErrorCode: 'SEMANTIC_ERROR',
      reason: 'BR-CO-10',
    },
    'invoice.rejected',
  ],
];

for (const [name, scenario, axes, expected, event] of outcomes) {
  test(`scripted outcome: ${name}`, async () => {
    const { invoice, doc } = await through(scenario);
    assert.deepEqual(
      [doc.status, doc.transmissionStatus, doc.transmissionDetail],
      axes.map((axis) => axis ?? null),
    );
    const got = fields(doc);
    assert.deepEqual(
      Object.fromEntries(Object.keys(expected).map((key) => [key, got[key as keyof typeof got]])),
      expected,
    );
    const types = await eventTypes(world, main, invoice.id);
    assert.equal(types.at(-1), event);
    assert.equal(types.filter((type) => type === event).length, 1, 'once');
    assert.equal(await world.poll(), 0, 'nothing more on a second read');
  });
}

test('503, then the platform is back: the deposit comes back at Retry-After time, once', async () => {
  const before = platform.simulator.stats();
  const invoice = await readyInvoice(world, main);
  platform.simulator.script(invoice.number, { depositAnswers: [{ status: 503 }] });
  await send(world, main, invoice.id);
  await world.deposits.drain();
  let [job] = await depositRows(world, main.companyId, invoice.id);
  assert.equal(job!.state, 'pending');
  assert.match(job!.last_error ?? '', /^pa_unavailable/);
  const waiting = await read(world, main, invoice.id);
  assert.equal(waiting.transmissionStatus, 'sending', 'nothing rejected');
  const retry = {
    state: 'waiting',
    reasonCode: 'RESOURCE_ERROR', // the platform's own code for its 503
    reasonSource: 'platform',
    owner: 'service',
    action: 'retry',
    nextAttemptAt: job!.next_attempt_at!.toISOString(),
  };
  assert.deepEqual(waiting.obligation, retry, 'the obligation says the service retries, and when');
  assert.equal(await world.deposits.drain(), 0, 'not due before the platform said');
  world.h.clock.advance(31_000);
  assert.equal(await world.deposits.drain(), 1);
  [job] = await depositRows(world, main.companyId, invoice.id);
  assert.equal(job!.state, 'deposited');
  const deposited = await read(world, main, invoice.id);
  assert.deepEqual(
    [deposited.obligation.reasonCode, deposited.obligation.owner, deposited.obligation.nextAttemptAt],
    ['awaiting_platform', 'platform', null],
  );
  const obligationEvents = (await documentEvents(world, main, invoice.id)).filter(
    (event) => event.type === 'invoice.obligation_updated',
  );
  assert.deepEqual(
    obligationEvents.map((event) => [event.data.obligation, event.data.object, typeof event.data.reason]),
    [
      [retry, 'invoice', 'string'],
      [deposited.obligation, 'invoice', 'object'],
    ],
    'the wait and its end, each told once',
  );
  const stats = platform.simulator.stats();
  assert.deepEqual([stats.depositRequests - before.depositRequests, stats.deposits - before.deposits], [2, 1]);
  await world.poll();
  assert.equal((await read(world, main, invoice.id)).status, 'approved');
});

test('409 without a proof of reception: searched, then deposited again once; with one: reconciled, not deposited again', async () => {
  const before = platform.simulator.stats();
  const first = await readyInvoice(world, main);
  platform.simulator.script(first.number, { depositAnswers: [{ status: 409, errorCode: 'DUPLICATED_INVOICE' }] });
  await send(world, main, first.id);
  await world.deposits.drain();
  assert.equal((await depositRows(world, main.companyId, first.id))[0]!.state, 'pending');
  world.h.clock.advance(31_000);
  await world.deposits.drain();
  assert.equal((await depositRows(world, main.companyId, first.id))[0]!.state, 'deposited');
  assert.equal(platform.simulator.stats().flowsByInvoice[first.number], 1);

  // The platform holds the file under this attempt's tracking id already (an answer we never read).
  const second = await readyInvoice(world, main);
  const file = await world.h.call('GET', `/v1/invoices/${second.id}/files/facturx`, { key: main.key });
  const earlier = await platform.connector().deposit({
    file: file.rawPayload,
    name: `${second.number}.pdf`,
    syntax: 'Factur-X',
    trackingId: `${second.id}-a1`,
  });
  assert.ok(earlier.ok);
  platform.simulator.script(second.number, { depositAnswers: [{ status: 409, errorCode: 'DUPLICATED_INVOICE' }] });
  await send(world, main, second.id);
  await world.deposits.drain();
  const [job] = await depositRows(world, main.companyId, second.id);
  assert.deepEqual([job!.state, job!.flow_id], ['deposited', earlier.ok ? earlier.value.flowId : null]);
  const stats = platform.simulator.stats();
  assert.equal(stats.flowsByInvoice[second.number], 1, 'the proof of reception, not a second deposit');
  assert.equal(stats.deposits - before.deposits, 2);
  await world.poll();
  assert.equal((await read(world, main, second.id)).status, 'approved');
});

test('statuses out of order and twice: each applied once, only observed moves emit', async () => {
  const { invoice, doc } = await through({ statuses: ['200', '203', '205'], order: 'reverse', twice: true });
  assert.equal(doc.status, 'approved');
  assert.deepEqual(await eventTypes(world, main, invoice.id), ['invoice.sent', 'invoice.sending', 'invoice.approved']);
  assert.deepEqual(
    doc.history ??
      (await world.h.call('GET', `/v1/invoices/${invoice.id}/history`, { key: main.key })).data.data.map(
        (entry: any) => [entry.status, entry.applied],
      ),
    [
      ['fr:205', true],
      ['fr:203', false],
      ['fr:200', false],
    ],
  );
});

test('concurrent sends and client retries: one job, one deposit', async () => {
  const invoice = await readyInvoice(world, main);
  const call = (key?: string) =>
    world.h.call('POST', `/v1/invoices/${invoice.id}/send`, {
      key: main.key,
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });
  const answers = await Promise.all([call('retry-1'), call('retry-1'), call(), call(), call('retry-2')]);
  const statuses = answers.map((answer) => answer.statusCode);
  assert.ok(statuses.filter((status) => status === 200).length >= 1, statuses.join());
  // Another send: already on its way; the same key while the first runs: `conflict` (the client retries).
  for (const answer of answers)
    if (answer.statusCode !== 200)
      assert.ok(['invalid_status_transition', 'conflict'].includes(answer.data.error.code), answer.body);
  const replay = await call('retry-1');
  const first = answers.find((answer, index) => index < 2 && answer.statusCode !== 409)!;
  assert.equal(replay.statusCode, first.statusCode, 'a client retry gets the first answer');
  assert.equal(replay.body, first.body);
  await world.deposits.drain();
  assert.equal((await depositRows(world, main.companyId, invoice.id)).length, 1);
  assert.equal(platform.simulator.stats().flowsByInvoice[invoice.number], 1);
});

test('a worker dies after the platform accepted the deposit, before recording it: one deposit counted', async () => {
  // A company of its own (its invoice numbers start again: an empty platform).
  platform.simulator.reset();
  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
  const crashing = await connectedSeller(world, platform);
  const before = platform.simulator.stats();
  const invoice = await readyInvoice(world, crashing);
  await send(world, crashing, invoice.id);
  // The first worker hangs for good once the platform answered (as a process killed there).
  const dying = world.depositWorker({
    companyIds: [crashing.companyId],
    afterDeposit: () => new Promise<void>(() => undefined),
  });
  const [claim] = await dying.claim(1);
  assert.equal(claim?.ownerId, invoice.id);
  void dying.handle(claim!);
  // Up to 30 s: the token, the directory and the upload over HTTPS on a loaded machine.
  for (let i = 0; i < 1200 && platform.simulator.stats().deposits === before.deposits; i += 1)
    await new Promise((resolve) => setTimeout(resolve, 25));
  assert.equal(platform.simulator.stats().deposits - before.deposits, 1, 'the platform holds it');
  const survivor = world.depositWorker({ companyIds: [crashing.companyId] });
  assert.equal(await survivor.drain(), 0, 'leased: nobody else takes it');
  world.h.clock.advance(outboxWorkerLeaseMs + 1000);
  assert.equal(await survivor.drain(), 1, 'the lease lapsed: taken over');
  const [job] = await depositRows(world, crashing.companyId, invoice.id);
  assert.deepEqual([job!.state, job!.tries], ['deposited', 2]);
  const stats = platform.simulator.stats();
  assert.deepEqual([stats.deposits - before.deposits, stats.depositRequests - before.depositRequests], [1, 1]);
  await world.poll();
  const doc = await read(world, crashing, invoice.id);
  assert.deepEqual([doc.status, doc.einvoicing.paFlowId], ['approved', job!.flow_id]);
});

test('the platform rejects the file before the worker recorded its deposit: the job ends rejected, with its flow', async () => {
  // A company of its own on an empty platform: its numbers start again, and only its script applies.
  platform.simulator.reset();
  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
  const rejecting = await connectedSeller(world, platform);
  const invoice = await readyInvoice(world, rejecting);
  platform.simulator.script(invoice.number, {
    outcome: 'reject',
    reason: { code: 'SYNTAX_ERROR', text: 'XML mal formé' },
  });
  await send(world, rejecting, invoice.id);
  // The worker stops between the platform's answer and its record, until the rejection is in.
  let tookIt!: () => void;
  const platformTookIt = new Promise<void>((resolve) => (tookIt = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const worker = world.depositWorker({
    companyIds: [rejecting.companyId],
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
  const [rejected] = await depositRows(world, rejecting.companyId, invoice.id);
  assert.equal(rejected!.state, 'rejected', 'the acknowledgement Error, read while the worker holds the job');
  release();
  await handled;
  const [job] = await depositRows(world, rejecting.companyId, invoice.id);
  assert.equal(job!.state, 'rejected', "the worker's record does not undo the platform's word");
  assert.ok(job!.flow_id, "the platform's flow id is kept");
  const doc = await read(world, rejecting, invoice.id);
  assert.deepEqual(
    [doc.status, doc.transmissionStatus, doc.einvoicing.paFlowId],
    ['rejected', 'rejected', job!.flow_id],
  );
});

test('buyer not in the directory: rejected locally without a platform call, deposited once the address appears', async () => {
  platform.simulator.reset();
  // The address the earlier tests found is trusted for a minute: past it, the directory is asked again.
  world.h.clock.advance(directoryAnswerTtlMs);
  const before = platform.simulator.stats();
  const invoice = await readyInvoice(world, main);
  await send(world, main, invoice.id);
  await world.deposits.drain();
  const rejected = await read(world, main, invoice.id);
  assert.deepEqual([rejected.status, rejected.transmissionStatus], ['rejected', 'rejected']);
  assert.deepEqual(fields(rejected), {
    category: 'buyer_not_in_directory',
    code: 'buyer_not_in_directory',
    source: 'service',
    paErrorCode: 'buyer_not_in_directory',
    reason: 'No active directory address was found for the buyer.',
    note: null,
  });
  assert.equal(platform.simulator.stats().depositRequests - before.depositRequests, 0, 'no platform deposit');
  assert.deepEqual(await eventTypes(world, main, invoice.id), ['invoice.sent', 'invoice.sending', 'invoice.rejected']);
  let [job] = await depositRows(world, main.companyId, invoice.id);
  assert.equal(job!.state, 'waiting_directory');
  const watching = {
    state: 'waiting',
    reasonCode: 'buyer_not_in_directory',
    reasonSource: 'service',
    owner: 'service',
    action: 'retry',
    nextAttemptAt: job!.next_attempt_at!.toISOString(),
  };
  assert.deepEqual(rejected.obligation, watching, 'the service watches the directory: it acts next, on the hour');
  const [rejectedEvent] = (await documentEvents(world, main, invoice.id)).filter(
    (event) => event.type === 'invoice.rejected',
  );
  assert.deepEqual(rejectedEvent.data.obligation, watching);

  // Still absent on the hour: looked at again, the next look on the obligation, no event.
  world.h.clock.advance(3_600_000);
  await world.deposits.drain();
  [job] = await depositRows(world, main.companyId, invoice.id);
  assert.equal(job!.state, 'waiting_directory');
  assert.deepEqual((await read(world, main, invoice.id)).obligation, {
    ...watching,
    nextAttemptAt: job!.next_attempt_at!.toISOString(),
  });
  assert.notEqual(job!.next_attempt_at!.toISOString(), watching.nextAttemptAt);
  assert.deepEqual(await eventTypes(world, main, invoice.id), ['invoice.sent', 'invoice.sending', 'invoice.rejected']);

  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
  assert.equal(await world.deposits.drain(), 0, 'looked at again on the hour, not before');
  world.h.clock.advance(3_600_000);
  await world.deposits.drain();
  const rows = await depositRows(world, main.companyId, invoice.id);
  assert.deepEqual(
    rows.map((row) => [row.attempt, row.state]),
    [
      [1, 'abandoned'],
      [2, 'deposited'],
    ],
  );
  await world.poll();
  const approved = await read(world, main, invoice.id);
  assert.equal(approved.status, 'approved');
  assert.equal(approved.einvoicing.rejectionCode, null);
  assert.equal(approved.einvoicing.paTrackingId, `${invoice.id}-a2`);
  assert.deepEqual(
    approved.einvoicing.previousSubmissions.map((entry: any) => [entry.rejectionCode, entry.rejectionSource]),
    [['buyer_not_in_directory', 'service']],
  );
  assert.deepEqual((await eventTypes(world, main, invoice.id)).slice(0, 5), [
    'invoice.sent',
    'invoice.sending',
    'invoice.rejected',
    'invoice.sending',
    'invoice.deposited',
  ]);
  assert.equal(platform.simulator.stats().flowsByInvoice[invoice.number], 1);
});

test('deposit_not_enabled: connected, deposits off; pa_not_configured: live without a connection', async () => {
  const off = await connectedSeller(world, platform, { depositEnabled: false });
  const invoice = await readyInvoice(world, off);
  const refused = await world.h.call('POST', `/v1/invoices/${invoice.id}/send`, { key: off.key });
  assert.equal(refused.statusCode, 400, refused.body);
  assert.equal(refused.data.error.code, 'deposit_not_enabled');
  assert.equal((await read(world, off, invoice.id)).transmissionStatus, 'pending');

  const live = await world.h.key(main.companyId, { env: 'live' });
  await world.h.call('POST', '/v1/tax-profiles', { key: live, body: sellerProfile });
  const liveInvoice = await finalizedInvoice(world.h, live, {
    customerId: await customer(world.h, live, addressedBuyer),
  });
  const liveSend = await world.h.call('POST', `/v1/invoices/${liveInvoice.id}/send`, { key: live });
  assert.equal(liveSend.statusCode, 400, liveSend.body);
  assert.equal(liveSend.data.error.code, 'pa_not_configured');
});

test('a credit note: credit_note.sent, then its own events as the platform and the buyer report', async () => {
  const invoice = await readyInvoice(world, main);
  const lines = invoice.lines.map((line: any) => ({
    description: line.description,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    nature: line.nature,
  }));
  const taken = await decision(world.h, main.key, { customerId: invoice.customerId }, lines);
  const created = await world.h.call('POST', '/v1/credit-notes', {
    key: main.key,
    body: { relatedInvoiceId: invoice.id, taxDecisionId: taken.id },
  });
  assert.equal(created.statusCode, 201, created.body);
  const finalized = await world.h.call('POST', `/v1/credit-notes/${created.data.id}/finalize`, { key: main.key });
  assert.equal(finalized.statusCode, 200, finalized.body);
  await world.files.drain();
  const sent = await world.h.call('POST', `/v1/credit-notes/${created.data.id}/send`, { key: main.key });
  assert.equal(sent.statusCode, 200, sent.body);
  assert.equal(sent.data.einvoicing.paTrackingId, `${created.data.id}-a1`);
  await world.deposits.drain();
  const [job] = await depositRows(world, main.companyId, created.data.id);
  assert.equal(job!.state, 'deposited', JSON.stringify(job));
  await world.poll();
  const note = await world.h.call('GET', `/v1/credit-notes/${created.data.id}`, { key: main.key });
  assert.deepEqual([note.data.status, note.data.transmissionStatus], ['approved', 'approved']);
  assert.ok(note.data.einvoicing.paFlowId);
  const types = await eventTypes(world, main, created.data.id);
  assert.deepEqual(types.slice(types.indexOf('credit_note.sent')), [
    'credit_note.sent',
    'credit_note.credit_deposited',
    'credit_note.credit_transmitted',
    'credit_note.credit_approved',
  ]);
});

test('live: a connected live establishment deposits the same way', async () => {
  const { companyId, key } = await seller(world.h, { env: 'live' });
  world.companyIds.push(companyId);
  const head = (await world.h.call('GET', '/v1/establishments', { key })).data.data.find(
    (establishment: any) => establishment.siret === '10000000900017',
  );
  platform.simulator.seedDirectory([{ siren: '100000009', siret: '10000000900017' }]);
  const connected = await world.h.call('POST', `/v1/establishments/${head.id}`, {
    key,
    body: { platform: { baseUrl: platform.url, ...platform.simulator.clients[0]! }, depositEnabled: true },
  });
  assert.equal(connected.statusCode, 200, connected.body);
  const invoice = await finalizedInvoice(world.h, key, { customerId: await customer(world.h, key, addressedBuyer) });
  await world.files.drain();
  const sent = await world.h.call('POST', `/v1/invoices/${invoice.id}/send`, { key });
  assert.equal(sent.statusCode, 200, sent.body);
  assert.equal(await world.deposits.drain(), 1);
  await world.poll();
  const approved = await world.h.call('GET', `/v1/invoices/${invoice.id}`, { key });
  assert.deepEqual([approved.data.livemode, approved.data.status], [true, 'approved']);
  assert.equal(platform.simulator.stats().flowsByInvoice[invoice.number], 1);
});

// Last: the company's sandbox clock stays an hour ahead (its later finalizations queue their files then).
test('the platform down for an hour of sandbox clock, then back: retried on that clock, deposited once', async () => {
  const before = platform.simulator.stats();
  const invoice = await readyInvoice(world, main);
  platform.simulator.script(invoice.number, {
    depositAnswers: Array.from({ length: 50 }, () => ({ status: 503 as const })),
  });
  await send(world, main, invoice.id);
  await world.deposits.drain();
  for (let minutes = 10; minutes <= 60; minutes += 10) {
    const advanced = await world.h.call('POST', '/v1/sandbox/clock/advance', { key: main.key, body: { seconds: 600 } });
    assert.equal(advanced.statusCode, 200, advanced.body);
    assert.equal(await world.deposits.drain(), 1, `retried after ${minutes} minutes`);
    assert.equal((await read(world, main, invoice.id)).transmissionStatus, 'sending', 'waiting, not rejected');
  }
  assert.equal(platform.simulator.stats().depositRequests - before.depositRequests, 7);
  platform.simulator.script(invoice.number, {});
  await world.h.call('POST', '/v1/sandbox/clock/advance', { key: main.key, body: { seconds: 60 } });
  assert.equal(await world.deposits.drain(), 1);
  const stats = platform.simulator.stats();
  assert.deepEqual([stats.deposits - before.deposits, stats.flowsByInvoice[invoice.number]], [1, 1]);
  await world.poll();
  assert.equal((await read(world, main, invoice.id)).status, 'approved');
});

test('the data-protection export holds the deposits and the statuses received, of its scope only', async () => {
  const { invoice } = await through();
  const scope = { companyId: main.companyId, livemode: false };
  const records = (name: string) => {
    const source = registry.dataExport.find((candidate) => candidate.name === name)!;
    const ctx = { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now: new Date() };
    return inTransaction(world.h.deps.db, ctx, async (tx) =>
      (await source.page(tx, scope, null, 10_000, '')).map((entry) => entry.record as any),
    );
  };
  const deposits = await records('platform_deposits');
  const [deposit] = deposits.filter((record) => record.documentId === invoice.id);
  const [job] = await depositRows(world, main.companyId, invoice.id);
  assert.equal(job!.state, 'deposited', JSON.stringify(job));
  assert.deepEqual(
    [deposit.object, deposit.attempt, deposit.state, deposit.paTrackingId, deposit.paFlowId],
    ['platform_deposit', 1, 'deposited', `${invoice.id}-a1`, job!.flow_id],
  );
  assert.ok(deposits.every((record) => record.livemode === false));
  const receipts = (await records('platform_status_receipts')).filter((record) => record.documentId === invoice.id);
  assert.ok(receipts.length >= 2, 'the statuses applied to the invoice (deposited, approved...)');
  assert.ok(receipts.every((record) => record.object === 'platform_status_receipt' && record.eventKey));
  // Another company's export holds none of them.
  const other = await connectedSeller(world, platform);
  const elsewhere = await inTransaction(
    world.h.deps.db,
    {
      scope: { companyId: other.companyId, livemode: false },
      requestId: null,
      idempotencyKey: null,
      apiVersion: currentVersion,
      now: new Date(),
    },
    (tx) =>
      registry.dataExport
        .find((candidate) => candidate.name === 'platform_deposits')!
        .page(tx, { companyId: other.companyId, livemode: false }, null, 10_000, ''),
  );
  assert.deepEqual(elsewhere, []);
});

test("the buyer's address, once found, is trusted for a minute: one directory lookup for several deposits", async () => {
  world.h.clock.advance(directoryAnswerTtlMs);
  const lookups = () => platform.exchanges.filter((exchange) => exchange.service === 'directory').length;
  const before = lookups();
  for (let i = 0; i < 3; i += 1) await through();
  assert.equal(lookups() - before, 1, 'three deposits to the same buyer, one lookup');
  world.h.clock.advance(directoryAnswerTtlMs);
  await through();
  assert.equal(lookups() - before, 2, 'looked up again after a minute');
});
