import type { Capability } from '../capability.js';
import { productRecords } from './data-export.js';
import { seedProductFixtures } from './fixtures.js';
import { productRoutes, productSchema } from './routes.js';
import { purgeTestProducts } from './service.js';

/** Products: names, unit prices, units and natures copied onto document lines. */
export const productsCapability: Capability = {
  name: 'products',
  routes: productRoutes,
  schemas: [productSchema],
  published: ['units.ts', 'unit-price.ts', 'product-input.ts'],
  purgeTestData: async (tx, ctx) => ({ products: await purgeTestProducts(tx, ctx.scope) }),
  seedFixtures: (tx, ctx) => seedProductFixtures(tx, ctx.scope),
  dataExport: [{ name: 'products', page: productRecords }],
};
