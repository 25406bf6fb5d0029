import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toEstablishment } from './service.js';
import { establishmentRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: its establishments. */
export async function establishmentRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await establishmentRowsAfter(tx, scope, after, limit)).map((row) => ({
    key: row.id,
    record: toEstablishment(row),
  }));
}
