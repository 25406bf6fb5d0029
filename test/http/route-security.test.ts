import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomIp, startHarness } from '../support/harness.js';

/**
 * One security suite for every documented /v1 operation (Unkey's idea): routes added by later
 * capabilities are covered the day they appear in the OpenAPI document.
 */
test('every /v1 operation refuses a missing key, a wrong key and a key without its scope', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const document = (await h.call('GET', '/v1/openapi.json')).data;
  const companyId = await h.company();
  const unrelated = await h.key(companyId, { scopes: ['products:read'] });
  const operations = Object.entries(
    document.paths as Record<string, Record<string, { 'x-required-scope'?: string }>>,
  ).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      path,
      method: method.toUpperCase(),
      scope: operation['x-required-scope'],
    })),
  );
  assert.ok(operations.length >= 4);

  for (const { path, method, scope } of operations) {
    const url = path.replace(/\{[^}]+\}/g, 'evt_01m80kd1cn1220tzdk3rc8ms8q');
    await t.test(`${method} ${path}`, async () => {
      // Each operation from its own address: the wrong keys of the whole suite must not add up to a brute-force block.
      const ip = randomIp();
      const call = (key?: string) =>
        h.call(method as 'GET', url, { ip, ...(key ? { key } : {}), ...(method === 'POST' ? { body: {} } : {}) });
      const missing = await call();
      assert.equal(missing.statusCode, 401);
      assert.equal(missing.data.error.code, 'missing_api_key');
      const wrong = await call(`svc_live_${'0'.repeat(32)}`);
      assert.equal(wrong.statusCode, 401);
      assert.equal(wrong.data.error.code, 'invalid_api_key');
      if (scope && scope !== 'any valid key' && !scope.startsWith('products:')) {
        const forbidden = await call(unrelated);
        assert.equal(forbidden.statusCode, 403);
        assert.equal(forbidden.data.error.code, 'scope_insufficient');
      }
    });
  }
});
