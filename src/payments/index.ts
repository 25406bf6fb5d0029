import type { Capability } from '../capability.js';
import { paymentRecords } from './data-export.js';
import { sendDueStatements, statementFlow } from './statement-sender.js';
import { fr212Schema, paymentRoutes, paymentSchema } from './routes.js';
import { advanceWaitingStatements, purgeTestPayments, seedPaymentFixtures } from './service.js';

/** Payments: money collected on invoices, in cents, with their payment statement (`fr212`). */
export const paymentsCapability: Capability = {
  name: 'payments',
  // The statement's rules (pure): the refunds of credit notes owe the same statement, negative.
  published: ['collection-statement.ts'],
  routes: paymentRoutes,
  schemas: [fr212Schema, paymentSchema],
  purgeTestData: async (tx, ctx) => ({ payments: await purgeTestPayments(tx, ctx.scope) }),
  seedFixtures: (tx, ctx) => seedPaymentFixtures(tx, ctx.scope, ctx.now),
  passes: [
    {
      // Statements (fr212) waiting on their invoice move once it moves; the due ones go to the platform.
      name: 'payments.statements',
      everyMs: 30_000,
      followsSandboxClock: true,
      run: async (deps, companyIds) => {
        const options = companyIds ? { companyIds } : {};
        return (await advanceWaitingStatements(deps, options)) + (await sendDueStatements(deps, options));
      },
    },
  ],
  flows: [statementFlow],
  dataExport: [{ name: 'payments', page: paymentRecords }],
};
