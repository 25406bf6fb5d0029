import type { Capability } from '../capability.js';
import { dataExportJob } from './data-job.js';
import { fecExportJob } from './fec-job.js';
import { exportRoutes, exportSchema } from './routes.js';
import { exportRecordsPage, purgeExpiredExports, purgeTestExports } from './service.js';

/**
 * Exports: the accounting file (FEC) of a period and the data-protection archive, written by
 * jobs into PostgreSQL chunk by chunk, listed and downloaded from any node until they expire.
 */
export const exportsCapability: Capability = {
  name: 'exports',
  routes: exportRoutes,
  schemas: [exportSchema],
  published: ['data-source.ts'],
  purgeTestData: async (tx, ctx) => ({ exports: await purgeTestExports(tx, ctx.scope) }),
  jobKinds: [fecExportJob, dataExportJob],
  passes: [
    {
      name: 'exports.expiry',
      everyMs: 10 * 60_000,
      followsSandboxClock: true,
      run: (deps, companyIds) => purgeExpiredExports(deps, companyIds),
    },
  ],
  dataExport: [{ name: 'exports', page: exportRecordsPage }],
};
