import type { Capability } from '../capability.js';
import { paymentRecords } from './data-export.js';
import { paymentRoutes, paymentSchema } from './routes.js';
import { advanceWaitingStatements, purgeTestPayments, seedPaymentFixtures } from './service.js';

/** Payments: money collected on invoices, in cents, with their payment statement (`fr212`). */
export const paymentsCapability: Capability = {
  name: 'payments',
  routes: paymentRoutes,
  schemas: [paymentSchema],
  purgeTestData: async (tx, ctx) => ({ payments: await purgeTestPayments(tx, ctx.scope) }),
  seedFixtures: (tx, ctx) => seedPaymentFixtures(tx, ctx.scope, ctx.now),
  passes: [
    {
      // Statements (fr212) waiting on their invoice move once it is deposited, rejected, deposited again.
      name: 'payments.statements',
      everyMs: 30_000,
      followsSandboxClock: true,
      run: (deps, companyIds) => advanceWaitingStatements(deps, companyIds ? { companyIds } : {}),
    },
  ],
  dataExport: [{ name: 'payments', page: paymentRecords }],
};
