import type { Capability } from '../capability.js';
import { ledgerEntryRecords, ledgerRecords } from './data-export.js';
import { ledgerEntrySchema, ledgerRoutes, ledgerSchema } from './routes.js';
import { purgeTestLedgers } from './service.js';

/** EU-threshold ledgers: the yearly EUR 10,000 count of distance sales, with reservations and reviews. */
export const ledgersCapability: Capability = {
  name: 'ledgers',
  routes: ledgerRoutes,
  schemas: [ledgerEntrySchema, ledgerSchema],
  purgeTestData: async (tx, ctx) => ({ euThresholdLedgers: await purgeTestLedgers(tx, ctx.scope) }),
  dataExport: [
    { name: 'eu_threshold_ledgers', page: ledgerRecords },
    { name: 'eu_threshold_entries', page: ledgerEntryRecords },
  ],
};
