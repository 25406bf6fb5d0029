import type { Capability } from '../capability.js';
import { purgeDirectoryChecks } from './service.js';

/** Company directory: live SIRETs looked up in the Sirene API and the connected platform's Directory Service, answers kept as cache. */
export const directoryCapability: Capability = {
  name: 'directory',
  passes: [
    {
      name: 'directory.purge-checks',
      everyMs: 3600_000,
      run: (deps, companyIds) => purgeDirectoryChecks(deps, companyIds),
    },
  ],
};
