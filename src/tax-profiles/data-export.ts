import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toTaxProfile } from './service.js';
import { profileRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: its tax profile revisions. */
export async function taxProfileRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await profileRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toTaxProfile(row) }));
}
