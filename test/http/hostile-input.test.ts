import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness, type Response } from '../support/harness.js';
import { chair, frenchBuyer } from '../invoices/support.js';
import { advanceSandboxClock } from '../../src/companies/service.js';

/**
 * The input rules every route shares (src/http/input-rules.ts, json-body.ts, validation.ts):
 * text without NUL, other C0 controls or lone surrogates; finite numbers; JSON at most 32 levels
 * deep; dates and instants in the years 1900 to 9999. Each refusal names its `param`; a path id
 * answers 404 as any unknown id; nothing is stored.
 */

function assertRefused(response: Response, status: number, code: string, param?: string): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.data.error.code, code, response.body);
  assert.equal(response.data.error.request_id, response.headers['x-request-id']);
  if (param !== undefined) assert.equal(response.data.error.param, param, response.body);
}

async function customerCount(h: Harness, key: string): Promise<number> {
  return (await h.call('GET', '/v1/customers?limit=100', { key })).data.data.length;
}

test('hostile input at the edge', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  t.after(() => h.close());
  const { key } = await h.tenant();
  const created = await h.call('POST', '/v1/customers', { key, body: { name: 'Atelier' } });
  assert.equal(created.statusCode, 201);
  const customerId: string = created.data.id;
  const before = await customerCount(h, key);

  await t.test('NUL, control characters and lone surrogates in body text are 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'a\u0000b' }, 'name'],
      [{ name: 'bell\u0007' }, 'name'],
      [{ name: '\ud800' }, 'name'],
      [{ name: 'reversed \udfff\ud800' }, 'name'],
      [{ name: 'x', address: { line1: 'a\u0000', country: 'FR' } }, 'address.line1'],
      [{ name: 'x', metadata: { note: 'a\u0000' } }, 'metadata.note'],
      [{ name: 'x', metadata: { nested: { list: ['ok', '\udc00'] } } }, 'metadata.nested.list[1]'],
      [{ name: 'x', metadata: { 'key\u0000': 'v' } }, 'metadata'],
      [{ name: 'x', metadata: { 'tab\tkey': 'v' } }, 'metadata'],
    ];
    for (const [body, param] of cases) {
      const response = await h.call('POST', '/v1/customers', { key, body });
      assertRefused(response, 400, 'invalid_field_value', param);
    }
    // The same text sent as raw JSON escapes (what JSON.stringify writes) is refused the same way.
    const raw = await h.call('POST', '/v1/customers', { key, body: '{"name":"\\u0000"}' });
    assertRefused(raw, 400, 'invalid_field_value', 'name');
    assert.equal(await customerCount(h, key), before, 'nothing was stored');
  });

  await t.test('tab and line breaks in body text, and any valid Unicode, are accepted', async () => {
    const response = await h.call('POST', '/v1/customers', {
      key,
      body: { name: 'Atelier 🙂 Lumière\tSAS', metadata: { note: 'line one\nline two\r\n', 漢字: 'ok' } },
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.data.name, 'Atelier 🙂 Lumière\tSAS');
    assert.equal(response.data.metadata.note, 'line one\nline two\r\n');
  });

  await t.test('a body that is not UTF-8 is refused, never repaired', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/customers',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      remoteAddress: h.ip,
    });
    assert.equal(response.statusCode, 400);
    assert.equal(JSON.parse(response.body).error.code, 'invalid_field_value');
    assert.match(JSON.parse(response.body).error.message, /UTF-8/);
  });

  await t.test('a path id with NUL or a control character answers 404 not_found, as any unknown id', async () => {
    for (const [method, url] of [
      ['GET', '/v1/customers/%00'],
      ['GET', `/v1/customers/${customerId}%00`],
      ['POST', '/v1/customers/cus_%01x'],
      ['DELETE', '/v1/products/x%0Ay'],
      ['GET', '/v1/invoices/%00/history'],
      ['POST', '/v1/quotes/%00/accept'],
    ] as const) {
      const response = await h.call(method, url, { key, ...(method === 'POST' ? { body: { name: 'x' } } : {}) });
      assertRefused(response, 404, 'not_found', 'id');
    }
    for (const url of ['/pay/%00', '/quote/tok%00en']) {
      const response = await h.call('GET', url);
      assertRefused(response, 404, 'not_found', 'token');
    }
  });

  await t.test('query values with NUL or control characters are 400 naming the parameter', async () => {
    for (const [url, param] of [
      ['/v1/customers?starting_after=%00', 'starting_after'],
      ['/v1/customers?email=a%00b', 'email'],
      ['/v1/events?type=invoice.paid%0A', 'type'],
      ['/v1/invoices?customerId=cus_%09x', 'customerId'],
    ] as const) {
      assertRefused(await h.call('GET', url, { key }), 400, 'invalid_field_value', param);
    }
  });

  await t.test('numbers are finite', async () => {
    assertRefused(await h.call('GET', '/v1/customers?limit=1e400', { key }), 400, 'invalid_field_value', 'limit');
    assertRefused(
      await h.call('GET', `/v1/customers?limit=${'9'.repeat(400)}`, { key }),
      400,
      'invalid_field_value',
      'limit',
    );
    assertRefused(
      await h.call('POST', '/v1/payments', { key, body: '{"invoiceId":"inv_x","amount":1e400}' }),
      400,
      'invalid_field_value',
      'amount',
    );
    assertRefused(
      await h.call('POST', '/v1/customers', { key, body: '{"name":"x","metadata":{"big":-1e400}}' }),
      400,
      'invalid_field_value',
      'metadata.big',
    );
  });

  await t.test('JSON nests at most 32 levels, whatever the depth sent', async () => {
    const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    // The body is level 1: `metadata` and what it holds take the 31 levels left.
    const deepest = await h.call('POST', '/v1/customers', { key, body: `{"name":"deep","metadata":${nested(31)}}` });
    assert.equal(deepest.statusCode, 201, deepest.body);
    for (const levels of [32, 1000, 100_000]) {
      const response = await h.call('POST', '/v1/customers', {
        key,
        body: `{"name":"x","metadata":${nested(levels)}}`,
      });
      assertRefused(response, 400, 'invalid_field_value');
      assert.match(response.data.error.param, /^metadata(\.a)+$/);
      assert.match(response.data.error.message, /nests deeper than 32 levels/);
    }
    const arrays = await h.call('POST', '/v1/customers', {
      key,
      body: `{"name":"x","metadata":{"list":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
    });
    assertRefused(arrays, 400, 'invalid_field_value');
    // An action route that takes no body and an idempotent replay's fingerprint never see it either.
    const action = await h.call('POST', `/v1/customers/${customerId}`, {
      key,
      body: `{"metadata":${nested(100_000)}}`,
      headers: { 'idempotency-key': 'deep-1' },
    });
    assertRefused(action, 400, 'invalid_field_value');
  });

  await t.test('a CSV file with a NUL or control character is refused whole, naming the line', async () => {
    const response = await h.call('POST', '/v1/customers/import', {
      key,
      body: 'name\nAtelier\nA\u0000B\n',
      headers: { 'content-type': 'text/csv' },
    });
    assertRefused(response, 400, 'invalid_field_value');
    assert.match(response.data.error.message, /line 3/);
  });

  await t.test('dates outside the years 1900 to 9999, or that do not exist, are 400 invalid_field_value', async () => {
    const cases: [string, string, unknown, string][] = [
      ['GET', '/v1/invoices?date_from=0000-01-01', undefined, 'date_from'],
      ['GET', '/v1/invoices?date_to=10000-01-01', undefined, 'date_to'],
      ['GET', '/v1/credit-notes?date_from=1899-12-31', undefined, 'date_from'],
      ['GET', '/v1/customers?date_from=0000-01-01T00:00:00Z', undefined, 'date_from'],
      ['GET', '/v1/customers?date_to=2026-02-30', undefined, 'date_to'],
      ['GET', '/v1/tax-profiles?date=0000-01-01', undefined, 'date'],
      ['POST', '/v1/payments', { invoiceId: 'inv_x', amount: 100, paidAt: '0000-01-01' }, 'paidAt'],
      ['POST', '/v1/credit-notes/cn_x/refunds', { amount: 100, refundedAt: '0000-12-31T23:00:00-05:00' }, 'refundedAt'],
      ['POST', '/v1/invoices', { lines: [chair], issueDate: '0000-01-01' }, 'issueDate'],
      ['POST', '/v1/invoices', { lines: [chair], dueDate: '10000-12-31' }, 'dueDate'],
      ['POST', '/v1/invoices', { lines: [chair], deliveryDate: '2026-02-30' }, 'deliveryDate'],
      ['POST', '/v1/credit-notes', { issueDate: '1899-12-31' }, 'issueDate'],
      ['POST', '/v1/quotes', { lines: [chair], validUntil: '0000-01-01' }, 'validUntil'],
      [
        'POST',
        '/v1/tax-decisions',
        { taxSource: 'service', date: '0000-01-01', currency: 'EUR', lines: [chair] },
        'date',
      ],
      ['POST', '/v1/tax-profiles', { validFrom: '1899-12-31', establishment: { country: 'FR' } }, 'validFrom'],
      [
        'POST',
        '/v1/eu-threshold-ledgers',
        { year: 2026, opening: { coveredUntil: '0000-01-01' } },
        'opening.coveredUntil',
      ],
      [
        'POST',
        '/v1/eu-threshold-ledgers/2026/adjustments',
        { reference: 'r', coveredUntil: '0000-01-01' },
        'coveredUntil',
      ],
    ];
    for (const [method, url, body, param] of cases) {
      const response = await h.call(method as 'GET', url, { key, ...(body !== undefined ? { body } : {}) });
      assertRefused(response, 400, 'invalid_field_value', param);
      assert.match(response.data.error.message, /years 1900 to 9999|not a day of the calendar/, url);
    }
  });

  await t.test('a text that is not a date at all stays 422 validation_error', async () => {
    for (const [url, body, param] of [
      ['/v1/payments', { invoiceId: 'inv_x', amount: 100, paidAt: 'yesterday' }, 'paidAt'],
      ['/v1/invoices', { lines: [chair], issueDate: '15/10/2026' }, 'issueDate'],
      ['/v1/invoices', { lines: [chair], issueDate: '2026-10-15T10:00:00Z' }, 'issueDate'],
    ] as const) {
      assertRefused(await h.call('POST', url, { key, body }), 422, 'validation_error', param);
    }
    assertRefused(
      await h.call('GET', '/v1/customers?date_from=2026-09-01T10:00:00', { key }),
      422,
      'validation_error',
      'date_from',
    );
  });

  await t.test('dates and instants inside the range are accepted', async () => {
    const list = await h.call('GET', '/v1/customers?date_from=1900-01-01&date_to=9999-12-31T23:59:59%2B14:00', { key });
    assert.equal(list.statusCode, 200, list.body);
    const draft = await h.call('POST', '/v1/invoices', {
      key,
      body: { buyer: frenchBuyer, lines: [chair], deliveryDate: '1999-12-31', dueDate: '9999-12-31' },
    });
    assert.equal(draft.statusCode, 201, draft.body);
  });

  await t.test('the sandbox clock cannot be moved past the year 9999', async () => {
    const tenant = await h.tenant();
    // Close to the end of 9999 without thousands of calls: the service that the route calls.
    const to9999 = Date.UTC(9999, 6, 1) - h.clock.now().getTime();
    await advanceSandboxClock(h.deps, tenant.companyId, to9999);
    const refused = await h.call('POST', '/v1/sandbox/clock/advance', {
      key: tenant.key,
      body: { seconds: 31_536_000 },
    });
    assertRefused(refused, 400, 'invalid_field_value', 'seconds');
    const clock = await h.call('GET', '/v1/sandbox/clock', { key: tenant.key });
    assert.match(clock.data.now, /^9999-07-01/);
    const within = await h.call('POST', '/v1/sandbox/clock/advance', { key: tenant.key, body: { seconds: 86_400 } });
    assert.equal(within.statusCode, 200, within.body);
  });

  await t.test('every answer says nosniff', async () => {
    for (const [url, withKey] of [
      ['/v1/account', true],
      ['/v1/account', false],
      ['/v1/nothing', true],
      ['/pay/unknown', false],
      ['/docs/errors', false],
      ['/v1/openapi.json', false],
    ] as const) {
      const response = await h.call('GET', url, withKey ? { key } : {});
      assert.equal(response.headers['x-content-type-options'], 'nosniff', url);
      assert.match(String(response.headers['x-request-id']), /^req_/, url);
    }
  });

  await t.test('nothing refused was stored', async () => {
    const names = (await h.call('GET', '/v1/customers?limit=100', { key })).data.data.map((c: any) => c.name);
    assert.deepEqual(names.sort(), ['Atelier', 'Atelier 🙂 Lumière\tSAS', 'deep'].sort());
  });
});
