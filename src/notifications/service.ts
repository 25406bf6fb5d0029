import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction } from '../db/transaction.js';
import { newId } from '../kernel/ids.js';
import { companyEmail } from '../companies/service.js';
import { createClaimLoop, type ClaimLoop } from '../workers/claim-loop.js';
import { claimDueEmails, emailChannel, insertEmail, settleEmail, type EmailRow } from './store.js';

/**
 * Operational e-mails (failing webhook endpoints...). An e-mail is a row written in the
 * transaction that decides it, then sent by a leased worker: sent once, retried after a failure
 * or a crash (the lease lapses), never lost between the decision and the sending.
 */

export interface EmailMessage {
  subject: string;
  body: string;
}

/** Attempts at sending one e-mail before it is marked failed. */
export const maxEmailAttempts = 5;
/** A lease outlives an SMTP exchange, so only a dead worker's e-mails are taken over. */
const leaseMs = 120_000;

/** Minutes before a failed attempt is retried: 1, 5, 30, 120. */
export function emailRetryDelayMs(attempts: number): number {
  return [1, 5, 30, 120][Math.min(attempts, 4) - 1]! * 60_000;
}

/**
 * Records an e-mail to the company's operational address, in the caller's transaction.
 * Test-mode e-mails are logged and never sent (sandbox rule); so are e-mails without a
 * recipient or without an SMTP server. The others are sent by the e-mail worker.
 */
export async function queueCompanyEmail(
  tx: Executor,
  scope: Scope,
  message: EmailMessage,
  now: Date,
  canSend: boolean,
): Promise<void> {
  const to = await companyEmail(tx, scope.companyId);
  const pending = scope.livemode && to !== null && canSend;
  await insertEmail(tx, {
    ...scope,
    id: newId('email', now),
    to,
    subject: message.subject,
    body: message.body,
    status: pending ? 'pending' : 'logged',
    error: null,
    attempts: 0,
    nextAttemptAt: pending ? now : null,
    lockedUntil: null,
    lockToken: null,
    created: now,
  });
}

/** Sends pending e-mails through the SMTP server; none is started without one. */
export function createEmailWorker(deps: Pick<Deps, 'db' | 'pool' | 'mailer' | 'log' | 'clock'>): ClaimLoop {
  const mailer = deps.mailer;
  return createClaimLoop<{ email: EmailRow; token: string }>({
    pool: deps.pool,
    channel: emailChannel,
    log: deps.log,
    concurrency: 4,
    pollMs: 1000,
    claim: async (limit) => {
      if (!mailer) return [];
      const token = randomUUID();
      const rows = await inTransaction(deps.db, null, (tx) =>
        claimDueEmails(tx, { now: deps.clock.now(), limit, leaseMs, token }),
      );
      return rows.map((email) => ({ email, token }));
    },
    handle: async ({ email, token }) => {
      try {
        await mailer!.send({ to: email.to!, subject: email.subject, text: email.body });
        await settleEmail(deps.db, email, token, { status: 'sent', error: null, nextAttemptAt: null });
      } catch (error) {
        const last = email.attempts >= maxEmailAttempts;
        const message = (error as Error).message.slice(0, 500);
        deps.log.warn({ err: error, email: email.id, attempts: email.attempts, last }, 'e-mail not sent');
        const retryAt = new Date(deps.clock.now().getTime() + emailRetryDelayMs(email.attempts));
        await settleEmail(deps.db, email, token, {
          status: last ? 'failed' : 'pending',
          error: message,
          nextAttemptAt: last ? null : retryAt,
        });
      }
    },
    describe: ({ email }) => ({ email: email.id }),
  });
}
