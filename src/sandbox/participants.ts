import { sql } from 'drizzle-orm';
import type { Capability } from '../capability.js';
import type { Tx } from '../db/database.js';
import type { CallContext } from '../db/transaction.js';
import { resetSandboxClock } from '../companies/service.js';

export type PurgeCounts = Record<string, number>;

/**
 * A sandbox reset over every capability, in one transaction: each purges its test rows, the
 * sandbox clock goes back to real time, then each injects its fixtures (list order).
 */
export async function purgeTestData(
  tx: Tx,
  ctx: CallContext,
  capabilities: readonly Capability[],
): Promise<PurgeCounts> {
  // One reset of a company at a time: two would delete the same rows in different orders.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sandbox-reset:${ctx.scope.companyId}`}))`);
  const counts: PurgeCounts = {};
  for (const capability of capabilities) Object.assign(counts, await capability.purgeTestData?.(tx, ctx));
  // A fresh sandbox runs on real time again: the fixtures are dated on it, not on the old sandbox time.
  const offsetMs = await resetSandboxClock(tx, ctx.scope.companyId);
  const fresh = { ...ctx, now: new Date(ctx.now.getTime() - offsetMs) };
  for (const capability of capabilities) await capability.seedFixtures?.(tx, fresh);
  return counts;
}
