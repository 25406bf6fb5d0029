import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness.js';
import { startCheckedSimulator } from '../platform/support.js';
import { siretOf } from '../tax/support.js';
import { startSireneServer, type SireneBehaviour } from './sirene-server.js';
import { recheckUnverifiedIdentities } from '../../src/customers/directory-recheck.js';
import { readSireneAnswer } from '../../src/directory/sirene-client.js';
import { purgeDirectoryChecks } from '../../src/directory/service.js';

const buyerSiren = '552100554';
let nextEstablishment = 100;
/** A fresh SIRET of the buyer's SIREN: each case its own, so no answer kept for another case is reused. */
const freshSiret = () => siretOf(buyerSiren, String(nextEstablishment++).padStart(4, '0'));

const buyer = (siret: string) => ({
  type: 'company',
  name: 'Boulangerie Dupont',
  siret,
  address: { line1: '5 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' },
});

/** The first customer of the key's scope, once an import has written it (imports run as jobs). */
async function waitForCustomer(h: Harness, key: string): Promise<{ id: string; directoryVerification: string }> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const [first] = (await h.call('GET', '/v1/customers', { key })).data.data;
    if (first) return first;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the import wrote no customer');
}

async function liveKey(h: Harness): Promise<string> {
  const { companyId } = await h.tenant();
  return h.key(companyId, { env: 'live' });
}

test('Sirene answers read as the published description says', () => {
  assert.deepEqual(readSireneAnswer(404, '{}', '55210055400013'), { outcome: 'not_found' });
  assert.equal(readSireneAnswer(403, '{}', '55210055400013').outcome, 'found');
  for (const status of [401, 429, 500, 503]) assert.equal(readSireneAnswer(status, '{}', 'x').outcome, 'unavailable');
  assert.equal(readSireneAnswer(200, 'not json', 'x').outcome, 'unavailable');
  // An answer about another SIRET than the one asked is no answer.
  assert.equal(
    readSireneAnswer(200, JSON.stringify({ etablissement: { siret: '55210055400021' } }), '55210055400013').outcome,
    'unavailable',
  );
});

