import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { emailRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: the e-mails it sent (or recorded) to the company. */
export async function emailRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  const rows = await emailRowsAfter(tx, scope, after, limit);
  // The lease columns are the queue's bookkeeping, not the company's data.
  return rows.map(({ lockToken: _lockToken, lockedUntil: _lockedUntil, companyId: _companyId, ...email }) => ({
    key: email.id,
    record: { object: 'email', ...email },
  }));
}
