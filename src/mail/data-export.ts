import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { documentEmailRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: the documents it e-mailed (or logged). */
export async function documentEmailRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  const rows = await documentEmailRowsAfter(tx, scope, after, limit);
  // The lease columns are the queue's bookkeeping; the attachment is the document's own file.
  return rows.map(
    ({ lockToken: _lockToken, lockedUntil: _lockedUntil, companyId: _companyId, attachment, ...email }) => ({
      key: email.id,
      record: { object: 'document_email', ...email, attachment: attachment ? attachment.fileName : null },
    }),
  );
}
