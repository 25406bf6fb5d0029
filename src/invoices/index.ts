import type { Capability } from '../capability.js';
import {
  creditNoteRecords,
  depositRecords,
  invoiceRecords,
  refundRecords,
  statusReceiptRecords,
} from './data-export.js';
import { creditNoteRoutes, refundSchema } from './credit-note-routes.js';
import { attachmentRoutes, attachmentSchema } from './attachment-routes.js';
import { purgeTestRefunds } from './credit-notes.js';
import { seedInvoiceFixtures } from './fixtures.js';
import { markOverdueInvoices } from './overdue.js';
import { creditNoteSchema, invoiceSchema } from './resource-schema.js';
import { invoiceRoutes } from './routes.js';
import { archiveVerificationSchema, documentFileRoutes } from './files-routes.js';
import { createFileWorker } from './generation.js';
import { purgeTestDocuments } from './service.js';
import { depositFlow } from './deposit-flow.js';
import { createOutboxWorker } from '../platform/service.js';
import { depositStatuses } from './platform-statuses.js';

/**
 * Invoices and credit notes: invoice-type documents sharing one table, the three axes and the
 * summary status, finalization on a tax decision, numbering, sending, the reported life cycle,
 * credits and refunds; the generated files of finalized documents (file worker) and their
 * verification against the legal archive.
 */
export const invoicesCapability: Capability = {
  name: 'invoices',
  routes: async (app, options) => {
    await invoiceRoutes(app, options);
    await creditNoteRoutes(app, options);
    await documentFileRoutes(app, options);
    await attachmentRoutes(app, options);
  },
  schemas: [attachmentSchema, invoiceSchema, creditNoteSchema, refundSchema, archiveVerificationSchema],
  published: ['buyer.ts', 'lines.ts', 'document-fields.ts', 'resource-schema.ts', 'document-axes.ts'],
  purgeTestData: async (tx, ctx) => ({
    invoices: await purgeTestDocuments(tx, ctx.scope),
    refunds: await purgeTestRefunds(tx, ctx.scope),
  }),
  seedFixtures: (tx, ctx) => seedInvoiceFixtures(tx, ctx),
  // Deposits go by the outbox (deposit-flow.ts), delivered by their own worker: the client waits on them.
  flows: [depositFlow],
  workers: [(deps) => createFileWorker(deps), (deps) => createOutboxWorker(deps, [depositFlow])],
  passes: [
    {
      name: 'invoices.overdue',
      everyMs: 60_000,
      followsSandboxClock: true,
      run: (deps, companyIds) => markOverdueInvoices(deps, companyIds ? { companyIds } : {}),
    },
  ],
  // The statuses of the deposits, from each connection's inbox (platform/inbox.ts).
  inbox: { statuses: depositStatuses },
  dataExport: [
    { name: 'invoices', page: invoiceRecords },
    { name: 'credit_notes', page: creditNoteRecords },
    { name: 'refunds', page: refundRecords },
    { name: 'platform_deposits', page: depositRecords },
    { name: 'platform_status_receipts', page: statusReceiptRecords },
  ],
};
