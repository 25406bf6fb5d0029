import type { Capability } from '../capability.js';
import { emailRecords } from './data-export.js';
import { createEmailWorker } from './service.js';

/** Operational e-mails: rows written with the decision, sent once by a leased worker. */
export const notificationsCapability: Capability = {
  name: 'notifications',
  published: ['mailer.ts'],
  workers: [(deps) => createEmailWorker(deps)],
  dataExport: [{ name: 'emails', page: emailRecords }],
};
