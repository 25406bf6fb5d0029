/**
 * Payment statements (status 212) end to end: a payment on a deposited B2B invoice of services
 * taxed on collection goes to the seller establishment's platform (pa-simulator over HTTPS) as a
 * CDAR 212 with the amounts collected per VAT rate, once, found again by its tracking id.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import { parseCdarMessage } from '../../src/platform/cdar.js';
import { advanceWaitingStatements } from '../../src/payments/service.js';
import { sendDueStatements, statementTrackingId } from '../../src/payments/statement-sender.js';
import { buyerSiren, connectedSeller, read, send, startWorld, type ConnectedSeller, type World } from './support.js';
import { advice, chair, decision, finalizedCreditNote, finalizedInvoice } from '../invoices/support.js';

let world: World;
let platform: CheckedSimulator;
let seller: ConnectedSeller;

before(async () => {
  world = await startWorld();
  platform = await startCheckedSimulator();
  seller = await connectedSeller(world, platform);
  platform.simulator.seedDirectory([{ siren: buyerSiren }]);
});
after(async () => {
  await platform.stop();
  await world.close();
  assert.deepEqual(platform.violations(), [], 'every exchange follows the AFNOR OpenAPI documents');
});

test('a payment recorded before the deposit waits for it, then its CDAR 212 reaches the platform once, with the amounts per VAT rate', async () => {
  const { h } = world;
  const invoice = await finalizedInvoice(h, seller.key, { customerId: seller.customerId, lines: [chair, advice] });
  await world.files.drain();
  const paid = await h.call('POST', '/v1/payments', {
    key: seller.key,
    body: { invoiceId: invoice.id, amount: 10000 },
  });
  assert.equal(paid.statusCode, 201, paid.body);
  assert.equal(paid.data.fr212.state, 'awaiting_deposit');
  const companyIds = [seller.companyId];
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 0, 'nothing leaves before the deposit');

  await send(world, seller, invoice.id);
  assert.equal(await world.deposits.drain(), 1);
  await world.poll();
  // The simulator's default script carries it on to the buyer's approval.
  assert.equal((await read(world, seller, invoice.id)).transmissionStatus, 'approved');

  const requestsBefore = platform.simulator.stats().depositRequests;
  assert.equal(await advanceWaitingStatements(h.deps, { companyIds }), 1);
  // The passes' events at distinct instants of the sandbox clock, so that they list in order.
  h.clock.advance(1000);
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 1);
  assert.equal(platform.simulator.stats().depositRequests, requestsBefore + 1);
  const payment = (await h.call('GET', `/v1/payments/${paid.data.id}`, { key: seller.key })).data;
  assert.equal(payment.fr212.state, 'sent');
  assert.equal(payment.fr212.lastErrorCode, null);
  assert.equal(payment.fr212.sentAt, payment.fr212.updatedAt);

  // What the platform holds: a CDAR 212 of the seller on that invoice, the payment split per rate.
  const connector = platform.connector();
  const found = await connector.findDeposit(statementTrackingId(paid.data.id));
  assert.ok(found.ok && found.value, 'the platform has the statement under its tracking id');
  const file = await connector.downloadFlow(found.value.flowId);
  assert.ok(file.ok);
  const [status] = parseCdarMessage(file.value.toString('utf8'));
  assert.equal(status!.statusCode, '212');
  assert.equal(status!.invoiceNumber, invoice.number);
  assert.equal(status!.issuerRole, 'SE');
  assert.equal(status!.sellerSiren, '100000009');
  const rates = new Map(invoice.vatBreakdown.map((group: any) => [group.vatRate, 0]));
  assert.ok(status!.collected.length >= 1);
  for (const line of status!.collected) assert.ok(rates.has(line.vatRate), `rate ${line.vatRate} is the invoice's`);
  const cents = status!.collected.reduce((sum, line) => sum + Math.round(Number(line.amount) * 100), 0);
  assert.equal(cents, 10000, 'the amounts per rate add up to the payment');

  // Sent once: the next passes find nothing due; the events say where it went.
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 0);
  assert.equal(platform.simulator.stats().depositRequests, requestsBefore + 1);
  const events = await h.call('GET', '/v1/events?limit=100&type=payment.obligation_updated', { key: seller.key });
  const mine = (events.data.data as any[]).filter((event) => event.data.id === paid.data.id).reverse();
  assert.deepEqual(
    mine.map((event) => [event.data.fr212.state, event.data.obligation.state]),
    [
      ['pending', 'waiting'],
      ['sent', 'fulfilled'],
    ],
  );
});

test("a refund through a credit note sends the negative statement: the CDAR 212's amounts per rate add up to minus the refund", async () => {
  const { h } = world;
  const companyIds = [seller.companyId];
  const invoice = await finalizedInvoice(h, seller.key, { customerId: seller.customerId, lines: [chair, advice] });
  await world.files.drain();
  await send(world, seller, invoice.id);
  assert.equal(await world.deposits.drain(), 1);
  await world.poll();
  const paid = await h.call('POST', '/v1/payments', {
    key: seller.key,
    body: { invoiceId: invoice.id, amount: 20000 },
  });
  assert.equal(paid.statusCode, 201, paid.body);
  assert.equal(paid.data.fr212.state, 'pending');
  h.clock.advance(1000);
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 1);

  const note = await finalizedCreditNote(h, seller.key, invoice);
  const refunded = await h.call('POST', `/v1/credit-notes/${note.id}/refunds`, {
    key: seller.key,
    body: { amount: 7500 },
  });
  assert.equal(refunded.statusCode, 201, refunded.body);
  assert.deepEqual(
    [refunded.data.fr212.state, refunded.data.fr212.lastErrorCode, refunded.data.fr212.sentAt],
    ['pending', null, null],
  );
  const received = await h.call('GET', '/v1/events?limit=100&type=payment.received', { key: seller.key });
  const negative = (received.data.data as any[]).find((event) => event.data.refundId === refunded.data.id);
  assert.equal(negative.data.amount, '-75.00');
  assert.deepEqual(negative.data.fr212, refunded.data.fr212, 'payment.received carries the refund statement');

  h.clock.advance(1000);
  const requestsBefore = platform.simulator.stats().depositRequests;
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 1);
  assert.equal(platform.simulator.stats().depositRequests, requestsBefore + 1);
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 0, 'sent once');
  const listed = await h.call('GET', `/v1/credit-notes/${note.id}/refunds`, { key: seller.key });
  assert.equal(listed.data.data[0].fr212.state, 'sent');

  const connector = platform.connector();
  const found = await connector.findDeposit(statementTrackingId(refunded.data.id));
  assert.ok(found.ok && found.value, 'the platform has the refund statement under its tracking id');
  const file = await connector.downloadFlow(found.value.flowId);
  assert.ok(file.ok);
  const [status] = parseCdarMessage(file.value.toString('utf8'));
  assert.equal(status!.statusCode, '212');
  assert.equal(status!.invoiceNumber, invoice.number, 'the statement is on the invoice whose collection went down');
  assert.ok(status!.collected.every((line) => Number(line.amount) <= 0));
  const cents = status!.collected.reduce((sum, line) => sum + Math.round(Number(line.amount) * 100), 0);
  assert.equal(cents, -7500);

  const updates = await h.call('GET', '/v1/events?limit=100&type=payment.obligation_updated', { key: seller.key });
  const told = (updates.data.data as any[]).filter((event) => event.data.refundId === refunded.data.id);
  assert.deepEqual(
    told.map((event) => [event.data.id, event.data.object, event.data.invoiceId, event.data.fr212.state]),
    [[refunded.data.id, 'payment', invoice.id, 'sent']],
  );
});

test("a refund through a credit note of some lines gives the money back at those lines' rates only", async () => {
  const { h } = world;
  const companyIds = [seller.companyId];
  const reducedAdvice = { ...advice, rateCategory: 'reduced' };
  const invoice = await finalizedInvoice(h, seller.key, {
    customerId: seller.customerId,
    lines: [chair, reducedAdvice],
  });
  const rates = new Set(invoice.vatBreakdown.map((group: any) => group.vatRate));
  assert.equal(rates.size, 2, `two rates on the invoice: ${[...rates]}`);
  await world.files.drain();
  await send(world, seller, invoice.id);
  assert.equal(await world.deposits.drain(), 1);
  await world.poll();
  const paid = await h.call('POST', '/v1/payments', {
    key: seller.key,
    body: { invoiceId: invoice.id, amount: 20000 },
  });
  assert.equal(paid.statusCode, 201, paid.body);

  // The credit note corrects the advice line only.
  const credited = [{ ...reducedAdvice }];
  const taken = await decision(h, seller.key, { customerId: seller.customerId }, credited);
  const draft = await h.call('POST', '/v1/credit-notes', {
    key: seller.key,
    body: { relatedInvoiceId: invoice.id, taxDecisionId: taken.id, lines: credited },
  });
  assert.equal(draft.statusCode, 201, draft.body);
  const note = await h.call('POST', `/v1/credit-notes/${draft.data.id}/finalize`, { key: seller.key });
  assert.equal(note.statusCode, 200, note.body);
  const noteRates = note.data.vatBreakdown.map((group: any) => group.vatRate);
  assert.equal(noteRates.length, 1);
  const refunded = await h.call('POST', `/v1/credit-notes/${note.data.id}/refunds`, {
    key: seller.key,
    body: { amount: 5000 },
  });
  assert.equal(refunded.statusCode, 201, refunded.body);
  h.clock.advance(1000);
  assert.equal(await sendDueStatements(h.deps, { companyIds }), 2, "the payment's and the refund's");

  const connector = platform.connector();
  const found = await connector.findDeposit(statementTrackingId(refunded.data.id));
  assert.ok(found.ok && found.value);
  const file = await connector.downloadFlow(found.value.flowId);
  assert.ok(file.ok);
  const [status] = parseCdarMessage(file.value.toString('utf8'));
  assert.deepEqual(status!.collected, [{ amount: '-50.00', vatRate: noteRates[0] }]);
});
