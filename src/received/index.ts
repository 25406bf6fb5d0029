import type { Capability } from '../capability.js';
import { receivedRecords } from './data-export.js';
import { establishmentConnections, incomingInvoices, receivedSubscriptions } from './intake.js';
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
  schemas: [receivedInvoiceSchema],
  purgeTestData: async (tx, ctx) => ({ receivedInvoices: await purgeTestReceived(tx, ctx.scope) }),
  dataExport: [{ name: 'received_invoices', page: receivedRecords }],
  flows: [answerFlow],
  // The invoice flows addressed to the company, from each connection's inbox (platform/inbox.ts);
  // the connections it reads are the establishments' (see intake.ts).
  inbox: {
    incoming: incomingInvoices,
    connections: establishmentConnections,
    formerSubscriptions: receivedSubscriptions,
  },
};
