import { sql } from 'drizzle-orm';
import type { Tx } from '../db/database.js';
import type { CallContext } from '../db/transaction.js';
import { purgeTestEvents } from '../webhooks/service.js';
import { purgeTestIdempotencyKeys } from '../idempotency/service.js';
import { purgeTestDeliveries } from '../webhooks/service.js';
import { resetSandboxClock } from '../companies/service.js';
import { purgeTestCustomers, seedCustomerFixtures } from '../customers/service.js';
import { purgeTestProducts, seedProductFixtures } from '../products/service.js';
import { purgeTestJobs } from '../jobs/service.js';
import { purgeTestTaxProfiles } from '../tax-profiles/service.js';
import { purgeTestDecisions } from '../tax/service.js';
import { purgeTestLedgers } from '../ledgers/service.js';
import { purgeTestDocuments, seedInvoiceFixtures } from '../invoices/service.js';
import { purgeTestPayments, seedPaymentFixtures } from '../payments/service.js';
import { purgeTestRefunds } from '../invoices/credit-notes.js';
import { purgeTestQuotes, seedQuoteFixtures } from '../quotes/service.js';

export type PurgeCounts = Record<string, number>;

/**
 * What each capability removes on a sandbox reset. Capabilities that keep test data add their
 * purge here (and, with their fixtures, their seed), so a reset is one transaction over all.
 */
const purges: Record<string, (tx: Tx, ctx: CallContext) => Promise<number>> = {
  webhookDeliveries: (tx, ctx) => purgeTestDeliveries(tx, ctx.scope),
  events: (tx, ctx) => purgeTestEvents(tx, ctx.scope),
  // The reset's own key stays, so that replaying the reset replays its answer.
  idempotencyKeys: (tx, ctx) => purgeTestIdempotencyKeys(tx, ctx.scope, ctx.idempotencyKey),
  customers: (tx, ctx) => purgeTestCustomers(tx, ctx.scope),
  products: (tx, ctx) => purgeTestProducts(tx, ctx.scope),
  jobs: (tx, ctx) => purgeTestJobs(tx, ctx.scope),
  taxDecisions: (tx, ctx) => purgeTestDecisions(tx, ctx.scope),
  euThresholdLedgers: (tx, ctx) => purgeTestLedgers(tx, ctx.scope),
  taxProfiles: (tx, ctx) => purgeTestTaxProfiles(tx, ctx.scope),
  invoices: (tx, ctx) => purgeTestDocuments(tx, ctx.scope),
  payments: (tx, ctx) => purgeTestPayments(tx, ctx.scope),
  refunds: (tx, ctx) => purgeTestRefunds(tx, ctx.scope),
  quotes: (tx, ctx) => purgeTestQuotes(tx, ctx.scope),
};

/** The fixtures injected once everything is purged (see the README: they keep their ids across resets). */
const seeds: ((tx: Tx, ctx: CallContext) => Promise<number>)[] = [
  (tx, ctx) => seedCustomerFixtures(tx, ctx.scope),
  (tx, ctx) => seedProductFixtures(tx, ctx.scope),
  async (tx, ctx) => {
    const invoices = await seedInvoiceFixtures(tx, ctx);
    return invoices.count + (await seedPaymentFixtures(tx, ctx.scope, invoices.payments));
  },
  (tx, ctx) => seedQuoteFixtures(tx, ctx),
];

export async function purgeTestData(tx: Tx, ctx: CallContext): Promise<PurgeCounts> {
  // One reset of a company at a time: two would delete the same rows in different orders.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sandbox-reset:${ctx.scope.companyId}`}))`);
  const counts: PurgeCounts = {};
  for (const [name, purge] of Object.entries(purges)) counts[name] = await purge(tx, ctx);
  // A fresh sandbox runs on real time again: the fixtures are dated on it, not on the old sandbox time.
  const rows = (
    await tx.execute(sql`select sandbox_clock_offset_ms as offset from companies where id = ${ctx.scope.companyId}`)
  ).rows as { offset: string | number }[];
  const fresh = { ...ctx, now: new Date(ctx.now.getTime() - Number(rows[0]?.offset ?? 0)) };
  await resetSandboxClock(tx, ctx.scope.companyId);
  for (const seed of seeds) await seed(tx, fresh);
  return counts;
}
