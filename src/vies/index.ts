import type { Capability } from '../capability.js';

/** VIES: intra-EU VAT numbers checked with the EU's service in live, answers kept as proof and cache. */
export const viesCapability: Capability = {
  name: 'vies',
};
