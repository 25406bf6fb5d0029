import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv';
import { paramPath, validationToApiError } from '../../src/http/validation.js';

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
