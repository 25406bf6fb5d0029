import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { fixtureCreated, fixtureId } from '../identifiers/fixture-id.js';
import type { ProductRow } from './store.js';
import { insertProducts } from './store.js';

/**
 * The sandbox's fixture products, injected by `POST /v1/sandbox/reset`, with ids that stay the
 * same after every reset of a company and `metadata.fixture` naming them (see the customers').
 */
export const productFixtures: [
  string,
  Pick<ProductRow, 'name' | 'description' | 'unitPrice' | 'unit' | 'nature' | 'vatCategory'>,
][] = [
  [
    'goods',
    {
      name: 'Chaise en chêne massif',
      description: 'Chaise de salle à manger, chêne huilé.',
      unitPrice: '149.00',
      unit: 'H87',
      nature: 'goods',
      vatCategory: 'standard',
    },
  ],
  [
    'goods_reduced_rate',
    {
      name: 'Livre de recettes',
      description: 'Livre imprimé, 240 pages.',
      unitPrice: '24.90',
      unit: 'H87',
      nature: 'goods',
      vatCategory: 'reduced',
    },
  ],
  [
    'services',
    {
      name: 'Conseil en organisation',
      description: 'Heure de conseil sur site ou à distance.',
      unitPrice: '90.00',
      unit: 'HUR',
      nature: 'services',
      vatCategory: 'standard',
    },
  ],
  [
    'electronic_service',
    {
      name: 'Abonnement logiciel',
      description: 'Accès mensuel au logiciel en ligne.',
      unitPrice: '29.90',
      unit: 'MON',
      nature: 'electronic_service',
      vatCategory: 'standard',
    },
  ],
];

export async function seedProductFixtures(tx: Tx, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('fixtures are for the sandbox only');
  const count = productFixtures.length;
  const rows: ProductRow[] = productFixtures.map(([name, fields], index) => {
    const created = fixtureCreated(count - index);
    return {
      ...scope,
      id: fixtureId('product', scope.companyId, name, count - index),
      ...fields,
      metadata: { fixture: name },
      created,
      updated: created,
      deletedAt: null,
    };
  });
  await insertProducts(tx, rows);
  return rows.length;
}
