import { and, eq, sql } from 'drizzle-orm';
import type { Scope } from '../db/scope.js';
import { rowsAfter } from '../db/keyset.js';
import type { Executor } from '../db/database.js';
import { claimLeased } from '../db/leased-claim.js';
import { emails } from './schema.js';
import { notifyOnCommit } from '../db/commit-notice.js';

export type EmailRow = typeof emails.$inferSelect;

/** Wakes the e-mail workers of every node once the transaction that queued an e-mail commits. */
export const emailChannel = 'facteur_emails';

export async function insertEmail(db: Executor, row: EmailRow): Promise<void> {
  await db.insert(emails).values(row);
  if (row.status === 'pending') await notifyOnCommit(db, emailChannel);
}

/** Pending e-mails due now, leased to `token`; each claim counts as an attempt. */
export async function claimDueEmails(
  db: Executor,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
): Promise<EmailRow[]> {
  const at = sql`${lease.now.toISOString()}::timestamptz`;
  const claimed = await claimLeased(
    db,
    {
      table: 'emails',
      key: ['company_id', 'id'],
      due: sql`t.status = 'pending' and t.next_attempt_at <= ${at}`,
      order: sql`t.next_attempt_at`,
      set: sql`attempts = t.attempts + 1`,
      returning: sql`t.company_id, t.id`,
    },
    lease,
  );
  if (claimed.length === 0) return [];
  return db
    .select()
    .from(emails)
    .where(
      and(
        sql`(${emails.companyId}, ${emails.id}) in (${sql.join(
          claimed.map((row) => sql`(${row.company_id}, ${row.id})`),
          sql`, `,
        )})`,
        eq(emails.lockToken, lease.token),
      ),
    );
}

/** Ends a leased e-mail's attempt; false when the lease was lost (another worker took it over). */
export async function settleEmail(
  db: Executor,
  email: Pick<EmailRow, 'companyId' | 'id'>,
  token: string,
  changes: Pick<EmailRow, 'status' | 'error' | 'nextAttemptAt'>,
): Promise<boolean> {
  const rows = await db
    .update(emails)
    .set({ ...changes, lockedUntil: null, lockToken: null })
    .where(and(eq(emails.companyId, email.companyId), eq(emails.id, email.id), eq(emails.lockToken, token)))
    .returning({ id: emails.id });
  return rows.length > 0;
}

/** The scope's rows in id order after `after`: the data-protection export. */
export async function emailRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, emails, scope, after, limit);
}
