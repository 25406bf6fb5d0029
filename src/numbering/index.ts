import type { Capability } from '../capability.js';

/** Numbering: gapless counters per company, environment and series, and the legal number formats. */
export const numberingCapability: Capability = {
  name: 'numbering',
  published: ['series.ts'],
};
