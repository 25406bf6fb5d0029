import type { Capability } from '../capability.js';
import { purgeViesChecks } from './service.js';

/** VIES: intra-EU VAT numbers checked with the EU's service in live, answers kept as proof and cache. */
export const viesCapability: Capability = {
  name: 'vies',
  passes: [
    { name: 'vies.purge-checks', everyMs: 3600_000, run: (deps, companyIds) => purgeViesChecks(deps, companyIds) },
  ],
};
