import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  boolean,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';
import { readerColumns } from '../db/reader-claim.js';
import type { ReceivedDocument, ValidationError } from './received-record.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Received (purchase) invoices (`rec_`): one per invoice flow the platform delivered to the
 * company, whatever path brought it (callback or polling): `flow_id` is unique per company and
 * environment, the key that makes an ingestion happen once.
 */
export const receivedInvoices = pgTable(
  'received_invoices',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    /** The platform's flow id of the invoice flow. */
    flowId: text('flow_id').notNull(),
    /** The establishment whose platform delivered it (its answers go back there); null: the sandbox or an upload. */
    establishmentId: text('establishment_id'),
    /** `pa_` reference shown to the client. */
    paInvoiceId: text('pa_invoice_id').notNull(),
    /** `received`, `approved`, `refused`, `disputed`, `suspended`, `payment_transmitted`. */
    status: text('status').notNull(),
    /** `CII`, `UBL` or `Factur-X`. */
    syntax: text('syntax').notNull(),
    senderSiret: text('sender_siret'),
    senderSiren: text('sender_siren'),
    senderName: text('sender_name'),
    number: text('number').notNull(),
    issueDate: text('issue_date'),
    /** The invoice as read from its XML (lines, VAT breakdown, totals in cents...). */
    document: jsonb('document').$type<ReceivedDocument>().notNull(),
    /** Null: no official artefact could judge it (UBL). */
    conformant: boolean('conformant'),
    /** The first `keptValidationErrors` (received-record.ts) of the file's errors. */
    validationErrors: jsonb('validation_errors').$type<ValidationError[]>().notNull(),
    /** How many errors the validation found, all of them. */
    validationErrorCount: integer('validation_error_count').notNull(),
    validators: jsonb('validators').$type<string[]>().notNull(),
    /** The rule set (FNFE-MPE version) in force on the date of receipt, which judged it; null when nothing did. */
    ruleSet: text('rule_set'),
    receivedAt: instant('received_at').notNull(),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('received_invoices_flow').on(t.companyId, t.livemode, t.flowId),
    index('received_invoices_list').on(t.companyId, t.livemode, t.id),
  ],
);

/** The files of a received invoice: the original byte for byte, and the PDF visual when rendered. */
export const receivedInvoiceFiles = pgTable(
  'received_invoice_files',
  {
    ...tenantColumns(),
    receivedInvoiceId: text('received_invoice_id').notNull(),
    /** `original` or `pdf` (rendered from the XML when none came). */
    kind: text('kind').notNull(),
    contentType: text('content_type').notNull(),
    name: text('name').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    bytes: bytea('bytes').notNull(),
    created: instant('created').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.livemode, t.receivedInvoiceId, t.kind] })],
);

/** Every status of a received invoice: its reception, and each answer sent to the platform. */
export const receivedInvoiceHistory = pgTable(
  'received_invoice_history',
  {
    ...tenantColumns(),
    receivedInvoiceId: text('received_invoice_id').notNull(),
    seq: integer('seq').notNull(),
    /** `fr:203` at reception, then `fr:205`, `fr:210`, `fr:207`, `fr:208`, `fr:211`. */
    status: text('status').notNull(),
    action: text('action'),
    reasonCode: text('reason_code'),
    reason: text('reason'),
    /** The CDAR message id sent, and the platform's flow id of its deposit (null in the sandbox). */
    messageId: text('message_id'),
    platformFlowId: text('platform_flow_id'),
    at: instant('at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.livemode, t.receivedInvoiceId, t.seq] }),
    index('received_invoice_history_at').on(t.companyId, t.livemode, t.at),
  ],
);

/**
 * The received invoices' readers before the one inbox (platform_readers reads every flow since
 * migration 0029, which took their cursors): what is still read of a row is its webhook
 * subscription, whose callbacks on `/platform-callbacks/received/...` the platform may still send,
 * signed with its key (sealed). Forgotten when the connection changes.
 */
export const receivedReaders = pgTable('received_readers', readerColumns(), (t) => [
  primaryKey({ columns: [t.companyId, t.livemode, t.establishmentId] }),
]);
