import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toRecurringInvoice } from './recurring-record.js';
import { recurringRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: the recurring invoices as the API shows them. */
export async function recurringRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await recurringRowsAfter(tx, scope, after, limit)).map((row) => ({
    key: row.id,
    record: toRecurringInvoice(row),
  }));
}
