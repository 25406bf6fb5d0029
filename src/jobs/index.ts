import type { Capability } from '../capability.js';
import { jobRecords } from './data-export.js';
import { jobRoutes, jobSchema } from './routes.js';
import { purgeTestJobs } from './service.js';
import { createJobWorker } from './worker.js';

/** Durable jobs: work too long for a request (large imports, exports), run by batches that each commit. */
export const jobsCapability: Capability = {
  name: 'jobs',
  routes: jobRoutes,
  schemas: [jobSchema],
  published: ['job-kind.ts'],
  purgeTestData: async (tx, ctx) => ({ jobs: await purgeTestJobs(tx, ctx.scope) }),
  workers: [(deps, registry) => createJobWorker(deps, { kinds: registry.jobKinds, registry })],
  dataExport: [{ name: 'jobs', page: jobRecords }],
};
