import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFileWorker } from '../../src/invoices/generation.js';
import { officialStylesheets, ublValidation, ValidationPool } from '../../src/einvoice/validation-pool.js';
import { testCacheDir } from '../einvoice/support.js';
import { chair, customer, documentHarness, finalizedInvoice, seller } from './support.js';

/**
 * The French CIUS (BR-FR) binds the documents in scope of e-invoicing (domestic B2B) only: an
 * invoice to a consumer, to a company of another Member State (reverse charge, intra-EU supply) or
 * outside the EU finalizes without a buyer e-mail or electronic address (BR-FR-12 / BT-49), and its
 * files pass the XSD, EN 16931 and the Factur-X profile; a domestic B2B one is still refused.
 */

// Not covered: the domestic B2B refusal through the API (a buyer with a SIREN always gets it as
// BT-49); the corpus test breaks BR-FR rules on domestic B2B documents instead.
const noEndpoint = {
  consumer: {
    type: 'individual',
    name: 'Camille Martin',
    address: { line1: '8 place Bellecour', postalCode: '69002', city: 'Lyon', country: 'FR' },
  },
  intraEu: {
    type: 'company',
    name: 'Holzwerk GmbH',
    vatNumber: 'DE136695976',
    address: { line1: 'Unter den Linden 1', postalCode: '10117', city: 'Berlin', country: 'DE' },
  },
  export: {
    type: 'company',
    name: 'Maple Corp',
    address: { line1: '5th Avenue 1', postalCode: '10001', city: 'New York', country: 'US' },
  },
};

test('BR-FR only in scope of e-invoicing', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());
  const companyIds: string[] = [];
  const worker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds });
  t.after(() => worker.stop());
  const ciiPool = await ValidationPool.open({ cacheDir: testCacheDir, size: 1 });
  t.after(() => ciiPool.close());
  const ublPool = await ValidationPool.open({ cacheDir: testCacheDir, size: 1, ...ublValidation });
  t.after(() => ublPool.close());

  for (const [name, buyer, lines, axis, env, category] of [
    ['a consumer', noEndpoint.consumer, [chair], 'buyer_not_taxable_person', 'live', 'S'],
    ['a US company (export)', noEndpoint.export, [chair], 'buyer_established_outside_france', 'live', 'G'],
    // In test mode: a live intra-EU decision waits for VIES, which no test reaches.
    [
      'a German company (intra-EU supply)',
      noEndpoint.intraEu,
      [chair],
      'buyer_established_outside_france',
      'test',
      'K',
    ],
  ] as const)
    await t.test(`an invoice to ${name} without e-mail or electronic address finalizes, its files valid`, async () => {
      const { companyId, key } = await seller(h, { env });
      companyIds.push(companyId);
      const customerId = await customer(h, key, buyer);
      const invoice = await finalizedInvoice(h, key, { customerId, lines: [...lines] });
      assert.equal(invoice.taxDecision?.axes?.einvoicing?.reason ?? axis, axis);
      assert.deepEqual(
        invoice.vatBreakdown.map((group: any) => group.vatCode),
        [category],
      );
      assert.equal(await worker.drain(), 1);
      const resource = await h.call('GET', `/v1/invoices/${invoice.id}`, { key });
      assert.deepEqual(
        resource.data.files.map((file: any) => file.state),
        ['ready', 'ready', 'ready', 'ready'],
      );
      const cii = (await h.call('GET', `/v1/invoices/${invoice.id}/files/xml`, { key })).rawPayload.toString('utf8');
      const ubl = (await h.call('GET', `/v1/invoices/${invoice.id}/files/ubl`, { key })).rawPayload.toString('utf8');
      // What binds it passes: the XSD, EN 16931 and the Factur-X profile (CII), EN 16931 (UBL).
      const ciiReport = await ciiPool.validate(cii, ['FACTUR-X_EN16931']);
      assert.deepEqual(ciiReport.failures, []);
      const ublReport = await ublPool.validate(ubl, ['EN16931-UBL-validation']);
      assert.deepEqual(ublReport.failures, []);
      // And the French routing rule would have refused it: the BR-FR rules were rightly not run.
      const withBrFr = await ciiPool.validate(cii, officialStylesheets);
      assert.ok(withBrFr.rules.includes('BR-FR-12_BT-49'), withBrFr.rules.join(', '));
    });
});
