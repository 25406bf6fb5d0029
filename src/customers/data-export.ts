import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toCustomer } from './customer-records.js';
import { customerRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: its customers, deleted ones too, as the API shows them. */
export async function customerRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await customerRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toCustomer(row) }));
}
