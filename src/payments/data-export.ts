import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toPayment } from './service.js';
import { paymentRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: its payments. */
export async function paymentRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await paymentRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toPayment(row) }));
}
