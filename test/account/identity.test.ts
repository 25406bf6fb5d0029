import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { createCompany, updateLegalIdentity } from '../../src/companies/service.js';
import { seedHeadOffices } from '../../src/establishments/service.js';
import { demoIdentity } from '../../src/cli/demo-account.js';

test('the company legal identity: GET /v1/account shows it, POST /v1/account changes it', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());

  await t.test('a partial update: keys left out keep their value, null clears; both environments see it', async () => {
    const companyId = await h.company({ name: 'Atelier Test' });
    const key = await h.key(companyId);
    const live = await h.key(companyId, { env: 'live' });
    const before = (await h.call('GET', '/v1/account', { key })).data.company;
    assert.equal(before.legalName, 'Atelier Test', 'the name given at creation is the legal name');
    const siren: string = before.siren;
    const changed = await h.call('POST', '/v1/account', {
      key,
      body: {
        legalName: 'Atelier Test SAS',
        tradeName: 'Atelier',
        legalForm: 'SAS',
        shareCapital: '1500.50',
        registration: { kind: 'RM', place: 'Lyon' },
        iban: 'fr76 3000 6000 0112 3456 7890 189',
        bic: 'agrifrpp',
        contact: { name: 'Marie', email: 'marie@atelier.example', phone: '+33 1 23 45 67 89' },
      },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.data.object, 'account');
    const company = changed.data.company;
    assert.equal(company.legalName, 'Atelier Test SAS');
    assert.equal(company.siren, siren);
    assert.equal(company.shareCapital, '1500.50');
    assert.deepEqual(company.registration, { kind: 'RM', place: 'Lyon' });
    assert.equal(company.iban, 'FR7630006000011234567890189');
    assert.equal(company.bic, 'AGRIFRPP');
    assert.equal(company.vatNumber, before.vatNumber, 'left out: kept');
    const cleared = await h.call('POST', '/v1/account', { key, body: { tradeName: null, contact: null } });
    assert.equal(cleared.data.company.tradeName, null);
    assert.equal(cleared.data.company.contact, null);
    assert.equal(cleared.data.company.legalForm, 'SAS');
    const seenLive = (await h.call('GET', '/v1/account', { key: live })).data;
    assert.equal(seenLive.livemode, true);
    assert.deepEqual(seenLive.company, cleared.data.company);
  });

  await t.test(
    'each field is checked: VAT number of the SIREN, IBAN key, BIC, registration, capital, e-mail',
    async () => {
      const companyId = await h.company();
      const key = await h.key(companyId);
      const cases: [Record<string, unknown>, string][] = [
        [{ vatNumber: 'FR00732829320' }, 'vatNumber'],
        [{ vatNumber: 'DE136695976' }, 'vatNumber'],
        [{ iban: 'FR7630006000011234567890188' }, 'iban'],
        [{ bic: 'AGRI' }, 'bic'],
        [{ registration: { kind: 'RCX', place: 'Paris' } }, 'registration.kind'],
        [{ registration: { kind: 'RCS', place: ' ' } }, 'registration.place'],
        [{ shareCapital: '10 000' }, 'shareCapital'],
        [{ shareCapital: '100.123' }, 'shareCapital'],
        [{ contact: { email: 'nobody' } }, 'contact.email'],
        [{ legalName: null }, 'legalName'],
        [{ legalName: '  ' }, 'legalName'],
      ];
      for (const [body, param] of cases) {
        const response = await h.call('POST', '/v1/account', { key, body });
        assert.equal(response.statusCode, 400, JSON.stringify(body));
        assert.equal(response.data.error.code, 'invalid_field_value', JSON.stringify(body));
        assert.equal(response.data.error.param, param, JSON.stringify(body));
      }
      // Someone else's VAT number (another SIREN's valid number) is refused too.
      const siren: string = (await h.call('GET', '/v1/account', { key })).data.siren;
      const other = siren === '732829320' ? 'FR27552120222' : 'FR44732829320';
      const foreign = await h.call('POST', '/v1/account', { key, body: { vatNumber: other } });
      assert.equal(foreign.data.error?.param, 'vatNumber');
      const unknown = await h.call('POST', '/v1/account', { key, body: { siren: '552100554' } });
      assert.equal(unknown.statusCode, 400, 'the SIREN is not part of the identity a key changes');
    },
  );

  await t.test('a scoped key reads the account but only a key without scopes changes the identity', async () => {
    const companyId = await h.company();
    const scoped = await h.key(companyId, { scopes: ['invoices:write'] });
    assert.equal((await h.call('GET', '/v1/account', { key: scoped })).statusCode, 200);
    const refused = await h.call('POST', '/v1/account', { key: scoped, body: { tradeName: 'X' } });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.data.error.code, 'scope_insufficient');
    const live = await h.key(companyId, { env: 'live' });
    assert.equal((await h.call('POST', '/v1/account', { key: live, body: { tradeName: 'X' } })).statusCode, 200);
  });

  await t.test("the demo company's identity and head offices (first start) pass their own checks", async () => {
    const company = await createCompany(h.deps, { name: 'Démo SARL', siren: '123456782', plan: 'free' });
    const identity = await updateLegalIdentity(h.deps, company.id, demoIdentity);
    assert.equal(identity.vatNumber, 'FR11123456782');
    await seedHeadOffices(h.deps, company.id, company.siren);
    for (const env of ['test', 'live'] as const) {
      const key = await h.key(company.id, { env });
      const [office] = (await h.call('GET', '/v1/establishments', { key })).data.data;
      assert.equal(office.siret, '12345678200010', 'the SIRET of the README quick start');
      assert.equal(office.isDefault, true);
    }
  });
});
