import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toJob } from './service.js';
import { jobRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: its jobs (their state and result; the file of a running import is not kept). */
export async function jobRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await jobRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toJob(row) }));
}
