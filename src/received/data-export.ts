import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { historyOf, receivedRowsAfter } from './store.js';
import { toHistoryEntry, toReceivedInvoice } from './received-record.js';

/** What the data-protection export reads of this capability: its received invoices as the API shows them, with their history. */
export async function receivedRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  const rows = await receivedRowsAfter(tx, scope, after, limit);
  return Promise.all(
    rows.map(async (row) => ({
      key: row.id,
      record: { ...toReceivedInvoice(row), history: (await historyOf(tx, scope, row.id)).map(toHistoryEntry) },
    })),
  );
}
