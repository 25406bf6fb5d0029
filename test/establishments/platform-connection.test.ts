import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { startCheckedSimulator } from '../platform/support.js';
import { siretOf } from '../tax/support.js';
import { findEstablishment } from '../../src/establishments/store.js';
import { platformAccess } from '../../src/establishments/platform-access.js';
import { encryptionKeyOf, openSecret, sealSecret } from '../../src/kernel/sealed-secret.js';
import { randomBytes } from 'node:crypto';
import { sealContext, sealedColumns } from '../../src/db/sealed-columns.js';

const address = { line1: '5 avenue Foch', postalCode: '69006', city: 'Lyon', country: 'FR' };

test('sealed secrets: AES-256-GCM, opened with the same key only, altered forms refused', () => {
  const key = randomBytes(32);
  const context = 'establishments.platform_client_secret:co_1/est_1';
  const sealed = sealSecret(key, 's3cr3t-é', context);
  assert.match(sealed, /^v2\.[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.ok(!sealed.includes('s3cr3t'));
  assert.notEqual(sealSecret(key, 's3cr3t-é', context), sealed, 'a fresh IV each time');
  assert.equal(openSecret(key, sealed, context), 's3cr3t-é');
  assert.throws(() => openSecret(randomBytes(32), sealed, context), /cannot be opened/);
  const parts = sealed.split('.');
  parts[3] = Buffer.from('x' + Buffer.from(parts[3]!, 'base64url').toString('latin1'), 'latin1').toString('base64url');
  assert.throws(() => openSecret(key, parts.join('.'), context), /cannot be opened/);
});

test('establishments: the platform connection (tried, sealed, never shown), the switches, the quota', async (t) => {
  const sim = await startCheckedSimulator();
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(async () => {
    await h.close();
    await sim.stop();
  });
  const client = sim.simulator.clients[0]!;
  const platform = { baseUrl: sim.url, clientId: client.clientId, clientSecret: client.clientSecret };

  async function company(plan: 'free' | 'pro' = 'pro') {
    const companyId = await h.company({ plan });
    const key = await h.key(companyId);
    const live = await h.key(companyId, { env: 'live' });
    const siren: string = (await h.call('GET', '/v1/account', { key })).data.siren;
    const head = (await h.call('GET', '/v1/establishments', { key: live })).data.data[0];
    return { companyId, key, live, siren, head };
  }

  await t.test('connecting: tried against the platform, the secret sealed at rest and never returned', async () => {
    const { companyId, live, siren, head } = await company();
    sim.simulator.seedDirectory([{ siren, siret: head.siret }]);
    assert.equal(head.platform, null);
    assert.equal(head.depositEnabled, false);
    assert.equal(head.ereportingEnabled, false);
    const connected = await h.call('POST', `/v1/establishments/${head.id}`, {
      key: live,
      body: { platform, depositEnabled: true },
    });
    assert.equal(connected.statusCode, 200, connected.body);
    assert.deepEqual(connected.data.platform, {
      baseUrl: sim.url,
      clientId: client.clientId,
      tokenUrl: null,
      clientSecretSet: true,
      connectedAt: '2026-10-15T10:00:00.000Z',
    });
    assert.equal(connected.data.depositEnabled, true);
    assert.equal(connected.data.ereportingEnabled, false);
    assert.ok(!connected.body.includes(client.clientSecret), 'the secret never comes back');
    const read = await h.call('GET', `/v1/establishments/${head.id}`, { key: live });
    assert.ok(!read.body.includes(client.clientSecret));
    assert.deepEqual(read.data, connected.data);

    const scope = { companyId, livemode: true };
    const row = (await findEstablishment(h.deps.db, scope, head.id))!;
    assert.ok(row.platformClientSecret && !row.platformClientSecret.includes(client.clientSecret));
    const context = sealContext(sealedColumns.platformClientSecret, [companyId, head.id]);
    assert.equal(openSecret(encryptionKeyOf(h.deps.config), row.platformClientSecret, context), client.clientSecret);
    // The one answer every capability asks: this establishment talks to the simulator.
    const access = await platformAccess(h.deps, h.deps.db, scope, { siret: head.siret });
    assert.equal(access.state, 'connected');
    assert.ok(access.state === 'connected' && access.depositEnabled && !access.ereportingEnabled);
    const facility = access.state === 'connected' ? await access.connector.lookupFacility(head.siret) : null;
    assert.ok(facility?.ok && facility.value?.siret === head.siret, 'the stored connection works');
    assert.deepEqual(sim.violations(), []);

    // Disconnecting erases the secret; the establishment is `not_configured` again (live).
    const off = await h.call('POST', `/v1/establishments/${head.id}`, { key: live, body: { platform: null } });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.data.platform, null);
    assert.equal((await findEstablishment(h.deps.db, scope, head.id))!.platformClientSecret, null);
    assert.equal((await platformAccess(h.deps, h.deps.db, scope, { siret: head.siret })).state, 'not_configured');
    // A test establishment without a connection is the sandbox's.
    assert.equal(
      (await platformAccess(h.deps, h.deps.db, { companyId, livemode: false }, { siret: null })).state,
      'sandbox',
    );
  });

  await t.test('a SIRET the platform directory does not know: 422 siret_not_found, nothing stored', async () => {
    const { companyId, live, siren } = await company();
    // A SIRET no subtest seeds in the simulator's directory (the harness draws SIRENs from a few).
    const unknown = await h.call('POST', '/v1/establishments', {
      key: live,
      body: { siret: siretOf(siren, '0099'), address },
    });
    assert.equal(unknown.statusCode, 201, unknown.body);
    const answer = await h.call('POST', `/v1/establishments/${unknown.data.id}`, { key: live, body: { platform } });
    assert.equal(answer.statusCode, 422, answer.body);
    assert.equal(answer.data.error.code, 'siret_not_found');
    assert.equal(answer.data.error.param, 'siret');
    assert.match(answer.data.error.message, new RegExp(unknown.data.siret));
    const row = (await findEstablishment(h.deps.db, { companyId, livemode: true }, unknown.data.id))!;
    assert.equal(row.platformBaseUrl, null);
  });

  await t.test('credentials refused, an unreachable platform, a non-https address: clear refusals', async () => {
    const { live, siren, head } = await company();
    sim.simulator.seedDirectory([{ siren, siret: head.siret }]);
    const wrong = await h.call('POST', `/v1/establishments/${head.id}`, {
      key: live,
      body: { platform: { ...platform, clientSecret: 'not-the-secret' } },
    });
    assert.equal(wrong.statusCode, 400, wrong.body);
    assert.equal(wrong.data.error.code, 'invalid_field_value');
    assert.equal(wrong.data.error.param, 'platform.clientSecret');
    const down = await h.call('POST', `/v1/establishments/${head.id}`, {
      key: live,
      body: { platform: { ...platform, baseUrl: 'https://127.0.0.1:1' } },
    });
    assert.equal(down.statusCode, 503, down.body);
    assert.equal(down.data.error.code, 'pa_unavailable');
    const plain = await h.call('POST', `/v1/establishments/${head.id}`, {
      key: live,
      body: { platform: { ...platform, baseUrl: sim.url.replace('https:', 'http:') } },
    });
    assert.equal(plain.statusCode, 400, plain.body);
    assert.equal(plain.data.error.code, 'invalid_field_value');
    assert.equal(plain.data.error.param, 'platform.baseUrl');
    const missing = await h.call('POST', `/v1/establishments/${head.id}`, {
      key: live,
      body: { platform: { baseUrl: sim.url, clientId: 'x' } },
    });
    assert.equal(missing.statusCode, 400, missing.body);
  });

  await t.test('connected establishments count against the plan: the second on Free is quota_exceeded', async () => {
    const { live, siren, head } = await company('free');
    const other = await h.call('POST', '/v1/establishments', {
      key: live,
      body: { siret: siretOf(siren, '0002'), address },
    });
    assert.equal(other.statusCode, 201, other.body);
    sim.simulator.seedDirectory([
      { siren, siret: head.siret },
      { siren, siret: other.data.siret },
    ]);
    const first = await h.call('POST', `/v1/establishments/${head.id}`, { key: live, body: { platform } });
    assert.equal(first.statusCode, 200, first.body);
    // Reconnecting the same one is not a second.
    const again = await h.call('POST', `/v1/establishments/${head.id}`, { key: live, body: { platform } });
    assert.equal(again.statusCode, 200, again.body);
    const second = await h.call('POST', `/v1/establishments/${other.data.id}`, { key: live, body: { platform } });
    assert.equal(second.statusCode, 402, second.body);
    assert.equal(second.data.error.code, 'quota_exceeded');
    assert.equal(second.data.error.type, 'plan_limit_error');
    assert.equal((await h.call('GET', `/v1/establishments/${other.data.id}`, { key: live })).data.platform, null);
    const subscription = await h.call('GET', '/v1/subscription', { key: live });
    assert.equal(subscription.data.usage.establishments, 1);
    assert.equal(subscription.data.limits.connectedEstablishments, 1);
    // Created connected at once: the same quota.
    const third = await h.call('POST', '/v1/establishments', {
      key: live,
      body: { siret: siretOf(siren, '0003'), address, platform },
    });
    assert.equal(third.data.error?.code, 'quota_exceeded', third.body);
  });

  await t.test('the switches are set without a connection; a test establishment connects like a live one', async () => {
    const { key, siren } = await company();
    const created = await h.call('POST', '/v1/establishments', {
      key,
      body: { siret: siretOf(siren, '0004'), address, ereportingEnabled: true },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.data.ereportingEnabled, true);
    assert.equal(created.data.platform, null);
    sim.simulator.seedDirectory([{ siren, siret: created.data.siret }]);
    const connected = await h.call('POST', `/v1/establishments/${created.data.id}`, { key, body: { platform } });
    assert.equal(connected.statusCode, 200, connected.body);
    assert.equal(connected.data.livemode, false);
    assert.equal(connected.data.platform.clientSecretSet, true);
  });
});
