import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startHarness } from '../support/harness.js';
import { business, consumer, line, profileFor, siretOf, vatNumberOf, withLedger, withProfile } from './support.js';

const today = '2026-10-15';
const decision = (body: Record<string, unknown>): Record<string, unknown> => ({
  taxSource: 'service',
  date: today,
  currency: 'EUR',
  ...body,
});

test('tax profiles: dated revisions, never overlapping', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());

  await t.test('create, read, list by date, close, and the codes of the profile', async () => {
    const { key } = await h.tenant();
    const first = await withProfile(h, key, { validFrom: '2026-01-01' });
    assert.match(String(first.id), /^txp_/);
    assert.equal((first.establishment as { territory: string }).territory, 'FR');
    const overlap = await h.call('POST', '/v1/tax-profiles', {
      key,
      body: await profileFor(h, key, { validFrom: '2026-06-01' }),
    });
    assert.equal(overlap.statusCode, 400);
    assert.equal(overlap.data.error.code, 'tax_profile_ambiguous');
    const closed = await h.call('POST', `/v1/tax-profiles/${first.id}`, { key, body: { validTo: '2026-05-31' } });
    assert.equal(closed.statusCode, 200, closed.body);
    const second = await withProfile(h, key, { validFrom: '2026-06-01', vatOnDebits: true });
    assert.equal((await h.call('GET', `/v1/tax-profiles/${second.id}`, { key })).data.vatOnDebits, true);
    const covering = await h.call('GET', '/v1/tax-profiles?date=2026-03-01', { key });
    assert.deepEqual(
      covering.data.data.map((p: { id: string }) => p.id),
      [first.id],
    );
    const missing = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({ date: '2025-12-31', customer: business('FR', '75002'), lines: [line()] }),
    });
    assert.equal(missing.data.error.code, 'tax_profile_missing');
    const inconsistent = await h.call('POST', '/v1/tax-profiles', {
      key,
      body: await profileFor(h, key, {
        validFrom: '2030-01-01',
        regime: 'franchise',
        ereportingPeriodicity: 'monthly',
      }),
    });
    assert.equal(inconsistent.statusCode, 422);
    assert.equal(inconsistent.data.error.param, 'ereportingPeriodicity');
  });

  await t.test('parallel creations of overlapping revisions: exactly one wins', async () => {
    const { key } = await h.tenant();
    const body = await profileFor(h, key);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => h.call('POST', '/v1/tax-profiles', { key, body })),
    );
    assert.equal(answers.filter((a) => a.statusCode === 201).length, 1);
    assert.ok(answers.filter((a) => a.statusCode !== 201).every((a) => a.data.error.code === 'tax_profile_ambiguous'));
  });

  await t.test(
    'tax_profile_ambiguous at decision time, when two revisions cover the date (the store never allows it; the engine still never picks one)',
    async () => {
      const { companyId, key } = await h.tenant();
      await withProfile(h, key);
      await h.deps.pool.query(
        `insert into tax_profiles select company_id, livemode, 'txp_01m80kd1cn1220tzdk3rc8ms8q', valid_from, valid_to, establishment, vat_number, regime, vat_on_debits, oss_registered, ereporting_periodicity, created, updated from tax_profiles where company_id = $1`,
        [companyId],
      );
      const response = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision({ customer: business('FR', '75002'), lines: [line()] }),
      });
      assert.equal(response.data.error.code, 'tax_profile_ambiguous');
    },
  );

  await t.test(
    "the establishment and the VAT number are the company's own: another company's SIREN is validation_error",
    async () => {
      const { key } = await h.tenant();
      const own = await profileFor(h, key);
      const siren = String((own.establishment as { siret: string }).siret).slice(0, 9);
      const other = siren === '552100554' ? '732829320' : '552100554';
      const otherSiret = siretOf(other);
      const otherVat = vatNumberOf(other);
      for (const [body, param] of [
        [{ ...own, establishment: { ...(own.establishment as object), siret: otherSiret } }, 'establishment.siret'],
        [
          { ...own, establishment: { ...(own.establishment as object), siret: otherSiret }, vatNumber: null },
          'establishment.siret',
        ],
        [{ ...own, vatNumber: otherVat }, 'vatNumber'],
        [{ ...own, establishment: { postalCode: '75002', country: 'FR' }, vatNumber: otherVat }, 'vatNumber'],
      ] as const) {
        const refused = await h.call('POST', '/v1/tax-profiles', { key, body });
        assert.equal(refused.statusCode, 422, refused.body);
        assert.equal(refused.data.error.code, 'validation_error');
        assert.equal(refused.data.error.param, param, refused.body);
      }
      assert.equal((await h.call('GET', '/v1/tax-profiles', { key })).data.data.length, 0, 'nothing was created');
      const accepted = await h.call('POST', '/v1/tax-profiles', { key, body: own });
      assert.equal(accepted.statusCode, 201, accepted.body);
    },
  );

  await t.test(
    'an establishment whose French postal code is of another territory: territory conflict on the country',
    async () => {
      const { key } = await h.tenant();
      for (const [country, postalCode, param] of [
        ['GP', '75002', 'establishment.country'],
        ['MQ', '97110', 'establishment.country'],
        ['MC', '75002', 'establishment.country'],
        ['GP', '9711', 'establishment.postalCode'],
      ] as const) {
        const refused = await h.call('POST', '/v1/tax-profiles', {
          key,
          body: await profileFor(h, key, { establishment: { postalCode, country } }),
        });
        assert.equal(refused.statusCode, 422, refused.body);
        assert.equal(refused.data.error.code, 'validation_error');
        assert.equal(refused.data.error.param, param, `${country} ${postalCode}`);
      }
    },
  );

  await t.test('seller territory unresolved, and not modelled', async () => {
    for (const [establishment, code] of [
      [{ country: 'FR' }, 'tax_decision_seller_territory_unresolved'],
      [{ country: 'FR', postalCode: '97500' }, 'tax_decision_seller_territory_unresolved'],
      [{ country: 'FR', postalCode: '97300' }, 'not_supported'],
    ] as const) {
      const { key } = await h.tenant();
      await withProfile(h, key, { establishment, vatNumber: null });
      const response = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision({ customer: business('FR', '75002'), lines: [line()] }),
      });
      assert.equal(response.data.error.code, code, JSON.stringify(establishment));
    }
  });
});

