import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { inScope, type Scope } from '../db/scope.js';
import { claimLeased } from '../db/leased-claim.js';
import { notifyOnCommit } from '../db/commit-notice.js';
import { rowsAfter } from '../db/keyset.js';
import { documentEmails } from './schema.js';

export type DocumentEmailRow = typeof documentEmails.$inferSelect;

/** Wakes the document e-mail workers of every node once the transaction that queued one commits. */
export const documentEmailChannel = 'facteur_document_emails';

export async function insertDocumentEmail(db: Executor, row: DocumentEmailRow): Promise<void> {
  await db.insert(documentEmails).values(row);
  if (row.status === 'pending') await notifyOnCommit(db, documentEmailChannel);
}

/**
 * Due e-mails leased to `token`, each claim an attempt. A `pending` one becomes `sending` in the
 * claim's own commit, before any SMTP exchange; a `sending` one whose lease lapsed was held by a
 * worker that died during its exchange: it becomes `unconfirmed` and is never sent again.
 */
export async function claimDueDocumentEmails(
  db: Executor,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
  companyIds?: readonly string[],
): Promise<DocumentEmailRow[]> {
  const at = sql`${lease.now.toISOString()}::timestamptz`;
  const ofCompanies =
    companyIds === undefined
      ? sql``
      : companyIds.length === 0
        ? sql` and false`
        : sql` and t.company_id in (${sql.join(
            companyIds.map((id) => sql`${id}`),
            sql`, `,
          )})`;
  const claimed = await claimLeased(
    db,
    {
      table: 'document_emails',
      key: ['company_id', 'id'],
      due: sql`t.status in ('pending', 'sending') and t.next_attempt_at <= ${at}${ofCompanies}`,
      order: sql`t.next_attempt_at`,
      set: sql`attempts = t.attempts + case when t.status = 'pending' then 1 else 0 end,
        status = case when t.status = 'pending' then 'sending' else 'unconfirmed' end`,
      returning: sql`t.company_id, t.id`,
    },
    lease,
  );
  if (claimed.length === 0) return [];
  return db
    .select()
    .from(documentEmails)
    .where(
      and(
        sql`(${documentEmails.companyId}, ${documentEmails.id}) in (${sql.join(
          claimed.map((row) => sql`(${row.company_id}, ${row.id})`),
          sql`, `,
        )})`,
        eq(documentEmails.lockToken, lease.token),
      ),
    );
}

/** Ends a leased attempt; false when the lease was lost (another worker took the e-mail over). */
export async function settleDocumentEmail(
  db: Executor,
  email: Pick<DocumentEmailRow, 'companyId' | 'id'>,
  token: string,
  changes: Partial<Pick<DocumentEmailRow, 'status' | 'error' | 'nextAttemptAt' | 'smtpResponse' | 'sentAt'>>,
): Promise<boolean> {
  const rows = await db
    .update(documentEmails)
    .set({ ...changes, lockedUntil: null, lockToken: null })
    .where(
      and(
        eq(documentEmails.companyId, email.companyId),
        eq(documentEmails.id, email.id),
        eq(documentEmails.lockToken, token),
      ),
    )
    .returning({ id: documentEmails.id });
  return rows.length > 0;
}

/** The e-mails of one document, oldest first. */
export async function documentEmailsOf(db: Executor, scope: Scope, documentId: string): Promise<DocumentEmailRow[]> {
  return db
    .select()
    .from(documentEmails)
    .where(
      and(
        eq(documentEmails.companyId, scope.companyId),
        eq(documentEmails.livemode, scope.livemode),
        eq(documentEmails.documentId, documentId),
      ),
    )
    .orderBy(documentEmails.id);
}

export async function deleteScopeDocumentEmails(db: Executor, scope: Scope): Promise<number> {
  const rows = await db
    .delete(documentEmails)
    .where(and(eq(documentEmails.companyId, scope.companyId), eq(documentEmails.livemode, scope.livemode)))
    .returning({ id: documentEmails.id });
  return rows.length;
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function documentEmailRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, documentEmails, scope, after, limit);
}

/** The scope's newest e-mail that met the SMTP server (sent, bounced, retried, failed, in doubt). */
export async function latestScopeSmtpExchange(db: Executor, scope: Scope): Promise<DocumentEmailRow | undefined> {
  const [row] = await db
    .select()
    .from(documentEmails)
    .where(and(inScope(documentEmails, scope), gt(documentEmails.attempts, 0)))
    .orderBy(desc(documentEmails.id))
    .limit(1);
  return row;
}
