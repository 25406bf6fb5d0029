import type { Capability } from '../capability.js';
import { companyRecords } from './data-export.js';

/** Companies: the tenants. Every tenant row names one; only the company and its users are shared by both environments. */
export const companiesCapability: Capability = {
  name: 'companies',
  // The tenant root: other capabilities' tables reference it (foreign keys).
  published: ['schema.ts'],
  dataExport: [{ name: 'company', page: companyRecords }],
};