test('live customers: SIRETs checked against the Sirene API', async (t) => {
  const sirene = await startSireneServer();
  const h = await startHarness({
    clockStart: '2026-10-15T10:00:00Z',
    config: { sireneApiKey: sirene.apiKey, sireneUrl: sirene.url, sireneTimeoutMs: 500 },
  });
  t.after(async () => {
    await h.close();
    await sirene.close();
  });
  const create = async (key: string, behaviour: SireneBehaviour) => {
    const siret = freshSiret();
    sirene.behaviour.set(siret, behaviour);
    return { siret, response: await h.call('POST', '/v1/customers', { key, body: buyer(siret) }) };
  };

  await t.test('an active establishment: verified, the key sent in X-INSEE-Api-Key-Integration', async () => {
    const key = await liveKey(h);
    const { siret, response } = await create(key, 'active');
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.data.directoryVerification, 'verified');
    assert.deepEqual(response.data.registryNonDisclosure, []);
    assert.deepEqual(sirene.requests.at(-1), { siret, apiKey: sirene.apiKey });
    const read = await h.call('GET', `/v1/customers/${response.data.id}`, { key });
    assert.equal(read.data.directoryVerification, 'verified');
  });

  await t.test('unknown (404) or closed (F): 422 siret_not_found on siret, nothing created', async () => {
    const key = await liveKey(h);
    for (const behaviour of ['unknown', 'closed'] as const) {
      const { response } = await create(key, behaviour);
      assert.equal(response.statusCode, 422, `${behaviour}: ${response.body}`);
      assert.equal(response.data.error.code, 'siret_not_found');
      assert.equal(response.data.error.type, 'invalid_request_error');
      assert.equal(response.data.error.param, 'siret');
    }
    assert.equal((await h.call('GET', '/v1/customers', { key })).data.data.length, 0);
  });

  await t.test('diffusion partielle (P) and non-diffusible (403): the markers the registry sets', async () => {
    const key = await liveKey(h);
    const cases = [
      ['name_hidden', ['name']],
      ['address_hidden', ['address']],
      ['non_diffusible', ['name', 'address']],
    ] as const;
    for (const [behaviour, markers] of cases) {
      const { response } = await create(key, behaviour);
      assert.equal(response.statusCode, 201, `${behaviour}: ${response.body}`);
      assert.deepEqual(response.data.registryNonDisclosure, markers, behaviour);
      assert.equal(response.data.directoryVerification, 'verified');
    }
  });

  await t.test(
    'no answer (429, 500, malformed, slow, refused key): accepted as unverified, never refused',
    async () => {
      const key = await liveKey(h);
      for (const behaviour of ['http429', 'http500', 'malformed', 'slow'] as const) {
        const { response } = await create(key, behaviour);
        assert.equal(response.statusCode, 201, `${behaviour}: ${response.body}`);
        assert.equal(response.data.directoryVerification, 'unverified', behaviour);
        assert.deepEqual(response.data.registryNonDisclosure, []);
      }
      const original = sirene.apiKey;
      sirene.apiKey = 'rotated';
      try {
        const { response } = await create(key, 'active');
        assert.equal(response.statusCode, 201, response.body);
        assert.equal(response.data.directoryVerification, 'unverified');
      } finally {
        sirene.apiKey = original;
      }
    },
  );

  await t.test('answers kept: a found / not found for 24 h, a failure for 5 minutes', async () => {
    const key = await liveKey(h);
    const { siret, response } = await create(key, 'active');
    assert.equal(response.statusCode, 201, response.body);
    const again = await h.call('POST', '/v1/customers', { key, body: buyer(siret) });
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.data.directoryVerification, 'verified');
    assert.equal(sirene.countFor(siret), 1, 'the kept answer was reused');
    h.clock.advance(24 * 3600_000 + 1000);
    await h.call('POST', '/v1/customers', { key, body: buyer(siret) });
    assert.equal(sirene.countFor(siret), 2, 'asked again after 24 hours');

    const down = await create(key, 'http500');
    await h.call('POST', '/v1/customers', { key, body: buyer(down.siret) });
    assert.equal(sirene.countFor(down.siret), 1, 'a failure is kept a few minutes');
    h.clock.advance(5 * 60_000 + 1000);
    await h.call('POST', '/v1/customers', { key, body: buyer(down.siret) });
    assert.equal(sirene.countFor(down.siret), 2, 'then Sirene is asked again');
  });

  await t.test('the re-check pass settles unverified SIRETs once Sirene answers', async () => {
    const { companyId } = await h.tenant();
    const key = await h.key(companyId, { env: 'live' });
    const back = await create(key, 'http429');
    const gone = await create(key, 'http500');
    assert.equal(back.response.data.directoryVerification, 'unverified');
    assert.equal(await recheckUnverifiedIdentities(h.deps, [companyId]), 0, 'still no answer (the kept failure)');
    sirene.behaviour.set(back.siret, 'name_hidden');
    sirene.behaviour.set(gone.siret, 'closed');
    h.clock.advance(5 * 60_000 + 1000);
    assert.equal(await recheckUnverifiedIdentities(h.deps, [companyId]), 2);
    const settled = (await h.call('GET', `/v1/customers/${back.response.data.id}`, { key })).data;
    assert.equal(settled.directoryVerification, 'verified');
    assert.deepEqual(settled.registryNonDisclosure, ['name']);
    const closed = (await h.call('GET', `/v1/customers/${gone.response.data.id}`, { key })).data;
    assert.equal(closed.directoryVerification, 'not_found');
    assert.equal(await recheckUnverifiedIdentities(h.deps, [companyId]), 0, 'nothing left to settle');
  });

  await t.test('an update to a new SIRET is looked up; an unknown one is refused', async () => {
    const key = await liveKey(h);
    const { response } = await create(key, 'active');
    const unknown = freshSiret();
    sirene.behaviour.set(unknown, 'unknown');
    const refused = await h.call('POST', `/v1/customers/${response.data.id}`, { key, body: { siret: unknown } });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.data.error.code, 'siret_not_found');
    const hidden = freshSiret();
    sirene.behaviour.set(hidden, 'address_hidden');
    const moved = await h.call('POST', `/v1/customers/${response.data.id}`, { key, body: { siret: hidden } });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(moved.data.registryNonDisclosure, ['address']);
    assert.equal(moved.data.directoryVerification, 'verified');
  });

  await t.test('a customer with a SIREN only: its legal unit looked up (/siren)', async () => {
    const key = await liveKey(h);
    const cases = [
      ['732829320', 'active', 201, []],
      ['552100554', 'name_hidden', 201, ['name']],
      ['443061841', 'closed', 422, null],
      ['542065479', 'unknown', 422, null],
      ['356000000', 'http429', 201, []],
    ] as const;
    for (const [siren, behaviour, status, markers] of cases) {
      sirene.behaviour.set(siren, behaviour);
      const response = await h.call('POST', '/v1/customers', {
        key,
        body: { ...buyer(freshSiret()), siret: undefined, siren },
      });
      assert.equal(response.statusCode, status, `${behaviour}: ${response.body}`);
      assert.equal(sirene.requests.at(-1)!.siret, siren);
      if (status === 422) {
        assert.equal(response.data.error.code, 'siret_not_found');
        assert.equal(response.data.error.param, 'siren');
      } else {
        assert.deepEqual(response.data.registryNonDisclosure, markers, behaviour);
        assert.equal(response.data.directoryVerification, behaviour === 'http429' ? 'unverified' : 'verified');
      }
    }
  });

  await t.test('a CSV import in live asks no directory; the re-check pass does', async () => {
    const { companyId } = await h.tenant();
    const key = await h.key(companyId, { env: 'live' });
    const siret = freshSiret();
    sirene.behaviour.set(siret, 'address_hidden');
    const before = sirene.countFor(siret);
    const csv = `type,name,siret,line1,postalCode,city,country\ncompany,Dupont,${siret},5 rue de la Paix,75002,Paris,FR\n`;
    const imported = await h.call('POST', '/v1/customers/import', {
      key,
      body: csv,
      headers: { 'content-type': 'text/csv' },
    });
    assert.ok([200, 201, 202].includes(imported.statusCode), imported.body);
    const listed = await waitForCustomer(h, key);
    assert.equal(listed.directoryVerification, 'unverified');
    assert.equal(sirene.countFor(siret), before);
    assert.equal(await recheckUnverifiedIdentities(h.deps, [companyId]), 1);
    const settled = (await h.call('GET', `/v1/customers/${listed.id}`, { key })).data;
    assert.equal(settled.directoryVerification, 'verified');
    assert.deepEqual(settled.registryNonDisclosure, ['address']);
  });

  await t.test('test mode: the simulated directory, Sirene never asked', async () => {
    const { key } = await h.tenant();
    const before = sirene.requests.length;
    const unknown = await h.call('POST', '/v1/customers', { key, body: buyer('73282932099902') });
    assert.equal(unknown.statusCode, 422, unknown.body);
    assert.equal(unknown.data.error.code, 'siret_not_found');
    const known = await h.call('POST', '/v1/customers', { key, body: buyer(freshSiret()) });
    assert.equal(known.statusCode, 201, known.body);
    assert.equal(known.data.directoryVerification, null);
    assert.equal(sirene.requests.length, before);
  });

  await t.test('the account says how the directory answered last: unknown, failing, operational', async () => {
    const key = await liveKey(h);
    const directoryState = async () => (await h.call('GET', '/v1/account/services', { key })).data.directory;
    const first = await directoryState();
    assert.deepEqual([first.configured, first.provider, first.status], [true, 'sirene', 'unknown']);
    await create(key, 'http500');
    const down = await directoryState();
    assert.equal(down.status, 'failing');
    assert.match(down.lastFailure, /500/);
    h.clock.advance(1000);
    await create(key, 'active');
    const up = await directoryState();
    assert.deepEqual(
      [up.status, up.lastFailure, up.lastExchangeAt],
      ['operational', null, h.clock.now().toISOString()],
    );
  });

  await t.test('look-ups are forgotten after 7 days; what was found stays on the customer', async () => {
    const { companyId } = await h.tenant();
    const key = await h.key(companyId, { env: 'live' });
    const first = await create(key, 'active');
    assert.equal(first.response.statusCode, 201, first.response.body);
    h.clock.advance(6 * 86_400_000);
    const second = await create(key, 'active');
    assert.equal(second.response.statusCode, 201, second.response.body);
    const kept = async () =>
      Number(
        (await h.deps.pool.query('select count(*) from directory_checks where company_id = $1', [companyId])).rows[0]
          .count,
      );
    assert.equal(await kept(), 2);
    h.clock.advance(2 * 86_400_000);
    assert.equal(await purgeDirectoryChecks(h.deps, [companyId]), 1);
    assert.equal(await kept(), 1);
    const read = await h.call('GET', `/v1/customers/${first.response.data.id}`, { key });
    assert.equal(read.data.directoryVerification, 'verified');
  });
});

