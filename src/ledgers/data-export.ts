import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { ledgerEntryRowsAfter, ledgerRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: its EU B2C threshold ledgers and their movements, as stored. */
export async function ledgerRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  const rows = await ledgerRowsAfter(tx, scope, after, limit);
  return rows.map(({ companyId: _companyId, ...ledger }) => ({
    key: ledger.id,
    record: { object: 'eu_threshold_ledger', ...ledger },
  }));
}

export async function ledgerEntryRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  const rows = await ledgerEntryRowsAfter(tx, scope, after, limit);
  return rows.map(({ companyId: _companyId, ...entry }) => ({
    key: entry.id,
    record: { object: 'ledger_entry', ...entry },
  }));
}
