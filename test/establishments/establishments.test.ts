import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, startHarness, type Harness } from '../support/harness.js';
import { inTransaction } from '../../src/db/transaction.js';
import { purgeTestEstablishments } from '../../src/establishments/service.js';
import { siretOf } from '../tax/support.js';

/** A company with no establishment yet (the harness gives each a head office; these tests start bare). */
async function bareCompany(h: Harness, scopes?: string[]) {
  const companyId = await h.company();
  const key = await h.key(companyId);
  const siren: string = (await h.call('GET', '/v1/account', { key })).data.siren;
  const live = await h.key(companyId, { env: 'live' });
  return { companyId, key, live, siren, scoped: scopes ? await h.key(companyId, { scopes }) : null };
}

const address = { line1: '5 avenue Foch', postalCode: '69006', city: 'Lyon', country: 'FR' };

test('establishments: the SIRETs and addresses of the company, per environment', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());

  await t.test(
    'POST creates (SIRET of the SIREN, full address, electronic address defaults to the SIREN); GET reads and lists',
    async () => {
      const { key, siren } = await bareCompany(h);
      const siret = siretOf(siren, '0002');
      const created = await h.call('POST', '/v1/establishments', { key, body: { siret, name: 'Lyon', address } });
      assert.equal(created.statusCode, 201, created.body);
      assert.match(created.data.id, /^est_/);
      assert.equal(created.data.object, 'establishment');
      assert.equal(created.data.livemode, false);
      assert.equal(created.data.siret, siret);
      assert.deepEqual(created.data.address, { ...address, line2: null });
      assert.equal(created.data.electronicAddress, siren);
      // The harness's head office is the default; a new one is not unless asked.
      assert.equal(created.data.isDefault, false);
      const read = await h.call('GET', `/v1/establishments/${created.data.id}`, { key });
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.data, created.data);
      const list = await h.call('GET', '/v1/establishments?limit=1', { key });
      assert.equal(list.statusCode, 200);
      assert.equal(list.data.object, 'list');
      assert.deepEqual(
        list.data.data.map((row: { id: string }) => row.id),
        [created.data.id],
      );
      assert.equal(list.data.has_more, true);
      const next = await h.call('GET', `/v1/establishments?starting_after=${created.data.id}`, { key });
      assert.equal(next.data.data.length, 1);
      assert.equal(next.data.data[0].isDefault, true);
      assert.equal(next.data.data[0].siret, siretOf(siren));
    },
  );

  await t.test(
    'the first establishment of an environment is the default; another made default unsets the old one',
    async () => {
      const { key, siren } = await bareCompany(h);
      const all = async () => (await h.call('GET', '/v1/establishments', { key })).data.data as any[];
      const [headOffice] = await all();
      assert.equal(headOffice.isDefault, true);
      const second = await h.call('POST', '/v1/establishments', {
        key,
        body: { siret: siretOf(siren, '0002'), address, isDefault: true },
      });
      assert.equal(second.data.isDefault, true);
      const defaults = (await all()).filter((row) => row.isDefault);
      assert.deepEqual(
        defaults.map((row) => row.id),
        [second.data.id],
      );
      const back = await h.call('POST', `/v1/establishments/${headOffice.id}`, { key, body: { isDefault: true } });
      assert.equal(back.statusCode, 200);
      assert.equal(back.data.isDefault, true);
      assert.deepEqual(
        (await all()).filter((row) => row.isDefault).map((row) => row.id),
        [headOffice.id],
      );
      // The default cannot be unset: another one takes the mark.
      const unset = await h.call('POST', `/v1/establishments/${headOffice.id}`, { key, body: { isDefault: false } });
      assert.equal(unset.statusCode, 400);
      assert.equal(unset.data.error.code, 'invalid_field_value');
      assert.equal(unset.data.error.param, 'isDefault');
    },
  );

  await t.test('a scope without establishment: its first one is the default even when not asked', async () => {
    const { companyId, key, siren } = await bareCompany(h);
    await inTransaction(h.deps.db, contextFor(companyId, false, h.clock.now()), (tx) =>
      purgeTestEstablishments(tx, { companyId, livemode: false }),
    );
    assert.equal((await h.call('GET', '/v1/establishments', { key })).data.data.length, 0);
    const first = await h.call('POST', '/v1/establishments', { key, body: { siret: siretOf(siren, '0002'), address } });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.data.isDefault, true);
  });

  await t.test(
    'the sandbox reset purges the test establishments and leaves the fixture head office; live is untouched',
    async () => {
      const { key, siren, live } = await bareCompany(h);
      await h.call('POST', '/v1/establishments', {
        key,
        body: { siret: siretOf(siren, '0002'), address, isDefault: true },
      });
      const reset = await h.call('POST', '/v1/sandbox/reset', { key });
      assert.equal(reset.statusCode, 200, reset.body);
      const fixtures = (await h.call('GET', '/v1/establishments', { key })).data.data;
      assert.equal(fixtures.length, 1);
      assert.equal(fixtures[0].isDefault, true);
      assert.equal(fixtures[0].siret, siretOf(siren));
      const again = await h.call('POST', '/v1/sandbox/reset', { key });
      assert.equal(again.statusCode, 200);
      assert.equal((await h.call('GET', '/v1/establishments', { key })).data.data[0].id, fixtures[0].id, 'a fixed id');
      const liveList = (await h.call('GET', '/v1/establishments', { key: live })).data.data;
      assert.equal(liveList.length, 1);
      assert.equal(liveList[0].livemode, true);
    },
  );

  await t.test('POST /:id updates name, address and electronic address; the SIRET never changes', async () => {
    const { key, siren } = await bareCompany(h);
    const [headOffice] = (await h.call('GET', '/v1/establishments', { key })).data.data;
    const updated = await h.call('POST', `/v1/establishments/${headOffice.id}`, {
      key,
      body: {
        name: 'Siège social',
        address: { ...address, line2: 'Bâtiment A' },
        electronicAddress: `${siren}_FACTURES`,
      },
    });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.data.name, 'Siège social');
    assert.equal(updated.data.address.line2, 'Bâtiment A');
    assert.equal(updated.data.electronicAddress, `${siren}_FACTURES`);
    const siret = await h.call('POST', `/v1/establishments/${headOffice.id}`, {
      key,
      body: { siret: siretOf(siren, '0003') },
    });
    assert.equal(siret.statusCode, 400);
  });

  await t.test('refusals: a SIRET with a bad key or of another SIREN, a duplicate, an incomplete address', async () => {
    const { key, siren } = await bareCompany(h);
    const good = siretOf(siren, '0002');
    const badKey = `${good.slice(0, 13)}${(Number(good[13]) + 1) % 10}`;
    const otherSiren = siren === '732829320' ? '552100554' : '732829320';
    const cases: [Record<string, unknown>, string, string][] = [
      [{ siret: badKey, address }, 'invalid_field_value', 'siret'],
      [{ siret: siretOf(otherSiren, '0002'), address }, 'invalid_field_value', 'siret'],
      [{ siret: siretOf(siren), address }, 'conflict', 'siret'],
      [{ siret: good, address: { ...address, postalCode: '7500' } }, 'invalid_field_value', 'address.postalCode'],
      [{ siret: good, address: { ...address, country: 'XX' } }, 'invalid_field_value', 'address.country'],
      [{ siret: good, address: { ...address, city: ' ' } }, 'invalid_field_value', 'address.city'],
      [{ siret: good, address: { ...address, line1: '' } }, 'invalid_field_value', 'address.line1'],
      [{ siret: good, address, electronicAddress: 'a b' }, 'invalid_field_value', 'electronicAddress'],
    ];
    for (const [body, code, param] of cases) {
      const response = await h.call('POST', '/v1/establishments', { key, body });
      assert.equal(response.data.error?.code, code, JSON.stringify(body));
      assert.equal(response.data.error.param, param, JSON.stringify(body));
    }
    const missing = await h.call('POST', '/v1/establishments', { key, body: { siret: good } });
    assert.equal(missing.statusCode, 400);
    const duplicate = await h.call('POST', '/v1/establishments', { key, body: { siret: siretOf(siren), address } });
    assert.equal(duplicate.statusCode, 409);
  });

  await t.test(
    'another company or the other environment: not_found; scopes invoices:read / invoices:write',
    async () => {
      const mine = await bareCompany(h, ['invoices:read']);
      const other = await bareCompany(h);
      const [headOffice] = (await h.call('GET', '/v1/establishments', { key: mine.key })).data.data;
      for (const key of [other.key, mine.live]) {
        const read = await h.call('GET', `/v1/establishments/${headOffice.id}`, { key });
        assert.equal(read.statusCode, 404);
        assert.equal(read.data.error.code, 'not_found');
        const update = await h.call('POST', `/v1/establishments/${headOffice.id}`, { key, body: { name: 'x' } });
        assert.equal(update.statusCode, 404);
      }
      // The same SIRET may be declared in the other environment (each has its own establishments).
      const liveList = (await h.call('GET', '/v1/establishments', { key: mine.live })).data.data;
      assert.equal(liveList[0].livemode, true);
      assert.notEqual(liveList[0].id, headOffice.id);
      assert.equal((await h.call('GET', '/v1/establishments', { key: mine.scoped! })).statusCode, 200);
      const write = await h.call('POST', '/v1/establishments', {
        key: mine.scoped!,
        body: { siret: siretOf(mine.siren, '0002'), address },
      });
      assert.equal(write.statusCode, 403);
      assert.equal(write.data.error.code, 'scope_insufficient');
      const customersOnly = await h.key(mine.companyId, { scopes: ['customers:write'] });
      assert.equal((await h.call('GET', '/v1/establishments', { key: customersOnly })).statusCode, 403);
    },
  );

  await t.test("a tax profile's SIRET is one of the company's establishments in that environment", async () => {
    const { key, siren } = await bareCompany(h);
    const profile = (siret: string) => ({
      validFrom: '2024-01-01',
      establishment: { siret, postalCode: '75002', country: 'FR' },
      regime: 'normal',
    });
    const refused = await h.call('POST', '/v1/tax-profiles', { key, body: profile(siretOf(siren, '0002')) });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.data.error.code, 'invalid_field_value');
    assert.equal(refused.data.error.param, 'establishment.siret');
    await h.call('POST', '/v1/establishments', { key, body: { siret: siretOf(siren, '0002'), address } });
    const accepted = await h.call('POST', '/v1/tax-profiles', { key, body: profile(siretOf(siren, '0002')) });
    assert.equal(accepted.statusCode, 201, accepted.body);
  });
});
