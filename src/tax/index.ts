import type { Capability } from '../capability.js';
import { decisionRecords } from './data-export.js';
import { taxDecisionRoutes, taxDecisionSchema } from './routes.js';
import { purgeTestDecisions } from './service.js';

/** Tax decisions: the engine that decides rates, mentions, amounts and the three obligation axes. */
export const taxCapability: Capability = {
  name: 'tax',
  routes: taxDecisionRoutes,
  schemas: [taxDecisionSchema],
  published: ['vat-territory.ts', 'amounts.ts', 'rates.ts'],
  purgeTestData: async (tx, ctx) => ({ taxDecisions: await purgeTestDecisions(tx, ctx.scope) }),
  dataExport: [{ name: 'tax_decisions', page: decisionRecords }],
};
