import type { Capability } from '../capability.js';

/** Company directory: live SIRETs looked up in the Sirene API and the connected platform's Directory Service, answers kept as cache. */
export const directoryCapability: Capability = {
  name: 'directory',
};
