import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCustomer, consultDirectory, type CustomerDraft } from '../../src/customers/customer-checks.js';
import { sandboxDirectory } from '../../src/customers/directory.js';
import { ApiError } from '../../src/kernel/errors.js';

const base: CustomerDraft = {
  type: 'company',
  name: 'Atelier',
  email: null,
  siren: null,
  siret: null,
  vatNumber: null,
  electronicAddress: null,
  routingCode: null,
  address: null,
  deliveryAddress: null,
  registryNonDisclosure: [],
  einvoiceSyntax: null,
  metadata: {},
};

function refusal(draft: Partial<CustomerDraft>): [string, string | undefined] {
  try {
    checkCustomer({ ...base, ...draft });
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return [error.code, error.param];
  }
  assert.fail(`expected a refusal of ${JSON.stringify(draft)}`);
}

test('a customer is refused on its first broken rule, with the field as param', () => {
  const rows: [Partial<CustomerDraft>, string, string][] = [
    [{ name: '   ' }, 'validation_error', 'name'],
    [{ siren: '732829321' }, 'validation_error', 'siren'],
    [{ siren: '73282932' }, 'validation_error', 'siren'],
    [{ siret: '73282932000018' }, 'validation_error', 'siret'],
    [{ siren: '552100554', siret: '73282932000017' }, 'validation_error', 'siret'],
    [{ vatNumber: 'FR00732829320' }, 'validation_error', 'vatNumber'],
    [{ siren: '552100554', vatNumber: 'FR44732829320' }, 'validation_error', 'vatNumber'],
    [{ vatNumber: 'DE136695977' }, 'validation_error', 'vatNumber'],
    [{ siren: '732829320', electronicAddress: '552100554' }, 'validation_error', 'electronicAddress'],
    [{ electronicAddress: 'bad address!' }, 'validation_error', 'electronicAddress'],
    [{ routingCode: 'SERVICE-A' }, 'validation_error', 'routingCode'],
    [{ siret: '73282932000017', routingCode: 'bad code!' }, 'validation_error', 'routingCode'],
    [{ type: 'individual', siren: '732829320' }, 'validation_error', 'siren'],
    [{ type: 'individual', vatNumber: 'DE136695976' }, 'validation_error', 'vatNumber'],
    [{ address: { country: 'ZZ' } }, 'invalid_field_value', 'address.country'],
    [{ address: { country: 'FR', postalCode: '7500' } }, 'validation_error', 'address.postalCode'],
    [{ deliveryAddress: { country: 'DE', postalCode: '1' } }, 'validation_error', 'deliveryAddress.postalCode'],
    [{ metadata: { note: 'x'.repeat(9000) } }, 'validation_error', 'metadata'],
  ];
  for (const [draft, code, param] of rows) assert.deepEqual(refusal(draft), [code, param], JSON.stringify(draft));
});

test('identifiers are normalized and derived: SIREN from the SIRET or a French VAT number', () => {
  const fromSiret = checkCustomer({ ...base, siret: '732 829 320 00017' });
  assert.equal(fromSiret.siret, '73282932000017');
  assert.equal(fromSiret.siren, '732829320');
  const fromVat = checkCustomer({ ...base, vatNumber: 'fr 44 732829320' });
  assert.equal(fromVat.vatNumber, 'FR44732829320');
  assert.equal(fromVat.siren, '732829320');
  const foreign = checkCustomer({ ...base, vatNumber: 'DE136695976' });
  assert.equal(foreign.siren, null);
  const full = checkCustomer({
    ...base,
    siren: '732829320',
    siret: '73282932000017',
    electronicAddress: '732829320_FACTURES',
    routingCode: 'SERVICE-A/1',
    email: ' a@b.fr ',
  });
  assert.equal(full.electronicAddress, '732829320_FACTURES');
  assert.equal(full.email, 'a@b.fr');
  const consumer = checkCustomer({
    ...base,
    type: 'individual',
    name: ' Camille ',
    address: { country: 'fr', postalCode: '69002', line1: ' 8 place ', line2: '' },
  });
  assert.equal(consumer.name, 'Camille');
  assert.deepEqual(consumer.address, { line1: '8 place', line2: null, postalCode: '69002', city: null, country: 'FR' });
});

test('the directory: siret_not_found for an unknown SIRET; its non-disclosure markers are added', async () => {
  const unknown = checkCustomer({ ...base, siret: '73282932099902' });
  await assert.rejects(
    consultDirectory(unknown, sandboxDirectory),
    (error: unknown) =>
      error instanceof ApiError && error.code === 'siret_not_found' && error.param === 'siret' && error.status === 422,
  );
  const hidden = await consultDirectory(
    checkCustomer({ ...base, siret: '73282932099803', registryNonDisclosure: ['address.city'] }),
    sandboxDirectory,
  );
  assert.deepEqual(hidden.registryNonDisclosure, ['address.city', 'name']);
  const live = await consultDirectory(unknown, null);
  assert.equal(live.siret, '73282932099902', 'without a directory (live), check digits only');
});
