import type { Tx } from '../db/database.js';
import type { CallContext } from '../db/transaction.js';
import { releaseStorage, reserveStorage } from '../subscriptions/service.js';

/**
 * Where an export's file counts against the plan's storage (contract, Limits: 100 MB, 1 GB,
 * 10 GB), owned by the subscriptions capability. `countExportStorage` runs in the transaction
 * that completes the file, with its final size: a quota that refuses throws there
 * (`storage_quota_exceeded`), and nothing of the last batch commits. `releaseExportStorage` runs
 * in the transaction that deletes an expired file.
 */
export async function countExportStorage(
  tx: Tx,
  ctx: CallContext,
  file: { exportId: string; bytes: number },
): Promise<void> {
  await reserveStorage(tx, ctx.scope, file.bytes);
}

export async function releaseExportStorage(
  tx: Tx,
  scope: CallContext['scope'],
  file: { exportId: string; bytes: number },
): Promise<void> {
  await releaseStorage(tx, scope, file.bytes);
}
