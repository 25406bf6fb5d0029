import type { Capability } from '../capability.js';
import { taxProfileRecords } from './data-export.js';
import { taxProfileRoutes, taxProfileSchema } from './routes.js';
import { purgeTestTaxProfiles } from './service.js';

/** Tax profiles: dated revisions of the seller's tax information. */
export const taxProfilesCapability: Capability = {
  name: 'tax-profiles',
  routes: taxProfileRoutes,
  schemas: [taxProfileSchema],
  purgeTestData: async (tx, ctx) => ({ taxProfiles: await purgeTestTaxProfiles(tx, ctx.scope) }),
  dataExport: [{ name: 'tax_profiles', page: taxProfileRecords }],
};
