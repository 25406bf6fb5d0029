import type { Tx } from '../db/database.js';
import type { CallContext } from '../db/transaction.js';

/**
 * Where an export's file counts against the plan's storage (contract, Limits: 100 MB, 1 GB,
 * 10 GB). The subscriptions capability owns the storage quota; until it lands these do nothing.
 * `countExportStorage` runs in the transaction that completes the file, with its final size: a
 * quota that refuses throws there (`storage_quota_exceeded`), and nothing of the last batch
 * commits. `releaseExportStorage` runs in the transaction that deletes an expired file.
 */
export async function countExportStorage(
  _tx: Tx,
  _ctx: CallContext,
  _file: { exportId: string; bytes: number },
): Promise<void> {}

export async function releaseExportStorage(
  _tx: Tx,
  _scope: CallContext['scope'],
  _file: { exportId: string; bytes: number },
): Promise<void> {}
