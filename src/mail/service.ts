import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { newId } from '../kernel/ids.js';
import {
  notConfigured,
  simulated,
  stateFromLastExchange,
  type OutsideServiceState,
} from '../kernel/outside-service.js';
import { companyEmail, companySeller } from '../companies/service.js';
import { queueCompanyEmail } from '../notifications/service.js';
import { recordEvent } from '../webhooks/service.js';
import { createClaimLoop, type ClaimLoop } from '../workers/claim-loop.js';
import type { MailAttachment, MailEvent } from './schema.js';
import { documentMailText, languageOfCountry, type MailedDocumentKind } from './templates.js';
import { senderIdentity } from './sender-identity.js';
import { mailRetryDelayMs, maxMailAttempts, smtpFailureOf } from './smtp-outcome.js';
import { createSmtpSender, type SmtpSender } from './smtp-sender.js';
import {
  claimDueDocumentEmails,
  deleteScopeDocumentEmails,
  documentEmailChannel,
  documentEmailsOf,
  insertDocumentEmail,
  latestScopeSmtpExchange,
  settleDocumentEmail,
  type DocumentEmailRow,
} from './store.js';

/**
 * Documents e-mailed to customers. The e-mail is a row written in the transaction that sends the
 * document; a leased worker sends it through SMTP and records the document's event (`quote.sent`,
 * `invoice.sent`, `credit_note.sent`) when the server accepted it. Test-mode e-mails are logged
 * (recorded, `logged`) and never sent; their event is recorded at once.
 *
 * Guarantee: at most once. The claim commits `sending` before the SMTP exchange and `sent` after
 * it; a worker that dies in between leaves the e-mail `unconfirmed` (the server may have it: the
 * Message-ID, the same on every attempt, lets its log tell), never sent a second time. Failures
 * before the server accepted the message (4xx, connection) are retried; a 5xx is a bounce.
 */

export interface DocumentMailRequest {
  kind: MailedDocumentKind;
  documentId: string;
  number: string;
  to: string | null;
  buyerName: string | null;
  /** The buyer's country (ISO 3166 alpha-2): the language of the e-mail. */
  country: string | null;
  amount: { cents: number; currency: string } | null;
  link: string | null;
  attachment: MailAttachment | null;
  /** The document's event once the e-mail leaves (or at once when it is only logged). */
  event: { type: string; data: Record<string, unknown> } | null;
}

export type QueuedMailStatus = 'logged' | 'pending';

export interface DocumentEmail {
  object: 'document_email';
  id: string;
  livemode: boolean;
  documentId: string;
  to: string | null;
  subject: string;
  status: string;
  messageId: string;
  attempts: number;
  error: string | null;
  created: string;
  sentAt: string | null;
}

/** A lease outlives an SMTP exchange (its time-outs included), so only a dead worker's e-mails are taken over. */
const leaseMs = 180_000;

function whyLogged(scope: Scope, to: string | null, canSend: boolean): string | null {
  if (!scope.livemode) return 'test mode: e-mails are logged, never sent';
  if (!to) return 'the customer has no e-mail address';
  if (!canSend) return 'no SMTP server configured (FACTEUR_SMTP_URL)';
  return null;
}

