import type { Capability } from '../capability.js';
import { purgeRateWindows } from './service.js';

/** Rate limits and the monthly quota: fixed UTC-minute windows per key, shared by every node. */
export const limitsCapability: Capability = {
  name: 'limits',
  published: ['fixed-window.ts'],
  passes: [{ name: 'limits.purge-windows', everyMs: 10 * 60_000, run: (deps) => purgeRateWindows(deps) }],
};
