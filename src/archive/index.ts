import type { Capability } from '../capability.js';

/**
 * The legal archive: an append-only, hash-chained record of live finalized documents and their
 * files (the invoices capability appends and verifies through service.ts). Never purged: the
 * sandbox reset has nothing to remove, test documents never enter it.
 */
export const archiveCapability: Capability = {
  name: 'archive',
  published: ['entry-hash.ts'],
};
