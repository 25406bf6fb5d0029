import type { Capability } from '../capability.js';
import { establishmentRecords } from './data-export.js';
import { establishmentRoutes, establishmentSchema } from './routes.js';
import { purgeTestEstablishments, seedHeadOffice } from './service.js';
import { companySeller } from '../companies/service.js';

/** Establishments: the company's SIRETs and addresses, the seller's on every document. */
export const establishmentsCapability: Capability = {
  name: 'establishments',
  published: ['platform-access.ts'],
  routes: establishmentRoutes,
  schemas: [establishmentSchema],
  purgeTestData: async (tx, ctx) => ({ establishments: await purgeTestEstablishments(tx, ctx.scope) }),
  // The sandbox's head office: test documents finalize right after a reset.
  seedFixtures: async (tx, ctx) => seedHeadOffice(tx, ctx.scope, (await companySeller(tx, ctx.scope.companyId)).siren),
  dataExport: [{ name: 'establishments', page: establishmentRecords }],
};
