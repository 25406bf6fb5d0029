import type { Capability } from '../capability.js';
import { customerRecords } from './data-export.js';
import { seedCustomerFixtures } from './fixtures.js';
import { customersImportJob } from './import.js';
import { customerRoutes, customerSchema } from './routes.js';
import { purgeTestCustomers } from './service.js';
import { recheckUnverifiedVat, vatRecheckEveryMs } from './vat-recheck.js';
import { recheckUnverifiedIdentities, directoryRecheckEveryMs } from './directory-recheck.js';

/** Customers: buyers checked against the identifier rules and the directory, imported by CSV. */
export const customersCapability: Capability = {
  name: 'customers',
  routes: customerRoutes,
  schemas: [customerSchema],
  published: ['address.ts', 'customer-checks.ts', 'customer-input.ts', 'customer-csv.ts', 'directory.ts'],
  purgeTestData: async (tx, ctx) => ({ customers: await purgeTestCustomers(tx, ctx.scope) }),
  seedFixtures: (tx, ctx) => seedCustomerFixtures(tx, ctx.scope),
  jobKinds: [customersImportJob],
  passes: [
    {
      name: 'customers.recheck-vat',
      everyMs: vatRecheckEveryMs,
      run: (deps, companyIds) => recheckUnverifiedVat(deps, companyIds),
    },
    {
      name: 'customers.recheck-directory',
      everyMs: directoryRecheckEveryMs,
      run: (deps, companyIds) => recheckUnverifiedIdentities(deps, companyIds),
    },
  ],
  dataExport: [{ name: 'customers', page: customerRecords }],
};
