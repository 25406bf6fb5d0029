import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkVatNumber, normalizeVatNumber, sirenOfVatNumber } from '../../src/identifiers/vat-number.js';
import { checkAddress } from '../../src/customers/address.js';
import { ApiError } from '../../src/kernel/errors.js';
import { sandboxDirectoryEntry } from '../../src/customers/directory.js';
import { normalizeUnitPrice } from '../../src/products/unit-price.js';

test('VAT numbers: syntax and check digits per country (research/eu-vat-domain.md, section 8)', () => {
  const valid: [string, string, string][] = [
    ['FR40303265045', 'FR40303265045', 'FR'],
    ['fr 40 303 265 045', 'FR40303265045', 'FR'],
    ['FR44732829320', 'FR44732829320', 'FR'],
    ['DE136695976', 'DE136695976', 'DE'],
    ['BE0403019261', 'BE0403019261', 'BE'],
    ['IT00743110157', 'IT00743110157', 'IT'],
    ['NL004495445B01', 'NL004495445B01', 'NL'],
    ['ESB58378431', 'ESB58378431', 'ES'],
    ['ATU13585627', 'ATU13585627', 'AT'],
    ['EL094259216', 'EL094259216', 'GR'],
    ['PL5260250995', 'PL5260250995', 'PL'],
    ['SE556188840401', 'SE556188840401', 'SE'],
    ['IE6388047V', 'IE6388047V', 'IE'],
    ['XI123456782', 'XI123456782', 'XI'],
    ['GB123456782', 'GB123456782', 'GB'],
    ['CHE-116.281.710 MWST', 'CHE116281710MWST', 'CH'],
  ];
  for (const [input, value, country] of valid) {
    assert.deepEqual(checkVatNumber(input), { ok: true, value, country }, input);
  }
  const invalid = [
    'FR00303265045',
    'FR40303265046',
    'FR4030326504',
    'DE136695977',
    'BE0403019262',
    'IT00743110158',
    'GR094259216',
    'US123456789',
    'EU123456789',
    'ATU1358562',
    'XI123456789',
    '',
  ];
  for (const input of invalid) assert.equal(checkVatNumber(input).ok, false, input);
  assert.equal(normalizeVatNumber(' fr-40.303 265045 '), 'FR40303265045');
  assert.equal(sirenOfVatNumber('FR40303265045'), '303265045');
  assert.equal(sirenOfVatNumber('DE136695976'), null);
});

function refusal(run: () => unknown): { code: string; param: string | undefined } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return { code: error.code, param: error.param };
  }
  assert.fail('expected a refusal');
}

test('addresses: ISO country (invalid_field_value), postal code syntax per country and territory (validation_error)', () => {
  const accepted: [string, string | null][] = [
    ['FR', '75002'],
    ['fr', '75002'],
    ['GP', '97110'],
    ['MC', '98000'],
    ['DE', '10117'],
    ['PT', '1000-001'],
    ['GB', 'SW1A 1AA'],
    ['US', '10118'],
    ['CA', 'H0H 0H0'],
    ['NL', '1012 AB'],
    ['FR', null],
    ['XK', '10000'],
  ];
  for (const [country, postalCode] of accepted) {
    const address = checkAddress({ country, postalCode }, 'address');
    assert.equal(address.country, country.toUpperCase());
  }
  const refused: [string, string | null, string, string][] = [
    ['FX', '75002', 'invalid_field_value', 'address.country'],
    ['FRA', '75002', 'invalid_field_value', 'address.country'],
    ['', '75002', 'invalid_field_value', 'address.country'],
    ['FR', '7500', 'validation_error', 'address.postalCode'],
    ['FR', '750021', 'validation_error', 'address.postalCode'],
    ['FR', '00100', 'validation_error', 'address.postalCode'],
    ['DE', '1011', 'validation_error', 'address.postalCode'],
    // A valid French code of another territory than the country: the territory rule wins over
    // the country's own postal pattern (GP takes 971xx only, MC 980xx only).
    ['GP', '75002', 'validation_error', 'address.country'],
    ['MQ', '97110', 'validation_error', 'address.country'],
    ['MC', '75002', 'validation_error', 'address.country'],
    ['GP', '97133', 'validation_error', 'address.country'],
    ['GP', '9711', 'validation_error', 'address.postalCode'],
    ['MC', '98100', 'validation_error', 'address.postalCode'],
    ['US', 'ABCDE', 'validation_error', 'address.postalCode'],
  ];
  for (const [country, postalCode, code, param] of refused) {
    assert.deepEqual(
      refusal(() => checkAddress({ country, postalCode }, 'address')),
      { code, param },
      `${country} ${postalCode}`,
    );
  }
  assert.deepEqual(
    refusal(() => checkAddress({ country: 'FR', postalCode: '7500' }, 'deliveryAddress')),
    { code: 'validation_error', param: 'deliveryAddress.postalCode' },
  );
  assert.deepEqual(
    refusal(() => checkAddress({ country: 'GP', postalCode: '75002' }, 'deliveryAddress')),
    { code: 'validation_error', param: 'deliveryAddress.country' },
  );
});

test('the sandbox directory: known, unknown (NIC 999..), name (998..) or address (997..) non-disclosed', () => {
  assert.deepEqual(sandboxDirectoryEntry('73282932000017'), { siret: '73282932000017', nonDisclosed: [] });
  assert.equal(sandboxDirectoryEntry('73282932099902'), null);
  assert.deepEqual(sandboxDirectoryEntry('73282932099803')?.nonDisclosed, ['name']);
  assert.deepEqual(sandboxDirectoryEntry('73282932099704')?.nonDisclosed, ['address']);
  assert.equal(sandboxDirectoryEntry('73282932000018'), null, 'bad check digits are never known');
});

test('unit prices are decimal strings', () => {
  const rows: [string, string | null][] = [
    ['12.50', '12.50'],
    ['12.5', '12.5'],
    ['0', '0'],
    ['007.50', '7.50'],
    ['0.000001', '0.000001'],
    ['999999999999.999999', '999999999999.999999'],
    ['-1', null],
    ['1e3', null],
    ['12,50', null],
    ['12.', null],
    ['.5', null],
    ['1.1234567', null],
    ['1234567890123', null],
    ['', null],
    ['NaN', null],
  ];
  for (const [input, expected] of rows) assert.equal(normalizeUnitPrice(input), expected, input);
});
