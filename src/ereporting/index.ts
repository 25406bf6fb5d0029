import type { Capability } from '../capability.js';
import { ereportingDataExport } from './data-export.js';
import { declarationFlow } from './declaration-flow.js';
import { declarationSchema, ereportingRoutes } from './routes.js';
import { purgeTestReporting, runEreportingPass } from './service.js';

/**
 * E-reporting: the declarations of flow 10 (B2C and international B2B transactions, payments of
 * services taxed on collection), gathered per establishment, flow and period from the issued
 * documents and the payments, validated against the flow 10 schema and transmitted through the
 * platform's outbox (its flow kind `ereporting.declaration`) by a pass on the sandbox clock, or at
 * once by the submit route.
 */
export const ereportingCapability: Capability = {
  name: 'ereporting',
  routes: ereportingRoutes,
  schemas: [declarationSchema],
  purgeTestData: async (tx, ctx) => ({ ereportingDeclarations: await purgeTestReporting(tx, ctx.scope) }),
  dataExport: [ereportingDataExport],
  flows: [declarationFlow],
  passes: [
    {
      name: 'ereporting.declarations',
      everyMs: 5 * 60_000,
      followsSandboxClock: true,
      run: (deps, companyIds) => runEreportingPass(deps, companyIds),
    },
  ],
};
