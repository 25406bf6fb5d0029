import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { startViesServer } from '../support/vies-server.js';
import { recheckUnverifiedVat } from '../../src/customers/vat-recheck.js';
import { purgeViesChecks } from '../../src/vies/service.js';

const german = (vatNumber: string) => ({
  type: 'company',
  name: 'Beispiel GmbH',
  vatNumber,
  address: { line1: 'Hauptstraße 1', postalCode: '10115', city: 'Berlin', country: 'DE' },
});

test('live customers: intra-EU VAT numbers checked with VIES', async (t) => {
  const vies = await startViesServer();
  const h = await startHarness({ config: { viesUrl: vies.url, viesTimeoutMs: 400 } });
  t.after(async () => {
    await h.close();
    await vies.close();
  });
  const live = async () => {
    const { companyId } = await h.tenant();
    return { companyId, key: await h.key(companyId, { env: 'live' }) };
  };

  await t.test('a number VIES does not know: 422 vat_validation_failed on vatNumber, nothing created', async () => {
    const { key } = await live();
    vies.behaviour.set('DE100142542', 'invalid');
    const response = await h.call('POST', '/v1/customers', { key, body: german('de 100 142 542') });
    assert.equal(response.statusCode, 422, response.body);
    assert.equal(response.data.error.code, 'vat_validation_failed');
    assert.equal(response.data.error.type, 'invalid_request_error');
    assert.equal(response.data.error.param, 'vatNumber');
    assert.equal((await h.call('GET', '/v1/customers', { key })).data.data.length, 0);
  });

  await t.test(
    'a valid number: accepted, the consultation number kept; VIES asked with the company as requester',
    async () => {
      const { key } = await live();
      const before = vies.requests.length;
      const response = await h.call('POST', '/v1/customers', { key, body: german('DE100261327') });
      assert.equal(response.statusCode, 201, response.body);
      const check = response.data.vatValidation;
      assert.equal(check.status, 'valid');
      assert.match(check.requestIdentifier, /^WAPIAAAAZ\d{6}$/);
      assert.equal(check.requestDate, '2026-12-02T07:00:00.000Z');
      assert.equal(check.checkedAt, h.clock.now().toISOString());
      const seen = vies.requests.slice(before);
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.countryCode, 'DE');
      assert.equal(seen[0]!.vatNumber, '100261327');
      assert.equal(seen[0]!.requesterMemberStateCode, 'FR');
      assert.match(seen[0]!.requesterNumber!, /^\d{11}$/);
      const read = await h.call('GET', `/v1/customers/${response.data.id}`, { key });
      assert.deepEqual(read.data.vatValidation, check);
    },
  );

  await t.test(
    'VIES down (MS_UNAVAILABLE, 503, time-out, malformed): accepted as unverified, never as valid',
    async () => {
      const { key } = await live();
      const cases = [
        ['DE100372193', 'MS_UNAVAILABLE'],
        ['DE100435545', 'http503'],
        ['DE100483059', 'timeout'],
        ['DE100641439', 'malformed'],
        ['DE100657277', 'GLOBAL_MAX_CONCURRENT_REQ'],
      ] as const;
      for (const [number, behaviour] of cases) {
        vies.behaviour.set(number, behaviour);
        const started = Date.now();
        const response = await h.call('POST', '/v1/customers', { key, body: german(number) });
        assert.equal(response.statusCode, 201, `${behaviour}: ${response.body}`);
        assert.deepEqual(
          response.data.vatValidation,
          { status: 'unverified', checkedAt: h.clock.now().toISOString(), requestIdentifier: null, requestDate: null },
          behaviour,
        );
        assert.ok(Date.now() - started < 3000, `${behaviour} answered within the time-out`);
      }
    },
  );

  await t.test('answers are kept: within 24 h no new request; a failure is asked again after 5 minutes', async () => {
    const { key } = await live();
    vies.behaviour.set('DE100704791', 'valid');
    vies.behaviour.set('DE100752305', 'invalid');
    vies.behaviour.set('DE100847333', 'MS_UNAVAILABLE');
    for (let i = 0; i < 2; i++) {
      assert.equal((await h.call('POST', '/v1/customers', { key, body: german('DE100704791') })).statusCode, 201);
      assert.equal((await h.call('POST', '/v1/customers', { key, body: german('DE100752305') })).statusCode, 422);
      assert.equal((await h.call('POST', '/v1/customers', { key, body: german('DE100847333') })).statusCode, 201);
    }
    assert.equal(vies.countFor('DE100704791'), 1, 'a valid answer is reused');
    assert.equal(vies.countFor('DE100752305'), 1, 'a refusal is reused (kept though the creation was refused)');
    assert.equal(vies.countFor('DE100847333'), 1, 'a failure is reused for a few minutes');
    h.clock.advance(5 * 60_000 + 1);
    vies.behaviour.set('DE100847333', 'valid');
    const later = await h.call('POST', '/v1/customers', { key, body: german('DE100847333') });
    assert.equal(later.data.vatValidation.status, 'valid');
    assert.equal(vies.countFor('DE100847333'), 2);
    assert.equal((await h.call('POST', '/v1/customers', { key, body: german('DE100704791') })).statusCode, 201);
    assert.equal(vies.countFor('DE100704791'), 1, 'still fresh after 5 minutes');
    h.clock.advance(24 * 3600_000);
    assert.equal((await h.call('POST', '/v1/customers', { key, body: german('DE100704791') })).statusCode, 201);
    assert.equal(vies.countFor('DE100704791'), 2, 'asked again after 24 h');
  });

  await t.test('only intra-EU numbers outside France are asked: French, British, Swiss numbers are not', async () => {
    const { key } = await live();
    const before = vies.requests.length;
    for (const vatNumber of ['FR44732829320', 'GB980780684', 'CHE-116.281.710 MWST']) {
      const response = await h.call('POST', '/v1/customers', { key, body: { name: 'Ailleurs', vatNumber } });
      assert.equal(response.statusCode, 201, `${vatNumber}: ${response.body}`);
      assert.equal(response.data.vatValidation, null);
    }
    assert.equal(vies.requests.length, before);
  });

  await t.test('an update to a new number asks VIES; refused, the customer is unchanged', async () => {
    const { key } = await live();
    vies.behaviour.set('DE100894847', 'invalid');
    const created = (
      await h.call('POST', '/v1/customers', { key, body: { name: 'Client', vatNumber: 'FR44732829320' } })
    ).data;
    const refused = await h.call('POST', `/v1/customers/${created.id}`, { key, body: { vatNumber: 'DE100894847' } });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.data.error.code, 'vat_validation_failed');
    assert.equal(refused.data.error.param, 'vatNumber');
    assert.equal((await h.call('GET', `/v1/customers/${created.id}`, { key })).data.vatNumber, 'FR44732829320');
    const accepted = await h.call('POST', `/v1/customers/${created.id}`, { key, body: { vatNumber: 'ATU13585627' } });
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.equal(accepted.data.vatValidation.status, 'valid');
    const asked = vies.countFor('ATU13585627');
    const renamed = await h.call('POST', `/v1/customers/${created.id}`, { key, body: { name: 'Client renommé' } });
    assert.deepEqual(renamed.data.vatValidation, accepted.data.vatValidation, 'an unchanged number keeps its check');
    assert.equal(vies.countFor('ATU13585627'), asked);
    const cleared = await h.call('POST', `/v1/customers/${created.id}`, { key, body: { vatNumber: null } });
    assert.equal(cleared.data.vatValidation, null);
  });

  await t.test('the re-check pass settles unverified numbers once VIES answers', async () => {
    const { companyId, key } = await live();
    vies.behaviour.set('DE101084903', 'MS_UNAVAILABLE');
    vies.behaviour.set('BE0477472701', 'MS_UNAVAILABLE');
    const good = (await h.call('POST', '/v1/customers', { key, body: german('DE101084903') })).data;
    const bad = (await h.call('POST', '/v1/customers', { key, body: german('BE0477472701') })).data;
    assert.equal(good.vatValidation.status, 'unverified');
    assert.equal(
      await recheckUnverifiedVat(h.deps, [companyId]),
      0,
      'still down: nothing settled (the failure is kept 5 min)',
    );
    h.clock.advance(5 * 60_000 + 1);
    assert.equal(await recheckUnverifiedVat(h.deps, [companyId]), 0, 'still down: nothing settled');
    h.clock.advance(5 * 60_000 + 1);
    vies.behaviour.set('DE101084903', 'valid');
    vies.behaviour.set('BE0477472701', 'invalid');
    assert.equal(await recheckUnverifiedVat(h.deps, [companyId]), 2);
    const settled = (await h.call('GET', `/v1/customers/${good.id}`, { key })).data.vatValidation;
    assert.equal(settled.status, 'valid');
    assert.match(settled.requestIdentifier, /^WAPIAAAAZ/);
    assert.equal((await h.call('GET', `/v1/customers/${bad.id}`, { key })).data.vatValidation.status, 'invalid');
    const events = (await h.call('GET', '/v1/events?type=customer.updated', { key })).data.data;
    assert.equal(events.length, 2);
    assert.equal(await recheckUnverifiedVat(h.deps, [companyId]), 0, 'settled checks are not asked again');
  });

  await t.test('a CSV import does not call VIES line by line: live lines wait for the re-check pass', async () => {
    const { companyId, key } = await live();
    vies.behaviour.set('NL004495445B01', 'valid');
    const response = await h.call('POST', '/v1/customers/import', {
      key,
      headers: { 'content-type': 'text/csv' },
      body: 'name,vatNumber\nImport BV,NL004495445B01\n',
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(vies.countFor('NL004495445B01'), 0);
    const [customer] = (await h.call('GET', '/v1/customers', { key })).data.data;
    assert.equal(customer.vatValidation.status, 'unverified');
    assert.equal(customer.vatValidation.checkedAt, null);
    assert.equal(await recheckUnverifiedVat(h.deps, [companyId]), 1);
    assert.equal((await h.call('GET', `/v1/customers/${customer.id}`, { key })).data.vatValidation.status, 'valid');
  });

  await t.test('test mode never calls VIES; its test number DE123456788 answers vat_validation_failed', async () => {
    const { key } = await h.tenant();
    const before = vies.requests.length;
    vies.fallback = 'invalid';
    const accepted = await h.call('POST', '/v1/customers', { key, body: german('DE100142542') });
    assert.equal(accepted.statusCode, 201, accepted.body);
    assert.equal(accepted.data.vatValidation, null);
    const refused = await h.call('POST', '/v1/customers', { key, body: german('DE123456788') });
    assert.equal(refused.statusCode, 422);
    assert.equal(refused.data.error.code, 'vat_validation_failed');
    assert.equal(vies.requests.length, before);
    vies.fallback = 'valid';
  });

  await t.test('the account says how VIES answered last: unknown, failing, operational', async () => {
    const { key } = await live();
    const viesState = async () => (await h.call('GET', '/v1/account/services', { key })).data.vies;
    assert.deepEqual([(await viesState()).provider, (await viesState()).status], ['vies', 'unknown']);
    vies.behaviour.set('DE129273398', 'MS_UNAVAILABLE');
    await h.call('POST', '/v1/customers', { key, body: german('DE129273398') });
    const down = await viesState();
    assert.equal(down.status, 'failing');
    assert.match(down.lastFailure, /MS_UNAVAILABLE/);
    h.clock.advance(1000);
    await h.call('POST', '/v1/customers', { key, body: german('DE100261327') });
    const up = await viesState();
    assert.deepEqual(
      [up.status, up.lastFailure, up.lastExchangeAt],
      ['operational', null, h.clock.now().toISOString()],
    );
  });

  await t.test('consultations are forgotten after 7 days; the proof stays on the customer', async () => {
    const { companyId, key } = await live();
    const first = await h.call('POST', '/v1/customers', { key, body: german('DE100261327') });
    assert.equal(first.statusCode, 201, first.body);
    h.clock.advance(6 * 86_400_000);
    const second = await h.call('POST', '/v1/customers', { key, body: german('DE136695976') });
    assert.equal(second.statusCode, 201, second.body);
    const kept = async () =>
      Number(
        (await h.deps.pool.query('select count(*) from vies_checks where company_id = $1', [companyId])).rows[0].count,
      );
    assert.equal(await kept(), 2);
    h.clock.advance(2 * 86_400_000);
    assert.equal(await purgeViesChecks(h.deps, [companyId]), 1);
    assert.equal(await kept(), 1);
    const read = await h.call('GET', `/v1/customers/${first.data.id}`, { key });
    assert.deepEqual(read.data.vatValidation, first.data.vatValidation);
  });
});
