import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { fixtureCreated, fixtureId } from '../identifiers/fixture-id.js';
import type { CustomerCreateInput } from './customer-input.js';
import { customerRow, prepareCustomer } from './customer-records.js';
import { sandboxDirectory } from './directory.js';
import { insertCustomers } from './store.js';

/**
 * The sandbox's fixture customers, injected by `POST /v1/sandbox/reset`. Their ids are the same
 * after every reset of a company (a fixed time part and a part derived from the company and the
 * fixture's name), their `created` is the fixed instant of that time part, and each carries
 * `metadata.fixture` with its name. No event is emitted for them.
 */

const fixture = (name: string, input: Omit<CustomerCreateInput, 'metadata'>): [string, CustomerCreateInput] => [
  name,
  { ...input, metadata: { fixture: name } },
];

/** Name -> the creation body; documented in the README. */
export const customerFixtures: [string, CustomerCreateInput][] = [
  fixture('fr_b2b', {
    type: 'company',
    name: 'Atelier Lumière SAS',
    email: 'compta@atelier-lumiere.example',
    siren: '732829320',
    siret: '73282932000017',
    vatNumber: 'FR44732829320',
    electronicAddress: '732829320',
    address: { line1: '12 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' },
  }),
  fixture('fr_consumer', {
    type: 'individual',
    name: 'Camille Martin',
    email: 'camille.martin@example.com',
    address: { line1: '8 place Bellecour', postalCode: '69002', city: 'Lyon', country: 'FR' },
  }),
  fixture('eu_b2b', {
    type: 'company',
    name: 'Müller Maschinenbau GmbH',
    email: 'rechnung@mueller-maschinenbau.example',
    vatNumber: 'DE136695976',
    address: { line1: 'Friedrichstraße 100', postalCode: '10117', city: 'Berlin', country: 'DE' },
  }),
  fixture('eu_consumer', {
    type: 'individual',
    name: 'Giulia Rossi',
    email: 'giulia.rossi@example.com',
    address: { line1: 'Via Roma 1', postalCode: '20121', city: 'Milano', country: 'IT' },
  }),
  fixture('non_eu_company', {
    type: 'company',
    name: 'Maple Leaf Software Inc.',
    email: 'ap@mapleleaf.example',
    address: { line1: '350 Fifth Avenue', postalCode: '10118', city: 'New York', country: 'US' },
  }),
  fixture('overseas_company', {
    type: 'company',
    name: 'Rhumerie des Alizés SARL',
    email: 'factures@rhumerie-alizes.example',
    siren: '552100554',
    siret: '55210055400013',
    vatNumber: 'FR96552100554',
    electronicAddress: '552100554',
    address: { line1: '5 rue Victor Hugo', postalCode: '97200', city: 'Fort-de-France', country: 'FR' },
  }),
  fixture('fr_b2b_name_not_disclosed', {
    type: 'company',
    name: 'Cabinet Durand',
    email: 'contact@cabinet-durand.example',
    siret: '44306184199809',
    address: { line1: '3 cours Mirabeau', postalCode: '13100', city: 'Aix-en-Provence', country: 'FR' },
  }),
];

/** Inserts the fixtures into the (just purged) test scope of a company. */
export async function seedCustomerFixtures(tx: Tx, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('fixtures are for the sandbox only');
  const rows = await Promise.all(
    customerFixtures.map(async ([name, input], index) => {
      const position = customerFixtures.length - index;
      return customerRow(
        (await prepareCustomer(input, sandboxDirectory)).fields,
        scope,
        fixtureCreated(position),
        fixtureId('customer', scope.companyId, name, position),
      );
    }),
  );
  await insertCustomers(tx, rows);
  return rows.length;
}
