import type { Deps } from '../deps.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { verifyVatNumber, type ViesVerdict } from '../vies/service.js';
import type { VatValidation } from './customer-checks.js';
import { recordCustomerEvent } from './customer-records.js';
import { settleVatValidation, unverifiedCustomers, type CustomerRow } from './store.js';

/**
 * The `customers.recheck-vat` pass: live customers whose intra-EU VAT number VIES did not confirm
 * (VIES down when they were written, or imported by CSV) are asked about again, every 10 minutes,
 * a batch at a time. A yes makes the check `valid` with its consultation number; a no makes it
 * `invalid` (the customer exists: nothing is refused, the resource says it); no answer leaves it
 * `unverified` for the next pass. Each settled check is a `customer.updated`.
 */
export const vatRecheckEveryMs = 10 * 60_000;
const batchSize = 100;

function settledValidation(verdict: ViesVerdict): VatValidation | null {
  if (verdict.outcome !== 'valid' && verdict.outcome !== 'invalid') return null;
  return {
    status: verdict.outcome,
    checkedAt: verdict.checkedAt.toISOString(),
    requestIdentifier: verdict.requestIdentifier,
    requestDate: verdict.requestDate,
  };
}

async function recheckOne(deps: Pick<Deps, 'db' | 'config' | 'clock'>, row: CustomerRow): Promise<boolean> {
  if (row.vatNumber === null) return false;
  const scope = { companyId: row.companyId, livemode: true };
  const now = deps.clock.now();
  const validation = settledValidation(await verifyVatNumber(deps, scope, row.vatNumber, now));
  if (!validation) return false;
  const ctx: CallContext = { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now };
  return inTransaction(deps.db, ctx, async (tx) => {
    const settled = await settleVatValidation(tx, scope, row.id, row.vatNumber!, {
      vatValidation: validation,
      updated: now,
    });
    if (settled) await recordCustomerEvent(tx, ctx, 'customer.updated', settled);
    return settled !== undefined;
  });
}

/** One pass over every company (or the given ones); returns how many checks it settled. */
export async function recheckUnverifiedVat(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  companyIds?: string[],
): Promise<number> {
  const rows = await inTransaction(deps.db, null, (tx) => unverifiedCustomers(tx, 'vat', batchSize, companyIds));
  let settled = 0;
  // One at a time: VIES limits concurrent requests (MS_MAX_CONCURRENT_REQ).
  for (const row of rows) if (await recheckOne(deps, row)) settled++;
  return settled;
}
