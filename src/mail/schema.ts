import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';

/** The file attached to a document e-mail: read from the document's stored files when it is sent. */
export interface MailAttachment {
  fileName: string;
  contentType: string;
  /** Base64 of the frozen file, copied when the e-mail is queued (the file never changes afterwards). */
  contentBase64: string;
}

/** The event an e-mail emits once the SMTP server accepted it (`quote.sent`, `invoice.sent`...). */
export interface MailEvent {
  type: string;
  data: Record<string, unknown>;
  requestId: string | null;
  apiVersion: string;
}

/**
 * Documents e-mailed to customers (`em_`): quotes, invoices and credit notes that do not go through
 * a platform. Written in the transaction that sends the document, then sent once by a leased
 * worker; test-mode e-mails are recorded `logged` and never sent.
 *
 *   logged     test mode, no recipient, or no SMTP server: recorded, never sent
 *   pending    to send (`nextAttemptAt`); retried after a 4xx or a connection failure
 *   sending    an SMTP exchange began (committed before it): if the worker dies here the e-mail is
 *              in doubt and becomes `unconfirmed`, never sent a second time
 *   sent       accepted by the SMTP server (`smtpResponse`), its event recorded
 *   bounced    refused for good (5xx), or retries used up (`failed`)
 */
export const documentEmails = pgTable(
  'document_emails',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    documentKind: text('document_kind').notNull(),
    documentId: text('document_id').notNull(),
    /** `<em_...@host>`: derived from the row, the same on every attempt. */
    messageId: text('message_id').notNull(),
    from: text('from').notNull(),
    replyTo: text('reply_to'),
    to: text('to'),
    language: text('language').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    attachment: jsonb('attachment').$type<MailAttachment | null>(),
    event: jsonb('event').$type<MailEvent | null>(),
    status: text('status').notNull(),
    smtpResponse: text('smtp_response'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    lockedUntil: instant('locked_until'),
    lockToken: text('lock_token'),
    created: instant('created').notNull(),
    sentAt: instant('sent_at'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('document_emails_by_document').on(t.companyId, t.livemode, t.documentId, t.id),
    index('document_emails_due')
      .on(t.nextAttemptAt)
      .where(sql`status in ('pending', 'sending')`),
  ],
);
