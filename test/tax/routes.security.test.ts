import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { business, line, withLedger, withProfile } from './support.js';

test('tax profiles, decisions and ledgers: scopes, companies and environments', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());

  await t.test('invoices:read reads, invoices:write writes, other scopes get 403', async () => {
    const companyId = await h.company();
    const writer = await h.key(companyId, { scopes: ['invoices:write'] });
    const reader = await h.key(companyId, { scopes: ['invoices:read'] });
    const other = await h.key(companyId, { scopes: ['customers:write', 'products:write'] });
    const profile = await withProfile(h, writer);
    await withLedger(h, writer);
    const created = await h.call('POST', '/v1/tax-decisions', {
      key: writer,
      body: {
        taxSource: 'service',
        date: '2026-10-15',
        currency: 'EUR',
        customer: business('FR', '75002'),
        lines: [line()],
      },
    });
    assert.equal(created.statusCode, 201);
    for (const url of [
      '/v1/tax-profiles',
      `/v1/tax-profiles/${profile.id}`,
      '/v1/tax-decisions',
      `/v1/tax-decisions/${created.data.id}`,
      '/v1/eu-threshold-ledgers/2026',
    ]) {
      assert.equal((await h.call('GET', url, { key: reader })).statusCode, 200, url);
      const refused = await h.call('GET', url, { key: other });
      assert.equal(refused.statusCode, 403, url);
      assert.equal(refused.data.error.code, 'scope_insufficient');
    }
    const writes: [string, string, unknown][] = [
      ['POST', '/v1/tax-profiles', { validFrom: '2030-01-01', establishment: { country: 'FR' } }],
      ['POST', `/v1/tax-profiles/${profile.id}`, { validTo: null }],
      ['POST', '/v1/tax-decisions', { taxSource: 'service' }],
      ['POST', `/v1/tax-decisions/${created.data.id}`, {}],
      ['DELETE', `/v1/tax-decisions/${created.data.id}`, undefined],
      ['POST', '/v1/eu-threshold-ledgers', { year: 2025 }],
      ['POST', '/v1/eu-threshold-ledgers/2026/adjustments', { reference: 'a', coveredUntil: '2026-10-15' }],
      ['POST', '/v1/eu-threshold-ledgers/2026/corrections', { reference: 'b', entryId: 'ledg_x', distanceSales: 1 }],
      [
        'POST',
        '/v1/eu-threshold-ledgers/2026/reconciliations',
        { lastEntryId: 'ledg_x', distanceSales: 0, electronicServices: 0 },
      ],
    ];
    for (const [method, url, body] of writes) {
      const response = await h.call(method as 'POST', url, { key: reader, ...(body ? { body } : {}) });
      assert.equal(response.statusCode, 403, `${method} ${url}`);
      assert.equal(response.data.error.code, 'scope_insufficient');
    }
  });

  await t.test("another company's or environment's resources are 404 not_found and never listed", async () => {
    const a = await h.tenant();
    const aLive = await h.key(a.companyId, { env: 'live' });
    const b = await h.tenant();
    const profile = await withProfile(h, a.key);
    await withLedger(h, a.key);
    const decision = (
      await h.call('POST', '/v1/tax-decisions', {
        key: a.key,
        body: {
          taxSource: 'service',
          date: '2026-10-15',
          currency: 'EUR',
          customer: business('FR', '75002'),
          lines: [line()],
        },
      })
    ).data;
    for (const key of [b.key, aLive]) {
      for (const url of [
        `/v1/tax-profiles/${profile.id}`,
        `/v1/tax-decisions/${decision.id}`,
        '/v1/eu-threshold-ledgers/2026',
      ]) {
        const response = await h.call('GET', url, { key });
        assert.equal(response.statusCode, 404, url);
        assert.equal(response.data.error.code, 'not_found');
      }
      for (const method of ['POST', 'DELETE'] as const) {
        assert.equal(
          (
            await h.call(method, `/v1/tax-decisions/${decision.id}`, {
              key,
              ...(method === 'POST' ? { body: {} } : {}),
            })
          ).data.error.code,
          'not_found',
        );
      }
      assert.deepEqual((await h.call('GET', '/v1/tax-decisions', { key })).data.data, []);
      assert.deepEqual((await h.call('GET', '/v1/tax-profiles', { key })).data.data, []);
      const retry = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: {
          taxSource: 'service',
          date: '2026-10-15',
          currency: 'EUR',
          customer: business('FR', '75002'),
          lines: [line()],
          retryOf: decision.id,
        },
      });
      assert.equal(retry.data.error.code, 'not_found');
      const adjust = await h.call('POST', '/v1/eu-threshold-ledgers/2026/adjustments', {
        key,
        body: { reference: 'x', coveredUntil: '2026-10-15' },
      });
      assert.equal(adjust.data.error.code, 'eu_threshold_state_missing', 'no ledger in that scope');
    }
    // The other environment opens its own ledger of the same year.
    assert.equal(
      (await h.call('POST', '/v1/eu-threshold-ledgers', { key: aLive, body: { year: 2026 } })).statusCode,
      201,
    );
    const foreignCustomer = (
      await h.call('POST', '/v1/customers', {
        key: b.key,
        body: { name: 'B', address: { postalCode: '75002', country: 'FR' } },
      })
    ).data;
    const withForeign = await h.call('POST', '/v1/tax-decisions', {
      key: a.key,
      body: {
        taxSource: 'service',
        date: '2026-10-15',
        currency: 'EUR',
        customerId: foreignCustomer.id,
        lines: [line()],
      },
    });
    assert.equal(withForeign.statusCode, 404);
    assert.equal(withForeign.data.error.param, 'customerId');
  });
});
