import { and, eq } from 'drizzle-orm';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import { inScope, type Scope } from '../db/scope.js';
import { newId } from '../kernel/ids.js';
import { emails } from './schema.js';

export interface EmailMessage {
  to: string | null;
  subject: string;
  body: string;
}

/**
 * Records an e-mail in the caller's transaction. Test-mode e-mails are logged and never sent
 * (sandbox rule); so are e-mails without a recipient or without an SMTP server. The others are
 * sent after the commit by `sendPendingEmails`.
 */
export async function queueEmail(
  tx: Executor,
  scope: Scope,
  message: EmailMessage,
  now: Date,
  canSend: boolean,
): Promise<void> {
  const status = scope.livemode && message.to && canSend ? 'pending' : 'logged';
  await tx.insert(emails).values({
    ...scope,
    id: newId('email', now),
    to: message.to,
    subject: message.subject,
    body: message.body,
    status,
    error: null,
    created: now,
  });
}

export async function sendPendingEmails(deps: Pick<Deps, 'db' | 'mailer' | 'log'>): Promise<number> {
  if (!deps.mailer) return 0;
  const pending = await deps.db.select().from(emails).where(eq(emails.status, 'pending')).limit(100);
  for (const email of pending) {
    const where = and(eq(emails.companyId, email.companyId), eq(emails.id, email.id));
    try {
      await deps.mailer.send({ to: email.to!, subject: email.subject, text: email.body });
      await deps.db.update(emails).set({ status: 'sent' }).where(where);
    } catch (error) {
      deps.log.warn({ err: error, email: email.id }, 'e-mail not sent');
      await deps.db
        .update(emails)
        .set({ status: 'failed', error: (error as Error).message.slice(0, 500) })
        .where(where);
    }
  }
  return pending.length;
}

export async function emailsOf(db: Executor, scope: Scope) {
  return db.select().from(emails).where(inScope(emails, scope)).orderBy(emails.id);
}