test('live customers: without a Sirene key, the connected platform Directory Service', async (t) => {
  const sim = await startCheckedSimulator();
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(async () => {
    await h.close();
    await sim.stop();
  });
  const client = sim.simulator.clients[0]!;
  const platform = { baseUrl: sim.url, clientId: client.clientId, clientSecret: client.clientSecret };

  await t.test('no directory at all (no key, no platform connected): accepted as unverified', async () => {
    const key = await liveKey(h);
    const response = await h.call('POST', '/v1/customers', { key, body: buyer(freshSiret()) });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.data.directoryVerification, 'unverified');
    const services = await h.call('GET', '/v1/account/services', { key });
    assert.deepEqual([services.data.directory.configured, services.data.directory.status], [false, 'not_configured']);
  });

  await t.test(
    'a connected platform: its facility look-up decides (known, closed; unlisted stays unverified)',
    async () => {
      const companyId = await h.company({ plan: 'pro' });
      const test = await h.key(companyId);
      const key = await h.key(companyId, { env: 'live' });
      const siren: string = (await h.call('GET', '/v1/account', { key: test })).data.siren;
      const head = (await h.call('GET', '/v1/establishments', { key })).data.data[0];
      const active = freshSiret();
      const closed = freshSiret();
      sim.simulator.seedDirectory([
        { siren, siret: head.siret },
        { siren: buyerSiren, siret: active },
        { siren: buyerSiren, siret: closed, facilityStatus: 'C' },
      ]);
      const connected = await h.call('POST', `/v1/establishments/${head.id}`, { key, body: { platform } });
      assert.equal(connected.statusCode, 200, connected.body);

      const known = await h.call('POST', '/v1/customers', { key, body: buyer(active) });
      assert.equal(known.statusCode, 201, known.body);
      assert.equal(known.data.directoryVerification, 'verified');
      const refused = await h.call('POST', '/v1/customers', { key, body: buyer(closed) });
      assert.equal(refused.statusCode, 422, refused.body);
      assert.equal(refused.data.error.code, 'siret_not_found');
      // The platform lists addresses, not the register: a SIRET it does not list is only unverified.
      h.clock.advance(1000);
      const unlisted = await h.call('POST', '/v1/customers', { key, body: buyer(freshSiret()) });
      assert.equal(unlisted.statusCode, 201, unlisted.body);
      assert.equal(unlisted.data.directoryVerification, 'unverified');
      // The account names the platform as the directory; a SIRET it does not list is an answer, not a failure.
      const directory = (await h.call('GET', '/v1/account/services', { key })).data.directory;
      assert.deepEqual(
        [directory.provider, directory.status, directory.lastFailure],
        ['platform', 'operational', null],
      );
      assert.equal(directory.lastExchangeAt, h.clock.now().toISOString());
    },
  );
});
