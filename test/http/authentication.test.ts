import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness, type Response } from '../support/harness.js';
import { probeRoutes } from '../support/probe-routes.js';
import { revokeApiKey } from '../../src/api-keys/service.js';
import { hashSecret } from '../../src/api-keys/key-secret.js';

function assertAuthError(response: Response, code: string): void {
  assert.equal(response.statusCode, 401, response.body);
  assert.equal(response.data.error.type, 'authentication_error');
  assert.equal(response.data.error.code, code);
  assert.match(response.data.error.request_id, /^req_/);
  assert.equal(response.headers['www-authenticate'], 'Bearer realm="facteur"');
}

async function keyIdOf(h: Harness, secret: string): Promise<string> {
  const { rows } = await h.deps.pool.query('select id from api_keys where secret_hash = $1', [hashSecret(secret)]);
  return rows[0].id;
}

test('authentication', async (t) => {
  const h = await startHarness({ extraV1Routes: probeRoutes });
  t.after(() => h.close());

  await t.test('no Authorization header: 401 missing_api_key', async () => {
    assertAuthError(await h.call('GET', '/v1/account'), 'missing_api_key');
  });

  await t.test('a malformed header (other scheme, no token) is missing_api_key', async () => {
    const { key } = await h.tenant();
    assertAuthError(
      await h.call('GET', '/v1/account', { headers: { authorization: `Basic ${key}` } }),
      'missing_api_key',
    );
    assertAuthError(await h.call('GET', '/v1/account', { headers: { authorization: 'Bearer' } }), 'missing_api_key');
    assertAuthError(
      await h.call('GET', '/v1/account', { headers: { authorization: `Bearer ${key} extra` } }),
      'missing_api_key',
    );
  });

  await t.test('the scheme is case-insensitive', async () => {
    const { key } = await h.tenant();
    const response = await h.call('GET', '/v1/account', { headers: { authorization: `bearer ${key}` } });
    assert.equal(response.statusCode, 200);
  });

  await t.test('a key of the wrong format or unknown: 401 invalid_api_key', async () => {
    assertAuthError(await h.call('GET', '/v1/account', { key: 'sk_test_abc' }), 'invalid_api_key');
    assertAuthError(await h.call('GET', '/v1/account', { key: 'svc_test_short' }), 'invalid_api_key');
    assertAuthError(await h.call('GET', '/v1/account', { key: `svc_test_${'A'.repeat(32)}` }), 'invalid_api_key');
  });

  await t.test('a key is stored as its SHA-256 only', async () => {
    const { key } = await h.tenant();
    const { rows } = await h.deps.pool.query('select * from api_keys where secret_hash = $1', [hashSecret(key)]);
    assert.equal(rows.length, 1);
    assert.doesNotMatch(JSON.stringify(rows[0]), new RegExp(key));
    assert.match(rows[0].secret_hash, /^[0-9a-f]{64}$/);
  });

  await t.test('revocation is immediate: the next request is 401 api_key_revoked', async () => {
    const { key } = await h.tenant();
    assert.equal((await h.call('GET', '/v1/account', { key })).statusCode, 200);
    await revokeApiKey(h.deps, await keyIdOf(h, key));
    assertAuthError(await h.call('GET', '/v1/account', { key }), 'api_key_revoked');
  });

  await t.test('a key past expiresAt is 401 api_key_expired', async () => {
    const companyId = await h.company();
    const expiresAt = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
    const key = await h.key(companyId, { expiresAt });
    assert.equal((await h.call('GET', '/v1/account', { key })).statusCode, 200);
    h.clock.advance(3_600_000);
    const response = await h.call('GET', '/v1/account', { key });
    assertAuthError(response, 'api_key_expired');
    h.clock.advance(-3_600_000);
  });

  await t.test('the key prefix fixes livemode', async () => {
    const companyId = await h.company();
    const test = await h.call('GET', '/v1/account', { key: await h.key(companyId, { env: 'test' }) });
    const live = await h.call('GET', '/v1/account', { key: await h.key(companyId, { env: 'live' }) });
    assert.equal(test.data.livemode, false);
    assert.equal(live.data.livemode, true);
    assert.equal(test.data.id, live.data.id, 'the company is shared between environments');
  });

  await t.test('a key without scopes has full access', async () => {
    const { key } = await h.tenant();
    assert.equal((await h.call('GET', '/v1/probe/items', { key })).statusCode, 200);
    assert.equal(
      (await h.call('POST', '/v1/probe/items', { key, body: { name: 'x', kind: 'goods' } })).statusCode,
      201,
    );
    assert.equal((await h.call('POST', '/v1/sandbox/reset', { key })).statusCode, 200);
  });

  await t.test('a request outside the key scopes is 403 permission_error scope_insufficient', async () => {
    const companyId = await h.company();
    const readOnly = await h.key(companyId, { scopes: ['invoices:read'] });
    const other = await h.key(companyId, { scopes: ['customers:write'] });
    assert.equal((await h.call('GET', '/v1/probe/items', { key: readOnly })).statusCode, 200);
    for (const [key, method, url] of [
      [readOnly, 'POST', '/v1/probe/items'],
      [other, 'GET', '/v1/probe/items'],
      [readOnly, 'POST', '/v1/sandbox/reset'],
      [other, 'GET', '/v1/events'],
    ] as const) {
      const response = await h.call(method, url, {
        key,
        ...(method === 'POST' ? { body: { name: 'x', kind: 'goods' } } : {}),
      });
      assert.equal(response.statusCode, 403, `${method} ${url}`);
      assert.equal(response.data.error.type, 'permission_error');
      assert.equal(response.data.error.code, 'scope_insufficient');
    }
  });

  await t.test('a write scope includes the read of the same resource', async () => {
    const companyId = await h.company();
    const writer = await h.key(companyId, { scopes: ['invoices:write'] });
    assert.equal((await h.call('GET', '/v1/probe/items', { key: writer })).statusCode, 200);
    assert.equal(
      (await h.call('POST', '/v1/probe/items', { key: writer, body: { name: 'x', kind: 'goods' } })).statusCode,
      201,
    );
  });

  await t.test('any valid key, scoped or not, reads its account', async () => {
    const companyId = await h.company();
    const key = await h.key(companyId, { scopes: ['products:read'] });
    const response = await h.call('GET', '/v1/account', { key });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.data.apiKey.scopes, ['products:read']);
  });

  await t.test('a key in the query string is not accepted', async () => {
    const { key } = await h.tenant();
    assertAuthError(await h.call('GET', `/v1/account?api_key=${key}`), 'missing_api_key');
  });
});