/** Queues the e-mail of a document in the caller's transaction; says whether it will be sent. */
export async function queueDocumentEmail(
  tx: Executor,
  ctx: CallContext,
  config: Pick<Deps['config'], 'smtpUrl' | 'mailFrom'>,
  request: DocumentMailRequest,
): Promise<QueuedMailStatus> {
  const company = await companySeller(tx, ctx.scope.companyId);
  const identity = senderIdentity(
    {
      name: company.legalName ?? company.name,
      tradeName: company.tradeName,
      contactEmail: company.contact?.email ?? null,
      email: await companyEmail(tx, ctx.scope.companyId),
    },
    config.mailFrom,
  );
  const language = languageOfCountry(request.country);
  const text = documentMailText(
    {
      kind: request.kind,
      number: request.number,
      sellerName: company.tradeName ?? company.legalName ?? company.name,
      buyerName: request.buyerName,
      amount: request.amount,
      link: request.link,
      attached: request.attachment !== null,
    },
    language,
  );
  const logged = whyLogged(ctx.scope, request.to, config.smtpUrl !== null);
  const id = newId('email', ctx.now);
  const event: MailEvent | null = request.event
    ? { ...request.event, requestId: ctx.requestId, apiVersion: ctx.apiVersion }
    : null;
  await insertDocumentEmail(tx, {
    ...ctx.scope,
    id,
    documentKind: request.kind,
    documentId: request.documentId,
    messageId: `<${id}.${ctx.scope.companyId}@${identity.domain}>`,
    from: identity.from,
    replyTo: identity.replyTo,
    to: request.to,
    language,
    subject: text.subject,
    body: text.body,
    attachment: logged ? null : request.attachment,
    event: logged ? null : event,
    status: logged ? 'logged' : 'pending',
    smtpResponse: null,
    error: logged,
    attempts: 0,
    nextAttemptAt: logged ? null : ctx.now,
    lockedUntil: null,
    lockToken: null,
    created: ctx.now,
    sentAt: null,
  });
  if (logged && request.event) await recordEvent(tx, ctx, request.event.type, request.event.data, ctx.now);
  return logged ? 'logged' : 'pending';
}

/** The e-mails of a document (sent, pending, logged, bounced), oldest first. */
export async function emailsOfDocument(db: Executor, scope: Scope, documentId: string): Promise<DocumentEmail[]> {
  return (await documentEmailsOf(db, scope, documentId)).map((row) => ({
    object: 'document_email',
    id: row.id,
    livemode: row.livemode,
    documentId: row.documentId,
    to: row.to,
    subject: row.subject,
    status: row.status,
    messageId: row.messageId,
    attempts: row.attempts,
    error: row.error,
    created: row.created.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  }));
}

export async function purgeTestDocumentEmails(tx: Tx, scope: Scope): Promise<number> {
  return deleteScopeDocumentEmails(tx, scope);
}

type WorkerDeps = Pick<Deps, 'db' | 'pool' | 'log' | 'clock' | 'config'>;

/** The accepted e-mail and its document's event, in one transaction (lost lease: nothing). */
async function recordSent(deps: WorkerDeps, email: DocumentEmailRow, token: string, response: string) {
  const now = deps.clock.now();
  const ctx: CallContext = {
    scope: { companyId: email.companyId, livemode: email.livemode },
    requestId: email.event?.requestId ?? null,
    idempotencyKey: null,
    apiVersion: email.event?.apiVersion ?? '',
    now,
  };
  await inTransaction(deps.db, ctx, async (tx) => {
    const settled = await settleDocumentEmail(tx, email, token, {
      status: 'sent',
      smtpResponse: response.slice(0, 500),
      error: null,
      nextAttemptAt: null,
      sentAt: now,
    });
    if (settled && email.event) await recordEvent(tx, ctx, email.event.type, email.event.data, now);
  });
}

/** A refusal for good: recorded as a bounce, and the company told at its operational address. */
async function recordBounce(deps: WorkerDeps, email: DocumentEmailRow, token: string, message: string) {
  const now = deps.clock.now();
  await inTransaction(deps.db, null, async (tx) => {
    if (!(await settleDocumentEmail(tx, email, token, { status: 'bounced', error: message, nextAttemptAt: null })))
      return;
    await queueCompanyEmail(
      tx,
      { companyId: email.companyId, livemode: email.livemode },
      {
        subject: `E-mail not delivered: ${email.subject}`,
        body: `The e-mail of ${email.documentId} to ${email.to} was refused: ${message}\nSend the document by other means.\n`,
      },
      now,
      deps.config.smtpUrl !== null,
    );
  });
  deps.log.warn({ email: email.id, document: email.documentId }, 'document e-mail bounced');
}

