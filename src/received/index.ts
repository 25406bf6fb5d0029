import type { Capability } from '../capability.js';
import { receivedCallbackRoutes } from './callback-routes.js';
import { receivedRecords } from './data-export.js';
import { pollReceivedInvoices } from './intake.js';
import { receivedInvoiceRoutes, receivedInvoiceSchema } from './routes.js';
import { answerFlow, purgeTestReceived } from './service.js';

/**
 * Received invoices: the purchase invoices the platform delivers to the company (`rec_`), read
 * from their CII, UBL or Factur-X, validated by the official validators (kept when they fail),
 * and answered by the company with CDAR statuses sent back through the platform.
 */
export const receivedCapability: Capability = {
  name: 'received',
  routes: receivedInvoiceRoutes,
  pages: { routes: receivedCallbackRoutes },
  schemas: [receivedInvoiceSchema],
  purgeTestData: async (tx, ctx) => ({ receivedInvoices: await purgeTestReceived(tx, ctx.scope) }),
  dataExport: [{ name: 'received_invoices', page: receivedRecords }],
  flows: [answerFlow],
  passes: [
    {
      name: 'received.poll',
      everyMs: 60_000,
      followsSandboxClock: true,
      run: (deps, companyIds) =>
        pollReceivedInvoices(deps, {
          companyIds,
          callbackBaseUrl: deps.config.publicUrlSet ? deps.config.publicUrl : null,
        }),
    },
  ],
};
