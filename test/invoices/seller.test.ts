import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor } from '../support/harness.js';
import { inTransaction } from '../../src/db/transaction.js';
import { purgeTestEstablishments } from '../../src/establishments/service.js';
import { checkDraftConformance } from '../../src/einvoice/draft-conformance.js';
import { documentModelOf } from '../../src/einvoice/document-model.js';
import { documentSourceOf } from '../../src/invoices/issue-conformance.js';
import {
  asDecisionCustomer,
  chair,
  decision,
  documentHarness,
  eventsOf,
  finalizedInvoice,
  readyDraft,
  seller,
  sellerSiren,
} from './support.js';

const lyon = { line1: '5 avenue Foch', postalCode: '69006', city: 'Lyon', country: 'FR' };

test('the seller block: frozen at finalization, checked before the number', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());

  await t.test(
    "finalization freezes the identity and the tax profile's establishment; later changes never alter it",
    async () => {
      const { key } = await seller(h);
      const draft = await readyDraft(h, key);
      assert.equal(draft.seller, null, 'a draft has no seller block');
      const issued = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
      assert.equal(issued.statusCode, 200, issued.body);
      const frozen = issued.data.seller;
      assert.equal(frozen.legalName, 'Vendeur SAS');
      assert.equal(frozen.siren, sellerSiren);
      assert.equal(frozen.siret, '10000000900017');
      assert.equal(frozen.legalForm, 'SAS');
      assert.equal(frozen.vatNumber, 'FR88100000009');
      assert.deepEqual(frozen.registration, { kind: 'RCS', place: 'Paris' });
      assert.equal(frozen.address.postalCode, '75002');
      assert.equal(frozen.electronicAddress, sellerSiren);
      assert.equal(frozen.iban, 'FR7630006000011234567890189');

      const [headOffice] = (await h.call('GET', '/v1/establishments', { key })).data.data;
      const moved = await h.call('POST', `/v1/establishments/${headOffice.id}`, { key, body: { address: lyon } });
      assert.equal(moved.statusCode, 200, moved.body);
      const renamed = await h.call('POST', '/v1/account', { key, body: { legalName: 'Vendeur Nouveau SAS' } });
      assert.equal(renamed.statusCode, 200, renamed.body);

      const reread = await h.call('GET', `/v1/invoices/${draft.id}`, { key });
      assert.deepEqual(reread.data.seller, frozen, 'the issued invoice keeps its seller');
      const next = await finalizedInvoice(h, key);
      assert.equal(next.seller.legalName, 'Vendeur Nouveau SAS');
      assert.equal(next.seller.address.city, 'Lyon');
    },
  );

  await t.test("the tax profile's establishment wins over the default one", async () => {
    const { key } = await seller(h);
    const other = await h.call('POST', '/v1/establishments', {
      key,
      body: { siret: '10000000900025', address: lyon, isDefault: true },
    });
    assert.equal(other.statusCode, 201, other.body);
    const invoice = await finalizedInvoice(h, key);
    assert.equal(invoice.seller.siret, '10000000900017', "the profile's");
    assert.equal(invoice.seller.address.city, 'Paris');
  });

  await t.test(
    'a draft that would break a rule is refused with its rule ids; nothing numbered, nothing counted',
    async () => {
      const { key } = await seller(h);
      // A French company without SIREN: in scope of e-invoicing (domestic B2B), so the French rules
      // bind it and BR-FR-11 (BT-47, the buyer's SIREN) refuses it. A consumer is out of scope
      // (test/invoices/scope-validation.test.ts).
      const buyer = {
        type: 'company',
        name: 'Atelier Martin',
        address: { line1: '8 place Bellecour', postalCode: '69002', city: 'Lyon', country: 'FR' },
      };
      const taken = await decision(h, key, { customer: asDecisionCustomer(buyer) }, [chair]);
      const draft = (
        await h.call('POST', '/v1/invoices', { key, body: { buyer, lines: [chair], taxDecisionId: taken.id } })
      ).data;
      const refused = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.data.error.code, 'schematron_validation_failed');
      assert.equal(refused.data.error.param, 'buyer.siren');
      assert.match(refused.data.error.message, /BR-FR-11_BT-47/);
      assert.match(refused.data.error.message, /nothing was numbered/);
      assert.equal(refused.data.error.issues, undefined, 'the contract keeps `issues` for tax decisions');
      const still = await h.call('GET', `/v1/invoices/${draft.id}`, { key });
      assert.equal(still.data.documentStatus, 'draft');
      assert.equal(still.data.number, null);
      assert.equal(still.data.seller, null);
      assert.equal((await eventsOf(h, key, 'invoice.finalized')).length, 0);
      // The decision was not consumed: the same decision backs the fixed draft (buyer with its SIREN).
      const fixed = await h.call('POST', `/v1/invoices/${draft.id}`, {
        key,
        body: { buyer: { ...buyer, siren: '732829320' } },
      });
      assert.equal(fixed.statusCode, 200, fixed.body);
      const issued = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
      assert.equal(issued.statusCode, 200, issued.body);
      assert.match(issued.data.number, /-000001$/, 'the refused attempt left no gap');
      const second = await finalizedInvoice(h, key);
      assert.match(second.number, /-000002$/);
    },
  );

  await t.test('a company without establishment: the refusal says where to declare one', async () => {
    const { companyId, key } = await seller(h);
    const draft = await readyDraft(h, key);
    await inTransaction(h.deps.db, contextFor(companyId, false, h.clock.now()), (tx) =>
      purgeTestEstablishments(tx, { companyId, livemode: false }),
    );
    const refused = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.data.error.code, 'schematron_validation_failed');
    assert.equal(refused.data.error.param, 'seller.address');
    assert.match(refused.data.error.message, /BR-08 \(seller\.address\).*POST \/v1\/establishments/);
    assert.doesNotMatch(refused.data.error.message, /BR-09/, 'not reported again field by field');
  });

  await t.test('the own checks take microseconds (no XML)', async () => {
    const { key } = await seller(h);
    const invoice = await finalizedInvoice(h, key);
    const source = documentSourceOf(
      { ...invoice, tax: { vatBreakdown: invoice.vatBreakdown, mentions: invoice.mentions, obligations: null } },
      null,
    );
    // The code lists are read once, and the code warmed up.
    for (let i = 0; i < 500; i++) checkDraftConformance(documentModelOf(source));
    const runs = 5000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < runs; i++) assert.equal(checkDraftConformance(documentModelOf(source)).length, 0);
    const perRun = Number(process.hrtime.bigint() - start) / runs / 1000;
    t.diagnostic(`own checks: ${perRun.toFixed(1)} µs per document`);
    // A loose bound against building XML here (milliseconds): the test machine is shared, and a
    // load of 20 on 2 cores multiplies the few microseconds measured alone by a hundred.
    assert.ok(perRun < 10_000, `${perRun} µs`);
  });
});
