import type { Capability } from '../capability.js';
import type { Deps } from '../deps.js';
import type { CallContext } from '../db/transaction.js';
import { inTransaction } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { purgeTestData, type PurgeCounts } from './participants.js';

export interface SandboxReset {
  object: 'sandbox_reset';
  livemode: false;
  purged: PurgeCounts;
  created: string;
}

/** Purges the company's test data in one transaction; live data is out of its reach. */
export async function resetSandbox(
  deps: Pick<Deps, 'db' | 'clock'>,
  ctx: CallContext,
  capabilities: readonly Capability[],
): Promise<SandboxReset> {
  if (ctx.scope.livemode) {
    throw refuse('not_supported', 'The sandbox reset only exists in test mode; call it with a `svc_test_` key.');
  }
  const purged = await inTransaction(deps.db, ctx, (tx) => purgeTestData(tx, ctx, capabilities));
  return { object: 'sandbox_reset', livemode: false, purged, created: deps.clock.now().toISOString() };
}
