import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { paramPath, validationToApiError } from '../../src/kernel/schema-validation.js';
import { compileValidator } from '../../src/http/validation.js';

const error = (
  keyword: string,
  instancePath: string,
  params: Record<string, unknown>,
  extra: Partial<ErrorObject> = {},
): ErrorObject => ({ keyword, instancePath, schemaPath: '#', params, message: 'says ajv', ...extra }) as ErrorObject;

test('JSON pointers become the param paths of the contract', () => {
  assert.equal(paramPath('/customer/address/postalCode'), 'customer.address.postalCode');
  assert.equal(paramPath('/lines/3'), 'lines[3]');
  assert.equal(paramPath('/lines/3/vatRate'), 'lines[3].vatRate');
  assert.equal(paramPath('', 'name'), 'name');
  assert.equal(paramPath('/a~1b'), 'a/b');
});

test('each schema failure maps to the contract code', () => {
  const cases: [ErrorObject[], string, number, string | undefined][] = [
    [[error('required', '/customer', { missingProperty: 'name' })], 'missing_required_field', 400, 'customer.name'],
    [[error('additionalProperties', '', { additionalProperty: 'livemode' })], 'invalid_field_value', 400, 'livemode'],
    [[error('type', '/lines/0/quantity', { type: 'string' })], 'invalid_field_value', 400, 'lines[0].quantity'],
    [[error('maximum', '/limit', { limit: 100 })], 'invalid_field_value', 400, 'limit'],
    [[error('enum', '/kind', { allowedValues: ['a', 'b'] })], 'validation_error', 422, 'kind'],
    [[error('format', '/email', { format: 'email' })], 'validation_error', 422, 'email'],
    [[error('maxLength', '/name', { limit: 3 })], 'validation_error', 422, 'name'],
    [[error('pattern', '/siren', { pattern: 'x' })], 'validation_error', 422, 'siren'],
    [
      [
        error('type', '/note', { type: 'string' }),
        error('type', '/note', { type: 'null' }),
        error('anyOf', '/note', {}),
      ],
      'invalid_field_value',
      400,
      'note',
    ],
  ];
  for (const [errors, code, status, param] of cases) {
    const mapped = validationToApiError(errors, 'body');
    assert.equal(mapped.code, code, errors[0]!.keyword);
    assert.equal(mapped.status, status);
    assert.equal(mapped.param, param);
  }
});

test('a union of constants lists the allowed values', () => {
  const mapped = validationToApiError(
    [
      error('const', '/kind', { allowedValue: 'goods' }),
      error('const', '/kind', { allowedValue: 'services' }),
      error('anyOf', '/kind', {}, { schema: [{ const: 'goods' }, { const: 'services' }] }),
    ],
    'body',
  );
  assert.equal(mapped.code, 'validation_error');
  assert.equal(mapped.message, '`kind` must be one of: goods, services.');
});

test('dates: a bad shape is 422, a day that does not exist or a year outside 1900-9999 is 400', () => {
  const validate = compileValidator({
    schema: {
      type: 'object',
      properties: {
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-or-date-time' },
        since: { type: 'string', format: 'date', formatMinimum: '2024-01-01' },
      },
    },
    httpPart: 'body',
    method: 'POST',
    url: '/x',
  } as never) as ValidateFunction;
  const refusal = (data: Record<string, unknown>) => {
    assert.equal(validate(data), false, JSON.stringify(data));
    return validationToApiError(validate.errors!, 'body');
  };
  const cases: [Record<string, unknown>, string, string][] = [
    [{ day: '01/09/2026' }, 'validation_error', 'day'],
    [{ day: '0000-01-01' }, 'invalid_field_value', 'day'],
    [{ day: '2026-02-30' }, 'invalid_field_value', 'day'],
    [{ at: '10000-01-01T00:00:00Z' }, 'invalid_field_value', 'at'],
    [{ at: 'soon' }, 'validation_error', 'at'],
    // A field may narrow the range: `formatMinimum`.
    [{ since: '2023-12-31' }, 'invalid_field_value', 'since'],
  ];
  for (const [data, code, param] of cases) {
    const mapped = refusal(data);
    assert.equal(mapped.code, code, JSON.stringify(data));
    assert.equal(mapped.param, param);
  }
  assert.equal(validate({ day: '2026-09-01', at: '2026-09-01T10:00:00Z', since: '2024-01-01' }), true);
});

test('a query number coerced to Infinity is refused as a wrong type', () => {
  const validate = compileValidator({
    schema: {
      type: 'object',
      properties: { limit: { type: 'integer', minimum: 1, maximum: 100 }, year: { type: 'integer' } },
    },
    httpPart: 'querystring',
    method: 'GET',
    url: '/x',
  } as never) as ValidateFunction;
  for (const data of [{ limit: '1e400' }, { year: '9'.repeat(400) }]) {
    assert.equal(validate({ ...data }), false, JSON.stringify(data));
    const mapped = validationToApiError(validate.errors!, 'querystring');
    assert.equal(mapped.code, 'invalid_field_value');
    assert.equal(mapped.param, Object.keys(data)[0]);
  }
  assert.equal(validate({ limit: '5', year: '2026' }), true);
});
