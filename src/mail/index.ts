import type { Capability } from '../capability.js';
import { documentEmailRecords } from './data-export.js';
import { createDocumentEmailWorker, purgeTestDocumentEmails } from './service.js';

/** Documents e-mailed to customers through SMTP: rows written with the sending, sent once by a leased worker. */
export const mailCapability: Capability = {
  name: 'mail',
  published: ['templates.ts'],
  workers: [(deps) => createDocumentEmailWorker(deps)],
  purgeTestData: async (tx, ctx) => ({ documentEmails: await purgeTestDocumentEmails(tx, ctx.scope) }),
  dataExport: [{ name: 'document_emails', page: documentEmailRecords }],
};
