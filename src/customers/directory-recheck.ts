import type { Deps } from '../deps.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { companyDirectory } from '../directory/service.js';
import { directoryIdentifierOf, withMarkers } from './customer-checks.js';
import { fieldsOf, recordCustomerEvent } from './customer-records.js';
import { settleDirectoryVerification, unverifiedCustomers, type CustomerRow } from './store.js';

/**
 * The `customers.recheck-directory` pass: live customers whose SIRET (or SIREN) no directory answered about
 * (Sirene and the platform down when they were written, or imported by CSV) are looked up again,
 * every 10 minutes, a batch at a time. Found: `verified`, with the registry's non-disclosure
 * markers added; unknown or closed: `not_found` (the customer exists: nothing is refused, the
 * resource says it); no answer: left `unverified` for the next pass. Each settled check is a
 * `customer.updated`.
 */
export const directoryRecheckEveryMs = 10 * 60_000;
const batchSize = 100;

async function recheckOne(deps: Pick<Deps, 'db' | 'config' | 'clock'>, row: CustomerRow): Promise<boolean> {
  const identifier = directoryIdentifierOf(row);
  if (identifier === null) return false;
  const scope = { companyId: row.companyId, livemode: true };
  const now = deps.clock.now();
  const directory = companyDirectory(deps, scope, now);
  const entry = await (identifier === row.siret ? directory.lookup(identifier) : directory.lookupSiren!(identifier));
  if (entry?.verification === 'unverified') return false;
  const registryNonDisclosure = entry
    ? withMarkers(fieldsOf(row), entry.nonDisclosed).registryNonDisclosure
    : row.registryNonDisclosure;
  const ctx: CallContext = { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now };
  return inTransaction(deps.db, ctx, async (tx) => {
    const settled = await settleDirectoryVerification(tx, scope, row.id, row, {
      directoryVerification: entry ? 'verified' : 'not_found',
      registryNonDisclosure,
      updated: now,
    });
    if (settled) await recordCustomerEvent(tx, ctx, 'customer.updated', settled);
    return settled !== undefined;
  });
}

/** One pass over every company (or the given ones); returns how many checks it settled. */
export async function recheckUnverifiedIdentities(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  companyIds?: string[],
): Promise<number> {
  const rows = await inTransaction(deps.db, null, (tx) => unverifiedCustomers(tx, 'directory', batchSize, companyIds));
  let settled = 0;
  // One at a time: Sirene allows 30 requests a minute per key.
  for (const row of rows) if (await recheckOne(deps, row)) settled++;
  return settled;
}