test('tax decisions over HTTP', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());

  await t.test('a final domestic decision: 201, immutable, readable and listed; amounts in cents', async () => {
    const { key } = await h.tenant();
    await withProfile(h, key);
    const customer = (
      await h.call('POST', '/v1/customers', {
        key,
        body: { name: 'Atelier', siret: '73282932000017', address: { postalCode: '75002', country: 'FR' } },
      })
    ).data;
    const created = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({
        customerId: customer.id,
        lines: [line(), line({ nature: 'services', quantity: '1.5', unitPrice: '90.333333' })],
      }),
    });
    assert.equal(created.statusCode, 201, created.body);
    const d = created.data;
    assert.match(d.id, /^txd_/);
    assert.equal(d.status, 'final');
    assert.equal(d.customerId, customer.id);
    assert.deepEqual(d.totals, { net: 43350, vat: 8670, gross: 52020, due: 52020 });
    assert.equal(d.axes.einvoicing.state, 'due');
    assert.equal(d.expiresAt, '2026-10-16T10:00:00.000Z');
    assert.deepEqual((await h.call('GET', `/v1/tax-decisions/${d.id}`, { key })).data, d);
    assert.deepEqual(
      (await h.call('GET', `/v1/tax-decisions?customerId=${customer.id}&status=final`, { key })).data.data.map(
        (x: { id: string }) => x.id,
      ),
      [d.id],
    );
    for (const method of ['POST', 'DELETE'] as const) {
      const refused = await h.call(method, `/v1/tax-decisions/${d.id}`, {
        key,
        ...(method === 'POST' ? { body: { status: 'final' } } : {}),
      });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.data.error.code, 'method_not_allowed');
    }
    assert.deepEqual((await h.call('GET', `/v1/tax-decisions/${d.id}`, { key })).data, d, 'unchanged');
  });

  await t.test(
    'a French postal code of another territory than the country: territory_conflict on customer.address.country',
    async () => {
      const { key } = await h.tenant();
      await withProfile(h, key);
      for (const [address, deliveryAddress, param] of [
        [{ postalCode: '75002', country: 'GP' }, null, 'customer.address.country'],
        [{ postalCode: '97110', country: 'MQ' }, null, 'customer.address.country'],
        [{ postalCode: '75002', country: 'MC' }, null, 'customer.address.country'],
        [
          { postalCode: '75002', country: 'FR' },
          { postalCode: '75002', country: 'GP' },
          'customer.deliveryAddress.country',
        ],
      ] as const) {
        const refused = await h.call('POST', '/v1/tax-decisions', {
          key,
          body: decision({ customer: { type: 'company', address, deliveryAddress }, lines: [line()] }),
        });
        assert.equal(refused.statusCode, 422, refused.body);
        assert.equal(refused.data.error.code, 'validation_error');
        assert.equal(refused.data.error.param, param);
        assert.deepEqual(
          refused.data.error.issues.map((issue: { code: string; param: string }) => [issue.code, issue.param]),
          [['territory_conflict', param]],
        );
      }
    },
  );

  await t.test('input rejected: a tax result in a service payload, with issues per line', async () => {
    const { key } = await h.tenant();
    await withProfile(h, key);
    const withRate = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({
        customer: business('FR', '75002'),
        lines: [line(), line({ vatRate: '20' }), line({ vatCode: 'S' })],
      }),
    });
    assert.equal(withRate.statusCode, 400);
    assert.equal(withRate.data.error.code, 'tax_decision_input_rejected');
    assert.equal(withRate.data.error.param, 'lines[1].vatRate');
    assert.deepEqual(
      withRate.data.error.issues.map((i: { param: string }) => i.param),
      ['lines[1].vatRate', 'lines[2].vatCode'],
    );
    const withTotal = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({ customer: business('FR', '75002'), lines: [line({ netAmount: 100 })], totals: { net: 1 } }),
    });
    assert.equal(withTotal.data.error.code, 'tax_decision_input_rejected');
    assert.equal(withTotal.data.error.param, 'totals');
  });

  await t.test(
    'issues: bounded to 500, messages to 2,000 characters, no address data; a replay with the same key is identical',
    async () => {
      const { key } = await h.tenant();
      await withProfile(h, key);
      const lines = Array.from({ length: 600 }, (_, i) =>
        line({ vatRate: '20', description: `Ligne ${i} 12 rue de la Paix` }),
      );
      const headers = { 'idempotency-key': randomUUID() };
      const body = decision({ customer: business('FR', '75002'), lines });
      const first = await h.call('POST', '/v1/tax-decisions', { key, body, headers });
      assert.equal(first.statusCode, 400);
      assert.equal(first.data.error.issues.length, 500);
      assert.ok(
        first.data.error.issues.every(
          (i: { message: string; code: string }) => i.message.length <= 2000 && !/rue de la Paix|75002/.test(i.message),
        ),
      );
      const replay = await h.call('POST', '/v1/tax-decisions', { key, body, headers });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.statusCode, 400);
      assert.equal(replay.body, first.body);
      const addressIssue = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision({
          customer: { type: 'company', address: { country: 'FR', postalCode: '00100', line1: '12 rue de la Paix' } },
          lines: [line()],
        }),
      });
      assert.equal(addressIssue.statusCode, 422);
      assert.deepEqual(addressIssue.data.error.issues, [
        {
          code: 'unknown_french_postal_territory',
          param: 'customer.address.postalCode',
          message: addressIssue.data.error.issues[0].message,
        },
      ]);
      assert.doesNotMatch(addressIssue.body, /00100|rue de la Paix/);
      const single = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision({ customer: business('FR', '75002'), lines: [line()], metadata: {} }),
      });
      assert.equal(single.statusCode, 201);
      const plain = await h.call('POST', '/v1/tax-decisions', { key, body: decision({ lines: [line()] }) });
      assert.equal(plain.data.error.code, 'missing_required_field');
      assert.equal('issues' in plain.data.error, false, 'issues absent, never empty');
    },
  );

  await t.test('integration: coherent, incoherent, and a destination rate not confirmed (not taken)', async () => {
    const { key } = await h.tenant();
    await withProfile(h, key);
    const coherent = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({
        taxSource: 'integration',
        customer: business('DE', '10117', 'DE136695976'),
        lines: [line({ vatRate: '0', vatCode: 'K', vatexCode: 'VATEX-EU-IC' })],
      }),
    });
    assert.equal(coherent.statusCode, 201, coherent.body);
    assert.equal(coherent.data.mentions[0].text, 'Exonération de TVA, article 262 ter I du CGI');
    assert.equal(coherent.data.axes.ereportingTransaction.reason, 'international_b2b');
    const incoherent = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({
        taxSource: 'integration',
        customer: business('FR', '75002'),
        lines: [
          line({ vatRate: '19.6', vatCode: 'S', vatexCode: null }),
          line({ vatRate: '20', vatCode: 'AE', vatexCode: 'VATEX-EU-AE' }),
        ],
      }),
    });
    assert.equal(incoherent.data.error.code, 'integration_vat_incoherent');
    assert.deepEqual(
      incoherent.data.error.issues.map((i: { param: string }) => i.param),
      ['lines[0].vatRate', 'lines[1].vatRate'],
    );
    const missingCode = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({ taxSource: 'integration', customer: business('FR', '75002'), lines: [line({ vatRate: '20' })] }),
    });
    assert.equal(missingCode.data.error.code, 'missing_required_field');
    assert.equal(missingCode.data.error.param, 'lines[0].vatCode');
    await withLedger(h, key, { previous: 2_000_000 });
    const notTaken = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({
        taxSource: 'integration',
        customer: consumer('DE', '10117'),
        lines: [line({ vatRate: '20', vatCode: 'S', vatexCode: null })],
      }),
    });
    assert.equal(notTaken.statusCode, 201, notTaken.body);
    assert.equal(notTaken.data.status, 'not_taken');
    assert.equal(notTaken.data.totals, null, 'no amount is fixed');
    assert.equal(notTaken.data.reasons[0].code, 'eu_b2c_rate_supplied_mismatch');
    const ledger = (await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data;
    assert.equal(ledger.distanceSales.pending, 0, 'the share of a decision not taken is returned');
    const retried = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({
        taxSource: 'integration',
        customer: consumer('DE', '10117'),
        lines: [line({ vatRate: '19', vatCode: 'S', vatexCode: null })],
        retryOf: notTaken.data.id,
      }),
    });
    assert.equal(retried.data.error.code, 'tax_decision_retry_invalid', 'a retry never changes the supplied VAT');
  });

  await t.test(
    'electronic services to an EU consumer: evidence, the relief, suspended then retried with more evidence',
    async () => {
      const { key } = await h.tenant();
      await withProfile(h, key);
      const body = decision({
        customer: { type: 'individual' },
        lines: [line({ nature: 'electronic_service', unitPrice: '29.90', quantity: '1' })],
        locationEvidence: [{ type: 'bank', country: 'BE', providedBy: 'third_party' }],
      });
      const noLedger = await h.call('POST', '/v1/tax-decisions', { key, body });
      assert.equal(noLedger.data.error.code, 'eu_threshold_state_missing');
      await withLedger(h, key, { electronicServices: 10_000_000 });
      const suspended = await h.call('POST', '/v1/tax-decisions', { key, body });
      assert.equal(suspended.statusCode, 201);
      assert.equal(suspended.data.status, 'suspended');
      assert.equal(suspended.data.reasons[0].code, 'location_evidence_relief_undetermined');
      assert.equal(suspended.data.expiresAt, null);
      const changed = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: { ...body, date: '2026-10-14', retryOf: suspended.data.id },
      });
      assert.equal(changed.data.error.code, 'tax_decision_retry_invalid');
      const retry = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: {
          ...body,
          retryOf: suspended.data.id,
          locationEvidence: [
            ...(body.locationEvidence as unknown[]),
            { type: 'ip_address', country: 'BE', providedBy: 'supplier' },
          ],
        },
      });
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(retry.data.status, 'final');
      assert.equal(retry.data.retryOf, suspended.data.id);
      assert.equal(retry.data.lines[0].treatment, 'distance_sale_origin');
      assert.deepEqual(retry.data.buyer.location, { country: 'BE', territory: 'BE', basis: 'evidence' });
      const again = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: {
          ...body,
          retryOf: suspended.data.id,
          locationEvidence: [
            ...(body.locationEvidence as unknown[]),
            { type: 'ip_address', country: 'BE', providedBy: 'supplier' },
          ],
        },
      });
      assert.equal(again.data.error.code, 'tax_decision_retry_invalid', 'a decision is retried once');
      const finalRetry = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: {
          ...body,
          retryOf: retry.data.id,
          locationEvidence: retry.data
            ? [...(body.locationEvidence as unknown[]), { type: 'ip_address', country: 'BE', providedBy: 'supplier' }]
            : [],
        },
      });
      assert.equal(
        finalRetry.data.error.code,
        'tax_decision_retry_invalid',
        'a final decision in its window has nothing to retry',
      );
    },
  );

  await t.test('the relief established by the ledger: one third-party item suffices', async () => {
    const { key } = await h.tenant();
    await withProfile(h, key);
    await withLedger(h, key);
    const response = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({
        customer: { type: 'individual' },
        lines: [line({ nature: 'electronic_service' })],
        locationEvidence: [{ type: 'sim_mcc', country: 'NL', providedBy: 'third_party' }],
      }),
    });
    assert.equal(response.data.status, 'final', response.body);
    assert.equal(response.data.buyer.location.basis, 'relief');
  });

  await t.test(
    'destination regional regime not sourced: goods refused, electronic services at the standard rate',
    async () => {
      const { key } = await h.tenant();
      await withProfile(h, key);
      await withLedger(h, key, { previous: 2_000_000 });
      const goods = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision({ customer: consumer('AT', '6691'), lines: [line()] }),
      });
      assert.equal(goods.data.error.code, 'destination_regional_regime_not_sourced');
      assert.equal(goods.data.error.param, 'lines[0]');
      const services = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision({
          customer: consumer('AT', '6691'),
          lines: [line({ nature: 'electronic_service' })],
          locationEvidence: [{ type: 'ip_address', country: 'AT', providedBy: 'supplier' }],
        }),
      });
      assert.equal(services.data.status, 'final', services.body);
      assert.equal(services.data.lines[0].vatRate, '20.00');
      assert.equal(
        (await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data.distanceSales.pending,
        29800,
        'the refused decision returned its share; the final one holds its own',
      );
    },
  );

  await t.test('tax_profile_incomplete names the missing declarations', async () => {
    const { key } = await h.tenant();
    await withProfile(h, key, { vatOnDebits: null, ereportingPeriodicity: null });
    const response = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({ customer: consumer('FR', '75002'), lines: [line({ nature: 'services' })] }),
    });
    assert.equal(response.data.error.code, 'tax_profile_incomplete');
    assert.deepEqual(
      response.data.error.issues.map((i: { message: string }) => /`(\w+)`/.exec(i.message)![1]),
      ['vatOnDebits', 'ereportingPeriodicity'],
    );
  });

  await t.test('the sandbox reset purges profiles, decisions and ledgers', async () => {
    const { key } = await h.tenant();
    await withProfile(h, key);
    await withLedger(h, key);
    await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({ customer: business('FR', '75002'), lines: [line()] }),
    });
    const reset = await h.call('POST', '/v1/sandbox/reset', { key });
    assert.equal(reset.data.purged.taxDecisions, 1);
    assert.equal(reset.data.purged.taxProfiles, 1);
    assert.equal(reset.data.purged.euThresholdLedgers, 1);
  });
});
