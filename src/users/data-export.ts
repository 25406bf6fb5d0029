import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { userOf } from './service.js';
import { userRowsAfter } from './store.js';

/**
 * What the data-protection export reads of this capability: the company's dashboard users (they
 * belong to both environments, so both exports carry them), never a password or its hash.
 */
export async function userRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await userRowsAfter(tx, scope.companyId, after, limit)).map((row) => ({ key: row.id, record: userOf(row) }));
}
