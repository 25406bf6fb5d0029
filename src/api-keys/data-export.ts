import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toApiKeyResource } from './service.js';
import { keyRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: the environment's keys, never a secret or its hash. */
export async function apiKeyRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await keyRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toApiKeyResource(row) }));
}
