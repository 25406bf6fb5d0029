import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';

test('GET /v1/openapi.json is generated from the route schemas', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const response = await h.call('GET', '/v1/openapi.json');
  assert.equal(response.statusCode, 200, 'public: no key needed');
  const document = response.data;
  assert.equal(document.openapi, '3.1.0');
  assert.equal(document.info.version, '2026-09-01');
  for (const path of ['/v1/account', '/v1/events', '/v1/events/{id}', '/v1/sandbox/reset'])
    assert.ok(document.paths[path], path);
  const listEvents = document.paths['/v1/events'].get;
  assert.equal(listEvents['x-required-scope'], 'webhooks:read');
  assert.deepEqual(listEvents.security, [{ apiKey: [] }]);
  assert.ok(listEvents.parameters.some((p: { name: string }) => p.name === 'starting_after'));
  assert.equal(document.paths['/v1/sandbox/reset'].post['x-required-scope'], 'full_access');
  assert.match(document.info.description, /credit_notes:read/);
  assert.ok(document.components.schemas.ErrorEnvelope.properties.error.properties.request_id);
  assert.ok(document.components.schemas.Event.properties.apiVersion);
  assert.equal(
    listEvents.responses['4XX'].content['application/json'].schema.$ref,
    '#/components/schemas/ErrorEnvelope',
  );
  assert.ok(!document.paths['/healthz'] && !document.paths['/v1/openapi.json'], 'internal routes are hidden');
});
