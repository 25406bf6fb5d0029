import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Response } from '../support/harness.js';
import { probeRoutes } from '../support/probe-routes.js';

function assertRefused(response: Response, status: number, code: string, param?: string): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.data.error.code, code);
  assert.equal(response.data.error.type, status === 422 ? 'validation_error' : 'invalid_request_error');
  if (param === undefined)
    assert.ok(!('param' in response.data.error), `no param expected, got ${response.data.error.param}`);
  else assert.equal(response.data.error.param, param);
}

test('request bodies and query strings', async (t) => {
  const h = await startHarness({ extraV1Routes: probeRoutes, config: { bodyLimitBytes: 4096 } });
  t.after(() => h.close());
  const { key } = await h.tenant();
  const valid = { name: 'ok', kind: 'goods' };
  const post = (body: unknown, headers?: Record<string, string>) =>
    h.call('POST', '/v1/probe/items', { key, body, ...(headers ? { headers } : {}) });

  await t.test('a valid JSON body is accepted, with a charset or not', async () => {
    assert.equal((await post(valid)).statusCode, 201);
    assert.equal((await post(valid, { 'content-type': 'application/json; charset=utf-8' })).statusCode, 201);
  });

  await t.test('another Content-Type is 400 invalid_content_type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'text/csv', 'application/jsonp']) {
      assertRefused(await post(JSON.stringify(valid), { 'content-type': type }), 400, 'invalid_content_type');
    }
  });

  await t.test('a body without Content-Type is 400 invalid_content_type', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/probe/items',
      headers: { authorization: `Bearer ${key}` },
      payload: Buffer.from(JSON.stringify(valid)),
      remoteAddress: h.ip,
    });
    assert.equal(response.statusCode, 400);
    assert.equal(JSON.parse(response.body).error.code, 'invalid_content_type');
  });

  await t.test('an action without a body needs no Content-Type; an empty JSON body is no body', async () => {
    assert.equal((await h.call('POST', '/v1/sandbox/reset', { key })).statusCode, 200);
    assert.equal(
      (await h.call('POST', '/v1/sandbox/reset', { key, body: '', headers: { 'content-type': 'application/json' } }))
        .statusCode,
      200,
    );
  });

  await t.test('malformed JSON is 400 invalid_field_value', async () => {
    for (const text of ['{"name": "x",', '{name: 1}', 'nul'])
      assertRefused(await post(text), 400, 'invalid_field_value');
  });

  await t.test('a body that is not a JSON object is refused', async () => {
    for (const text of ['[1,2]', '"text"', '42', 'null']) assertRefused(await post(text), 400, 'invalid_field_value');
  });

  await t.test('prototype keys are refused', async () => {
    assertRefused(await post('{"name":"x","kind":"goods","__proto__":{"admin":true}}'), 400, 'invalid_field_value');
  });

  await t.test('an unknown field is 400 invalid_field_value naming it, at any depth', async () => {
    assertRefused(await post({ ...valid, livemode: true }), 400, 'invalid_field_value', 'livemode');
    assertRefused(
      await post({ ...valid, address: { postalCode: '75002', country: 'FR', city: 'Paris' } }),
      400,
      'invalid_field_value',
      'address.city',
    );
  });

  await t.test('a missing field is 400 missing_required_field naming it', async () => {
    assertRefused(await post({ kind: 'goods' }), 400, 'missing_required_field', 'name');
    assertRefused(
      await post({ ...valid, address: { country: 'FR' } }),
      400,
      'missing_required_field',
      'address.postalCode',
    );
  });

  await t.test('a wrong type is 400 invalid_field_value, never coerced', async () => {
    assertRefused(await post({ ...valid, count: '5' }), 400, 'invalid_field_value', 'count');
    assertRefused(await post({ name: 5, kind: 'goods' }), 400, 'invalid_field_value', 'name');
    assertRefused(await post({ ...valid, lines: [{ quantity: 1 }] }), 400, 'invalid_field_value', 'lines[0].quantity');
    assertRefused(await post({ ...valid, metadata: { a: 1 } }), 400, 'invalid_field_value', 'metadata.a');
  });

  await t.test('a value out of range is 400 invalid_field_value', async () => {
    assertRefused(await post({ ...valid, count: 11 }), 400, 'invalid_field_value', 'count');
  });

  await t.test('a value outside the enum, a bad format or a length exceeded is 422 validation_error', async () => {
    assertRefused(await post({ ...valid, kind: 'other' }), 422, 'validation_error', 'kind');
    assertRefused(await post({ ...valid, email: 'not-an-email' }), 422, 'validation_error', 'email');
    assertRefused(await post({ ...valid, name: 'x'.repeat(21) }), 422, 'validation_error', 'name');
    assertRefused(
      await post({ ...valid, address: { postalCode: '7500', country: 'FR' } }),
      422,
      'validation_error',
      'address.postalCode',
    );
  });

  await t.test('an oversized body is 400 payload_too_large', async () => {
    assertRefused(await post({ ...valid, metadata: { big: 'x'.repeat(5000) } }), 400, 'payload_too_large');
  });

  await t.test('query strings: unknown parameters and bad values are refused with their name', async () => {
    assertRefused(await h.call('GET', '/v1/events?foo=1', { key }), 400, 'invalid_field_value', 'foo');
    assertRefused(await h.call('GET', '/v1/events?limit=abc', { key }), 400, 'invalid_field_value', 'limit');
    assertRefused(
      await h.call('POST', '/v1/probe/items?explode=sideways', { key, body: valid }),
      422,
      'validation_error',
      'explode',
    );
  });

  await t.test('nothing is written by a refused request', async () => {
    const tenant = await h.tenant();
    await h.call('POST', '/v1/probe/items', { key: tenant.key, body: { ...valid, kind: 'other' } });
    await h.call('POST', '/v1/probe/items', { key: tenant.key, body: '{"name":' });
    const events = await h.call('GET', '/v1/events', { key: tenant.key });
    assert.equal(events.data.data.length, 0);
  });
});
