import type { Capability } from '../capability.js';
import { quoteRecords } from './data-export.js';
import { quoteRoutes, quoteSchema } from './routes.js';
import { expireQuotes, purgeTestQuotes, seedQuoteFixtures } from './service.js';

/** Quotes (devis): numbered, sent, viewed, accepted or refused, expired, converted into invoices. */
export const quotesCapability: Capability = {
  name: 'quotes',
  routes: quoteRoutes,
  schemas: [quoteSchema],
  purgeTestData: async (tx, ctx) => ({ quotes: await purgeTestQuotes(tx, ctx.scope) }),
  seedFixtures: (tx, ctx) => seedQuoteFixtures(tx, ctx),
  passes: [
    {
      name: 'quotes.expiry',
      everyMs: 60_000,
      followsSandboxClock: true,
      run: (deps, companyIds) => expireQuotes(deps, companyIds ? { companyIds } : {}),
    },
  ],
  dataExport: [{ name: 'quotes', page: quoteRecords }],
};
