import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toTaxDecision } from './service.js';
import { decisionRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: its tax decisions. */
export async function decisionRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await decisionRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toTaxDecision(row) }));
}
