import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toQuote } from './service.js';
import { quoteRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: its quotes. */
export async function quoteRecords(tx: Tx, scope: Scope, after: string | null, limit: number, publicUrl: string) {
  return (await quoteRowsAfter(tx, scope, after, limit)).map((row) => ({
    key: row.id,
    record: toQuote(row, publicUrl),
  }));
}
