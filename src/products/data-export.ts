import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toProduct } from './service.js';
import { productRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: its products, deleted ones too. */
export async function productRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await productRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toProduct(row) }));
}
