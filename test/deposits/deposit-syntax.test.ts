/**
 * The deposit's syntax and profile follow the document: the buyer's `einvoiceSyntax` (the
 * customer's), else the establishment's default, else the Factur-X; the deposit says so in its
 * `flowSyntax` and carries that file, with `flowProfile: CIUS` (EN 16931 with the French rules) and
 * `processingRule: B2B` (e-invoicing). The simulator reads the file as its declared syntax.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCheckedSimulator, type CheckedSimulator } from '../platform/support.js';
import { readUbl } from '../../src/einvoice/ubl-reader.js';
import { customer, finalizedInvoice } from '../invoices/support.js';
import { addressedBuyer, buyerSiren, connectedSeller, read, send, startWorld, type World } from './support.js';

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
  assert.deepEqual(platform.violations(), [], 'every exchange follows the AFNOR OpenAPI documents');
});

/** The flow info of the deposit of a document's first attempt, as the platform received it. */
function depositInfo(documentId: string): Record<string, unknown> {
  const deposits = platform.exchanges.filter(
    (exchange) =>
      exchange.service === 'flow' &&
      exchange.method === 'POST' &&
      (exchange.requestBody as { flowInfo?: { trackingId?: string } } | undefined)?.flowInfo?.trackingId ===
        `${documentId}-a1`,
  );
  assert.equal(deposits.length, 1, `one deposit of ${documentId}`);
  return (deposits[0]!.requestBody as { flowInfo: Record<string, unknown> }).flowInfo;
}

test("the buyer's syntax, else the establishment's default: the file, its flowSyntax and profile", async () => {
  const seller = await connectedSeller(world, platform);
  const ublBuyer = await customer(world.h, seller.key, { ...addressedBuyer, einvoiceSyntax: 'ubl' });
  const read1 = await world.h.call('GET', `/v1/customers/${ublBuyer}`, { key: seller.key });
  assert.equal(read1.data.einvoiceSyntax, 'ubl');
  const establishment = await world.h.call('GET', `/v1/establishments/${seller.establishmentId}`, { key: seller.key });
  assert.equal(establishment.data.einvoiceSyntax, 'cii', 'the Factur-X unless set');

  /** A finalized invoice to `customerId`, sent, deposited and its statuses read: its deposit's info. */
  async function deposited(customerId: string) {
    const invoice = await finalizedInvoice(world.h, seller.key, { customerId });
    await world.files.drain();
    await send(world, seller, invoice.id);
    assert.equal(await world.deposits.drain(), 1);
    await world.poll();
    const doc = await read(world, seller, invoice.id);
    assert.equal(doc.status, 'approved', `${invoice.number} went through`);
    assert.equal(
      doc.buyer.einvoiceSyntax,
      (await world.h.call('GET', `/v1/customers/${customerId}`, { key: seller.key })).data.einvoiceSyntax,
    );
    return { invoice, info: depositInfo(invoice.id) };
  }

  // The buyer wants UBL: the UBL file, flowSyntax UBL, read by the platform as the invoice it is.
  const ubl = await deposited(ublBuyer);
  assert.deepEqual(
    [ubl.info.flowSyntax, ubl.info.flowProfile, ubl.info.processingRule, ubl.info.name],
    ['UBL', 'CIUS', 'B2B', `${ubl.invoice.number}-ubl.xml`],
  );
  const file = await world.h.call('GET', `/v1/invoices/${ubl.invoice.id}/files/ubl`, { key: seller.key });
  assert.equal(readUbl(file.body).number, ubl.invoice.number);

  // No preference, the establishment's default: the Factur-X.
  const plain = await deposited(seller.customerId);
  assert.deepEqual(
    [plain.info.flowSyntax, plain.info.flowProfile, plain.info.processingRule, plain.info.name],
    ['Factur-X', 'CIUS', 'B2B', `${plain.invoice.number}.pdf`],
  );

  // The establishment's default moved to UBL: a buyer without preference gets UBL, one who states
  // the CII keeps the Factur-X.
  const moved = await world.h.call('POST', `/v1/establishments/${seller.establishmentId}`, {
    key: seller.key,
    body: { einvoiceSyntax: 'ubl' },
  });
  assert.equal(moved.statusCode, 200, moved.body);
  assert.equal(moved.data.einvoiceSyntax, 'ubl');
  assert.equal((await deposited(seller.customerId)).info.flowSyntax, 'UBL');
  const ciiBuyer = await customer(world.h, seller.key, { ...addressedBuyer, einvoiceSyntax: 'cii' });
  assert.equal((await deposited(ciiBuyer)).info.flowSyntax, 'Factur-X');

  // Refused with the contract's envelope: a syntax that is none of the two.
  const bad = await world.h.call('POST', '/v1/customers', {
    key: seller.key,
    body: { ...addressedBuyer, einvoiceSyntax: 'pdf' },
  });
  assert.equal(bad.statusCode, 422, bad.body);
  assert.equal(bad.data.error.param, 'einvoiceSyntax');
});
