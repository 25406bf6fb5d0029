import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { consumeMonthlyQuota } from '../../src/limits/service.js';
import { inTransaction } from '../../src/db/transaction.js';
import {
  advice,
  asDecisionCustomer,
  chair,
  customer,
  decision,
  eventsOf,
  finalizedInvoice,
  frenchBuyer,
  readyDraft,
  seller,
  sellerProfile,
  today,
} from './support.js';

/** Every refusal of the finalization, over HTTP; the pure rows are in document-rules.test.ts. */
test('finalization refusals', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());

  const finalize = (key: string, id: string) => h.call('POST', `/v1/invoices/${id}/finalize`, { key });
  const expectRefusal = async (key: string, id: string, code: string, param?: string, status = 400) => {
    const response = await finalize(key, id);
    assert.equal(response.statusCode, status, response.body);
    assert.equal(response.data.error.code, code, response.body);
    if (param !== undefined) assert.equal(response.data.error.param, param);
    return response.data.error;
  };

  await t.test('no decision, or an unknown one: tax_decision_required', async () => {
    const { key } = await seller(h);
    const customerId = await customer(h, key);
    const none = (await h.call('POST', '/v1/invoices', { key, body: { customerId, lines: [chair] } })).data;
    await expectRefusal(key, none.id, 'tax_decision_required', 'taxDecisionId');
    const unknown = (
      await h.call('POST', '/v1/invoices', {
        key,
        body: { customerId, lines: [chair], taxDecisionId: 'txd_01m80kd1cn1220tzdk3rc8ms8q' },
      })
    ).data;
    await expectRefusal(key, unknown.id, 'tax_decision_required', 'taxDecisionId');
  });

  await t.test('a customer deleted after the draft: resource_deleted, nothing numbered', async () => {
    const { key } = await seller(h);
    const draft = await readyDraft(h, key);
    assert.equal((await h.call('DELETE', `/v1/customers/${draft.customerId}`, { key })).statusCode, 200);
    await expectRefusal(key, draft.id, 'resource_deleted', 'customerId', 409);
    const still = await h.call('GET', `/v1/invoices/${draft.id}`, { key });
    assert.deepEqual([still.data.documentStatus, still.data.number], ['draft', null]);
  });

  await t.test('a suspended decision: tax_decision_not_final', async () => {
    const { key } = await seller(h);
    const buyer = { type: 'individual', name: 'Max Mustermann', address: { postalCode: '10117', country: 'DE' } };
    const lines = [{ description: 'Abonnement', quantity: '1', unitPrice: '10', nature: 'electronic_service' }];
    const suspended = await decision(h, key, { customer: asDecisionCustomer(buyer) }, lines);
    assert.equal(suspended.status, 'suspended');
    const draft = (await h.call('POST', '/v1/invoices', { key, body: { buyer, lines, taxDecisionId: suspended.id } }))
      .data;
    const error = await expectRefusal(key, draft.id, 'tax_decision_not_final', 'taxDecisionId');
    assert.match(error.message, /suspended/);
  });

  await t.test('a decision past its usage window (sandbox clock): tax_decision_expired', async () => {
    const { key } = await seller(h);
    const draft = await readyDraft(h, key);
    const advanced = await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 25 * 3600 } });
    assert.equal(advanced.statusCode, 200);
    await expectRefusal(key, draft.id, 'tax_decision_expired', 'taxDecisionId');
  });

  await t.test('a decision that already backs another document: tax_decision_required', async () => {
    const { key } = await seller(h);
    const customerId = await customer(h, key);
    const taken = await decision(h, key, { customerId });
    const first = (
      await h.call('POST', '/v1/invoices', { key, body: { customerId, lines: [chair], taxDecisionId: taken.id } })
    ).data;
    const second = (
      await h.call('POST', '/v1/invoices', { key, body: { customerId, lines: [chair], taxDecisionId: taken.id } })
    ).data;
    assert.equal((await finalize(key, first.id)).statusCode, 200);
    const error = await expectRefusal(key, second.id, 'tax_decision_required', 'taxDecisionId');
    assert.match(error.hint, new RegExp(first.id));
  });

  await t.test(
    'another customer: tax_decision_customer_mismatch; the customer changed since: tax_decision_buyer_drifted',
    async () => {
      const { key } = await seller(h);
      const a = await customer(h, key);
      const b = await customer(h, key);
      const forA = await decision(h, key, { customerId: a });
      const draft = (
        await h.call('POST', '/v1/invoices', { key, body: { customerId: b, lines: [chair], taxDecisionId: forA.id } })
      ).data;
      await expectRefusal(key, draft.id, 'tax_decision_customer_mismatch', 'customerId');
      const inline = (
        await h.call('POST', '/v1/invoices', {
          key,
          body: { buyer: frenchBuyer, lines: [chair], taxDecisionId: forA.id },
        })
      ).data;
      await expectRefusal(key, inline.id, 'tax_decision_customer_mismatch', 'buyer');
      const ofA = (
        await h.call('POST', '/v1/invoices', { key, body: { customerId: a, lines: [chair], taxDecisionId: forA.id } })
      ).data;
      // The customer moves to Corsica after the decision: another VAT territory.
      const moved = await h.call('POST', `/v1/customers/${a}`, {
        key,
        body: { address: { line1: '1 quai', postalCode: '20000', city: 'Ajaccio', country: 'FR' } },
      });
      assert.equal(moved.data.address.territory, 'FR-COR');
      const error = await expectRefusal(key, ofA.id, 'tax_decision_buyer_drifted', 'customerId');
      assert.match(error.message, /territory/);
    },
  );

  await t.test('lines that do not cover the decided lines: tax_decision_lines_mismatch naming the line', async () => {
    const { key } = await seller(h);
    const customerId = await customer(h, key);
    const taken = await decision(h, key, { customerId }, [chair, advice]);
    const fewer = (
      await h.call('POST', '/v1/invoices', { key, body: { customerId, lines: [chair], taxDecisionId: taken.id } })
    ).data;
    await expectRefusal(key, fewer.id, 'tax_decision_lines_mismatch', 'lines');
    const otherPrice = (
      await h.call('POST', '/v1/invoices', {
        key,
        body: { customerId, lines: [chair, { ...advice, unitPrice: '95' }], taxDecisionId: taken.id },
      })
    ).data;
    const error = await expectRefusal(key, otherPrice.id, 'tax_decision_lines_mismatch', 'lines[1]');
    assert.match(error.message, /unit price 95 against 90/);
    // Decimals written differently are the same amounts.
    const sameAmounts = (
      await h.call('POST', '/v1/invoices', {
        key,
        body: {
          customerId,
          lines: [
            { ...chair, unitPrice: '149' },
            { ...advice, quantity: '3.0' },
          ],
          taxDecisionId: taken.id,
        },
      })
    ).data;
    assert.equal((await finalize(key, sameAmounts.id)).statusCode, 200);
    const reduced = await decision(h, key, { customerId }, [{ ...chair, rateCategory: 'reduced' }]);
    const standard = (
      await h.call('POST', '/v1/invoices', { key, body: { customerId, lines: [chair], taxDecisionId: reduced.id } })
    ).data;
    await expectRefusal(key, standard.id, 'tax_decision_lines_mismatch', 'lines[0]');
    const source = (
      await h.call('POST', '/v1/invoices', {
        key,
        body: {
          customerId,
          lines: [{ ...chair, rateCategory: 'reduced' }],
          taxDecisionId: reduced.id,
          taxSource: 'integration',
        },
      })
    ).data;
    await expectRefusal(key, source.id, 'tax_decision_lines_mismatch', 'taxSource');
  });

  await t.test(
    'buyer identity not disclosed: 400 naming the field; no number taken, nothing reserved, no event',
    async () => {
      const { key } = await seller(h);
      // The sandbox directory keeps the name of this SIRET from publication.
      const hidden = await customer(h, key, { ...frenchBuyer, siret: '73282932099803', vatNumber: undefined });
      const draft = await readyDraft(h, key, { customerId: hidden });
      const error = await expectRefusal(key, draft.id, 'buyer_identity_not_disclosed', 'buyer.name');
      assert.equal(error.type, 'invalid_request_error');
      assert.equal((await h.call('GET', `/v1/invoices/${draft.id}`, { key })).data.number, null);
      assert.equal((await eventsOf(h, key, 'invoice.finalized')).length, 0);
      const next = await finalizedInvoice(h, key);
      assert.equal(next.number, 'TEST-F2026-000001', 'the refused finalization took no number');
      const inline = (
        await h.call('POST', '/v1/invoices', {
          key,
          body: {
            buyer: { ...frenchBuyer, registryNonDisclosure: ['address.line1'] },
            lines: [chair],
            taxDecisionId: (await decision(h, key, { customer: asDecisionCustomer(frenchBuyer) })).id,
          },
        })
      ).data;
      await expectRefusal(key, inline.id, 'buyer_identity_not_disclosed', 'buyer.address.line1');
    },
  );

  await t.test('live: buyer identity not disclosed consumes no quota', async () => {
    const { companyId } = await seller(h);
    const live = await h.key(companyId, { env: 'live' });
    await h.call('POST', '/v1/tax-profiles', { key: live, body: sellerProfile });
    const hidden = await customer(h, live, { ...frenchBuyer, registryNonDisclosure: ['address'] });
    const draft = await readyDraft(h, live, { customerId: hidden });
    await expectRefusal(live, draft.id, 'buyer_identity_not_disclosed', 'buyer.address');
    assert.equal((await h.call('GET', '/v1/subscription', { key: live })).data.usage.documents, 0);
    await finalizedInvoice(h, live);
    assert.equal(
      (await h.call('GET', '/v1/subscription', { key: live })).data.usage.documents,
      1,
      'a live finalization consumes one document',
    );
  });

  await t.test("an invoice to the issuer's own SIREN: self_invoicing_not_allowed", async () => {
    const { key } = await seller(h);
    const self = await customer(h, key, { ...frenchBuyer, siret: '10000000900017', vatNumber: 'FR88100000009' });
    const draft = await readyDraft(h, key, { customerId: self });
    await expectRefusal(key, draft.id, 'self_invoicing_not_allowed', 'buyer.siren');
  });

  await t.test('an issue date other than the day of numbering is refused; a due date before it too', async () => {
    const { key } = await seller(h);
    const past = await readyDraft(h, key, { body: { issueDate: '2026-10-01' } });
    await expectRefusal(key, past.id, 'invalid_field_value', 'issueDate');
    const fixed = await h.call('POST', `/v1/invoices/${past.id}`, { key, body: { issueDate: today(h) } });
    assert.equal(fixed.statusCode, 200);
    assert.equal((await finalize(key, past.id)).statusCode, 200);
    const early = await readyDraft(h, key, { body: { dueDate: '2026-10-01' } });
    await expectRefusal(key, early.id, 'invalid_field_value', 'dueDate');
  });

  await t.test(
    'live: the monthly quota is checked in the finalizing transaction: quota_exceeded, no number taken',
    async () => {
      const { companyId } = await seller(h, { plan: 'free' });
      const live = await h.key(companyId, { env: 'live' });
      await h.call('POST', '/v1/tax-profiles', { key: live, body: sellerProfile });
      const draft = await readyDraft(h, live);
      await inTransaction(h.deps.db, null, (tx) =>
        consumeMonthlyQuota(tx, { companyId, livemode: true }, 'free', 'documents', h.clock.now(), 1000),
      );
      const error = await expectRefusal(live, draft.id, 'quota_exceeded', undefined, 402);
      assert.equal(error.type, 'plan_limit_error');
      assert.equal((await h.call('GET', `/v1/invoices/${draft.id}`, { key: live })).data.number, null);
    },
  );

  await t.test('live: 10 finalizations per minute per key; the sandbox is exempt', async () => {
    const { companyId, key } = await seller(h);
    const live = await h.key(companyId, { env: 'live' });
    for (let i = 0; i < 10; i++) assert.equal((await finalize(live, 'inv_01m80kd1cn1220tzdk3rc8ms8q')).statusCode, 404);
    const limited = await finalize(live, 'inv_01m80kd1cn1220tzdk3rc8ms8q');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.data.error.code, 'rate_limit_exceeded');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    const other = await h.key(companyId, { env: 'live' });
    assert.equal((await finalize(other, 'inv_01m80kd1cn1220tzdk3rc8ms8q')).statusCode, 404, 'per key');
    for (let i = 0; i < 12; i++)
      assert.equal((await finalize(key, 'inv_01m80kd1cn1220tzdk3rc8ms8q')).statusCode, 404, 'test keys are exempt');
  });

  await t.test('an invoice of another company or of the other environment is not found', async () => {
    const a = await seller(h);
    const b = await seller(h);
    const invoice = await finalizedInvoice(h, a.key);
    const live = await h.key(a.companyId, { env: 'live' });
    for (const key of [b.key, live]) {
      for (const [method, path] of [
        ['GET', ''],
        ['POST', '/finalize'],
        ['POST', '/send'],
        ['GET', '/history'],
      ] as const) {
        const response = await h.call(method, `/v1/invoices/${invoice.id}${path}`, { key });
        assert.equal(response.statusCode, 404, `${method} ${path}`);
        assert.equal(response.data.error.code, 'not_found');
      }
    }
  });
});
