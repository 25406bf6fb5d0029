import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineToBody, parseCustomerCsv } from '../../src/customers/customer-csv.js';
import { ApiError } from '../../src/kernel/errors.js';

const limit = 1_000_000;

function refusal(run: () => unknown): [string, string | undefined, string] {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return [error.code, error.param, error.message];
  }
  assert.fail('expected a refusal');
}

test('the header names API fields, any subset and order; lines keep their file line numbers', () => {
  const file = parseCustomerCsv(
    '\uFEFFcountry,name,postalCode\r\nFR,"Dupont, fils",75002\r\n\r\nDE,"Line\nbreak",10117\r\n',
    limit,
  );
  assert.deepEqual(file.columns, ['country', 'name', 'postalCode']);
  assert.deepEqual(file.lines, [
    { line: 2, cells: ['FR', 'Dupont, fils', '75002'] },
    { line: 5, cells: ['DE', 'Line\nbreak', '10117'] },
  ]);
  assert.deepEqual(lineToBody(file.columns, file.lines[0]!), {
    name: 'Dupont, fils',
    address: { country: 'FR', postalCode: '75002' },
  });
});

test('a semicolon header (French spreadsheets) is read with semicolons', () => {
  const file = parseCustomerCsv('name;siren;city;country\nAtelier;732829320;Paris;FR\n', limit);
  assert.deepEqual(lineToBody(file.columns, file.lines[0]!), {
    name: 'Atelier',
    siren: '732829320',
    address: { city: 'Paris', country: 'FR' },
  });
});

test('empty cells are absent; a line with more cells than columns is refused', () => {
  const file = parseCustomerCsv('type,name,email,line1\ncompany,A,,\nindividual,B\nC,D,E,F,G\n', limit);
  assert.deepEqual(lineToBody(file.columns, file.lines[0]!), { type: 'company', name: 'A' });
  assert.deepEqual(lineToBody(file.columns, file.lines[1]!), { type: 'individual', name: 'B' });
  assert.deepEqual(refusal(() => lineToBody(file.columns, file.lines[2]!)).slice(0, 2), [
    'invalid_field_value',
    'line',
  ]);
});

test('a bad file is refused whole: unknown or repeated column, no name column, empty, malformed, too many lines', () => {
  assert.deepEqual(refusal(() => parseCustomerCsv('name,phone\nA,1\n', limit)).slice(0, 2), [
    'invalid_field_value',
    'header',
  ]);
  assert.match(refusal(() => parseCustomerCsv('name,phone\nA,1\n', limit))[2], /Unknown column "phone" \(column 2/);
  assert.deepEqual(refusal(() => parseCustomerCsv('name,name\nA,B\n', limit)).slice(0, 2), [
    'invalid_field_value',
    'header',
  ]);
  assert.deepEqual(refusal(() => parseCustomerCsv('email\na@b.fr\n', limit)).slice(0, 2), [
    'missing_required_field',
    'name',
  ]);
  assert.deepEqual(refusal(() => parseCustomerCsv('', limit)).slice(0, 2), ['invalid_field_value', 'header']);
  assert.deepEqual(refusal(() => parseCustomerCsv('\nname\nA\n', limit)).slice(0, 2), [
    'invalid_field_value',
    'header',
  ]);
  assert.deepEqual(refusal(() => parseCustomerCsv('name\n"A\n', limit)).slice(0, 2), ['invalid_field_value', 'body']);
  const tooMany = `name\n${'A\n'.repeat(10_001)}`;
  const [code, , message] = refusal(() => parseCustomerCsv(tooMany, limit));
  assert.equal(code, 'payload_too_large');
  assert.match(message, /at most 10,000 lines besides the header; this file has 10,001/);
  assert.equal(parseCustomerCsv(`name\n${'A\n'.repeat(10_000)}`, limit).lines.length, 10_000, '10,000 lines pass');
});