async function sendOne(deps: WorkerDeps, sender: SmtpSender, email: DocumentEmailRow, token: string) {
  if (email.status === 'unconfirmed') {
    await settleDocumentEmail(deps.db, email, token, { nextAttemptAt: null });
    deps.log.warn(
      { email: email.id, messageId: email.messageId },
      'document e-mail in doubt after a crash: not resent',
    );
    return;
  }
  let response: string;
  try {
    response = await sender.send({
      messageId: email.messageId,
      from: email.from,
      replyTo: email.replyTo,
      to: email.to!,
      subject: email.subject,
      text: email.body,
      attachment: email.attachment,
    });
  } catch (error) {
    const failure = smtpFailureOf(error);
    if (failure.kind === 'bounce') return recordBounce(deps, email, token, failure.message);
    const last = email.attempts >= maxMailAttempts;
    deps.log.warn(
      { email: email.id, attempts: email.attempts, last, reason: failure.message },
      'document e-mail not sent',
    );
    await settleDocumentEmail(deps.db, email, token, {
      status: last ? 'failed' : 'pending',
      error: failure.message,
      nextAttemptAt: last ? null : new Date(deps.clock.now().getTime() + mailRetryDelayMs(email.attempts)),
    });
    return;
  }
  await recordSent(deps, email, token, response);
}

export interface DocumentEmailWorkerOptions {
  /** The SMTP client (tests give one with short time-outs); by default that of `FACTEUR_SMTP_URL`. */
  sender?: SmtpSender;
  /** How long an SMTP exchange may last (leases outlive it). */
  timeoutMs?: number;
  /**
   * Only these companies' e-mails, read at each claim (tests: several workers, each with its own SMTP
   * server, share the suite's database); by default every company's.
   */
  companies?: () => readonly string[];
}

/** Sends queued document e-mails; claims nothing without an SMTP server. */
export function createDocumentEmailWorker(deps: WorkerDeps, options: DocumentEmailWorkerOptions = {}): ClaimLoop {
  const smtpUrl = deps.config.smtpUrl;
  const sender =
    options.sender ?? (smtpUrl ? createSmtpSender(smtpUrl, { timeoutMs: options.timeoutMs ?? 60_000 }) : null);
  const loop = createClaimLoop<{ email: DocumentEmailRow; token: string }>({
    pool: deps.pool,
    channel: documentEmailChannel,
    log: deps.log,
    concurrency: 4,
    pollMs: 1000,
    claim: async (limit) => {
      if (!sender) return [];
      const token = randomUUID();
      const rows = await inTransaction(deps.db, null, (tx) =>
        claimDueDocumentEmails(tx, { now: deps.clock.now(), limit, leaseMs, token }, options.companies?.()),
      );
      return rows.map((email) => ({ email, token }));
    },
    handle: ({ email, token }) => sendOne(deps, sender!, email, token),
    describe: ({ email }) => ({ email: email.id }),
  });
  return {
    ...loop,
    async stop() {
      await loop.stop();
      sender?.close();
    },
  };
}

/**
 * The SMTP server as the account sees it: test mode logs e-mails; in live none without
 * `FACTEUR_SMTP_URL`, else its health from the scope's last exchange (a retried or given-up
 * e-mail is a failure; a bounce is the recipient's server answering, not the service failing).
 */
export async function emailServiceState(deps: Pick<Deps, 'db' | 'config'>, scope: Scope): Promise<OutsideServiceState> {
  if (!scope.livemode) return simulated;
  if (deps.config.smtpUrl === null) return notConfigured;
  const last = await latestScopeSmtpExchange(deps.db, scope);
  if (!last) return stateFromLastExchange('smtp', null);
  const failed = last.status === 'failed' || (last.status === 'pending' && last.error !== null);
  return stateFromLastExchange('smtp', { at: last.sentAt ?? last.created, failure: failed ? last.error : null });
}
