import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Response } from '../support/harness.js';

function assertCommonHeaders(response: Response, version = '2026-09-01'): void {
  assert.match(String(response.headers['x-request-id']), /^req_[0-9a-z]{26}$/);
  assert.equal(response.headers['service-version'], version);
  assert.ok(response.headers['x-ratelimit-limit'] !== undefined);
  assert.ok(response.headers['x-ratelimit-remaining'] !== undefined);
  const reset = Number(response.headers['x-ratelimit-reset']);
  assert.ok(Number.isInteger(reset) && reset % 60 === 0, `reset ${reset} is the start of a UTC minute`);
}

test('headers on every /v1 response, and versioning', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { key } = await h.tenant();
  const live = await h.tenant({ env: 'live' });

  await t.test('a success carries the request id, the version and the rate-limit headers', async () => {
    const response = await h.call('GET', '/v1/account', { key });
    assert.equal(response.statusCode, 200);
    assertCommonHeaders(response);
  });

  await t.test('X-RateLimit-Reset is the start of the next UTC minute, always', async () => {
    h.clock.set('2026-11-22T10:15:42.300Z');
    const response = await h.call('GET', '/v1/account', { key });
    assert.equal(response.headers['x-ratelimit-reset'], String(Date.parse('2026-11-22T10:16:00Z') / 1000));
    h.clock.set(new Date());
  });

  await t.test(
    'not_applied where the counter was not evaluated: test-mode read, refusal before it, public route, unknown route',
    async () => {
      for (const response of [
        await h.call('GET', '/v1/account', { key }),
        await h.call('GET', '/v1/account'),
        await h.call('GET', '/v1/openapi.json'),
        await h.call('GET', '/v1/nothing-here', { key }),
        await h.call('GET', '/v1/account', { key, headers: { 'service-version': '1999-01-01' } }),
      ]) {
        assertCommonHeaders(response);
        assert.equal(response.headers['x-ratelimit-limit'], 'not_applied');
        assert.equal(response.headers['x-ratelimit-remaining'], 'not_applied');
      }
    },
  );

  await t.test('a live read is counted: integers', async () => {
    const response = await h.call('GET', '/v1/account', { key: live.key });
    assert.equal(response.headers['x-ratelimit-limit'], '1000');
    assert.match(String(response.headers['x-ratelimit-remaining']), /^\d+$/);
  });

  await t.test('each response has its own request id, also in the error body', async () => {
    const a = await h.call('GET', '/v1/account');
    const b = await h.call('GET', '/v1/account');
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
    assert.equal(a.data.error.request_id, a.headers['x-request-id']);
  });

  await t.test('a client cannot choose the request id', async () => {
    const response = await h.call('GET', '/v1/account', { key, headers: { 'x-request-id': 'req_mine' } });
    assert.notEqual(response.headers['x-request-id'], 'req_mine');
  });

  await t.test('Service-Version or API-Version pins the served version', async () => {
    for (const header of ['service-version', 'api-version']) {
      const response = await h.call('GET', '/v1/account', { key, headers: { [header]: '2026-09-01' } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['service-version'], '2026-09-01');
    }
  });

  await t.test('an unknown version is 400 listing the served versions, never a fallback', async () => {
    const cases: Record<string, string>[] = [
      { 'service-version': '2025-01-01' },
      { 'api-version': 'latest' },
      { 'service-version': '2026-09-01', 'api-version': '2026-10-01' },
    ];
    for (const headers of cases) {
      const response = await h.call('GET', '/v1/account', { key, headers });
      assert.equal(response.statusCode, 400, JSON.stringify(headers));
      assert.equal(response.data.error.type, 'invalid_request_error');
      assert.equal(response.data.error.code, 'invalid_field_value');
      assert.equal(response.data.error.param, 'Service-Version');
      assert.match(response.data.error.message, /Served versions: 2026-09-01/);
    }
  });

  await t.test('the version is checked before the key: no key needed to learn it is wrong', async () => {
    const response = await h.call('GET', '/v1/account', { headers: { 'service-version': '2030-01-01' } });
    assert.equal(response.statusCode, 400);
  });

  await t.test('health checks are outside /v1 and need no key', async () => {
    const response = await h.call('GET', '/healthz');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.data, { status: 'ok' });
  });
});
