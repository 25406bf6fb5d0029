import type { Capability } from '../capability.js';
import { recurringRecords } from './data-export.js';
import { recurringInvoiceRoutes, recurringInvoiceSchema } from './routes.js';
import { runRecurringInvoices } from './runs.js';
import { purgeTestRecurring } from './service.js';

/**
 * Recurring invoices: a template of invoice and a schedule; each period a draft, or an invoice
 * finalized on a fresh tax decision (and sent), made once per period.
 */
export const recurringCapability: Capability = {
  name: 'recurring',
  routes: recurringInvoiceRoutes,
  schemas: [recurringInvoiceSchema],
  purgeTestData: (tx, ctx) => purgeTestRecurring(tx, ctx.scope),
  dataExport: [{ name: 'recurring_invoices', page: recurringRecords }],
  passes: [
    {
      name: 'recurring.runs',
      everyMs: 60_000,
      followsSandboxClock: true,
      run: (deps, companyIds) => runRecurringInvoices(deps, companyIds),
    },
  ],
};
