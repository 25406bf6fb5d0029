import { sql } from 'drizzle-orm';
import { bigint, customType, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, tenantColumns } from '../db/columns.js';
import type { BuyerSnapshot } from './buyer.js';
import type { DocumentLine } from './lines.js';
import type { DocumentAdjustment } from '../kernel/document-adjustments.js';
import type { SellerBlock } from '../einvoice/document-model.js';
import type { Einvoicing, HistoryEntry, TaxSnapshot } from './document-record.js';
import type { FileFailure, StoredFiles } from './document-files.js';
import type { DepositReference, InvoiceType } from './deposit-invoices.js';
import type { AttachmentRecord } from './attachment-rules.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Invoices and credit notes (`kind`): one table, since both are invoice-type documents with the
 * same three axes, the same finalization and the same life cycle. `status` is the summary, a pure
 * function of the axes, kept beside them for the list filter.
 */
export const invoices = pgTable(
  'invoices',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    /** `invoice` or `credit_note`. */
    kind: text('kind').notNull(),
    number: text('number'),
    series: text('series'),
    status: text('status').notNull(),
    documentStatus: text('document_status').notNull(),
    transmissionStatus: text('transmission_status').notNull(),
    transmissionDetail: text('transmission_detail'),
    paymentStatus: text('payment_status').notNull(),
    customerId: text('customer_id'),
    /** The inline buyer of a draft, or the buyer frozen at finalization (a customer's too). */
    buyer: jsonb('buyer').$type<BuyerSnapshot | null>(),
    /** The seller frozen at finalization (identity + establishment); null on drafts. */
    seller: jsonb('seller').$type<SellerBlock | null>(),
    currency: text('currency').notNull(),
    taxSource: text('tax_source'),
    taxDecisionId: text('tax_decision_id'),
    /** The decision this document consumed at finalization: a final decision backs one document. */
    backingDecisionId: text('backing_decision_id'),
    lines: jsonb('lines').$type<DocumentLine[]>().notNull(),
    /** BG-20 / BG-21 as the draft states them; the tax decision splits them over the VAT groups. */
    allowances: jsonb('allowances').$type<DocumentAdjustment[]>().notNull().default([]),
    charges: jsonb('charges').$type<DocumentAdjustment[]>().notNull().default([]),
    issueDate: text('issue_date'),
    dueDate: text('due_date'),
    deliveryDate: text('delivery_date'),
    paymentTermsDays: integer('payment_terms_days'),
    paymentTerms: text('payment_terms'),
    notes: text('notes'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    /** Cents. `subtotal` is the sum of the line nets; VAT and total are fixed by the decision at finalization. */
    subtotal: bigint('subtotal', { mode: 'number' }).notNull(),
    totalTax: bigint('total_tax', { mode: 'number' }),
    total: bigint('total', { mode: 'number' }),
    amountPaid: bigint('amount_paid', { mode: 'number' }).notNull(),
    amountRefunded: bigint('amount_refunded', { mode: 'number' }).notNull(),
    /** Finalized credit notes of this invoice (cents). */
    amountCredited: bigint('amount_credited', { mode: 'number' }).notNull(),
    /** `standard`, or `deposit`: a deposit invoice (BT-3 386) for a share of an order. */
    invoiceType: text('invoice_type').$type<InvoiceType>().notNull().default('standard'),
    /** On a final invoice: the deposit invoices it deducts (ids on a draft; number, date and amount frozen at finalization). */
    deposits: jsonb('deposits').$type<DepositReference[]>().notNull().default([]),
    /** Cents of the deposits deducted, frozen at finalization (BT-113): the buyer owes the total less them. */
    amountDeducted: bigint('amount_deducted', { mode: 'number' }).notNull().default(0),
    /** On a deposit invoice: the final invoice that deducted it (once). */
    deductedBy: text('deducted_by'),
    /** BG-24: the supporting documents' metadata, in their order; their bytes are `document_attachments` rows. */
    attachments: jsonb('attachments').$type<AttachmentRecord[]>().notNull().default([]),
    tax: jsonb('tax').$type<TaxSnapshot | null>(),
    einvoicing: jsonb('einvoicing').$type<Einvoicing>().notNull(),
    history: jsonb('history').$type<HistoryEntry[]>().notNull(),
    relatedInvoiceId: text('related_invoice_id'),
    relatedInvoiceNumber: text('related_invoice_number'),
    quoteId: text('quote_id'),
    /** The recurring invoice (`rinv_`) that generated this invoice. */
    recurringInvoiceId: text('recurring_invoice_id'),
    /** The public payment page's token, given at finalization. */
    portalToken: text('portal_token'),
    /** The instant the due date has passed (the start of the next day, UTC): the overdue pass looks at it. */
    dueAt: instant('due_at'),
    overdueAt: instant('overdue_at'),
    finalizedAt: instant('finalized_at'),
    created: instant('created').notNull(),
    updated: instant('updated').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('invoices_list').on(t.companyId, t.livemode, t.kind, t.id),
    index('invoices_by_status').on(t.companyId, t.livemode, t.kind, t.status, t.id),
    index('invoices_by_customer').on(t.companyId, t.livemode, t.kind, t.customerId, t.id),
    uniqueIndex('invoices_number')
      .on(t.companyId, t.livemode, t.number)
      .where(sql`number is not null`),
    uniqueIndex('invoices_backing_decision')
      .on(t.companyId, t.backingDecisionId)
      .where(sql`backing_decision_id is not null`),
    uniqueIndex('invoices_portal_token')
      .on(t.portalToken)
      .where(sql`portal_token is not null`),
    index('invoices_overdue_due')
      .on(t.dueAt)
      .where(sql`overdue_at is null and document_status = 'finalized'`),
    index('invoices_by_recurring')
      .on(t.companyId, t.livemode, t.recurringInvoiceId, t.id)
      .where(sql`recurring_invoice_id is not null`),
    index('invoices_related')
      .on(t.companyId, t.relatedInvoiceId)
      .where(sql`related_invoice_id is not null`),
    // The accounting exports read issued documents in the order of the books.
    index('invoices_accounting')
      .on(t.companyId, t.livemode, t.issueDate, t.finalizedAt, t.id)
      .where(sql`number is not null`),
    // E-reporting reads the documents whose transactions are due, in that same order: without an
    // index of their own the planner, blind to the jsonb test's selectivity, sorted the whole
    // month for every page.
    index('invoices_ereportable')
      .on(t.companyId, t.livemode, t.issueDate, t.finalizedAt, t.id)
      .where(sql`number is not null and (tax->'obligations'->'ereportingTransaction'->>'state') = 'due'`),
  ],
);

/** Refunds of credit notes (`ref_`): money given back to the buyer, in cents. */
export const refunds = pgTable(
  'refunds',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    creditNoteId: text('credit_note_id').notNull(),
    invoiceId: text('invoice_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    method: text('method').notNull(),
    reference: text('reference'),
    refundedAt: instant('refunded_at').notNull(),
    /** The negative payment statement (status 212) owed for it, as a payment's (payments/collection-statement.ts); null: none. */
    fr212: jsonb('fr212').$type<Record<string, unknown> | null>(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    created: instant('created').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('refunds_by_credit_note').on(t.companyId, t.livemode, t.creditNoteId, t.id),
    // A card provider's refunds are counted per invoice and payment reference (credit-notes.ts refundUpTo).
    index('refunds_by_invoice').on(t.companyId, t.livemode, t.invoiceId),
    index('refunds_accounting').on(t.companyId, t.livemode, t.refundedAt, t.id),
    // The statements pass reads the refunds' statements not sent yet.
    index('refunds_statements_open')
      .on(t.id)
      .where(sql`${t.fr212} is not null and ${t.fr212}->>'sentAt' is null`),
  ],
);

/**
 * The generated files of a finalized document (Factur-X, CII, readable PDF), one row per
 * document. The finalization writes it `pending` in its own transaction (an outbox: a crash loses
 * no generation); the file worker claims it (`generating`, leased), builds and validates the
 * files outside any transaction, and stores them `ready` with their SHA-256, or `failed` with the
 * rules that failed. The bytes live here, in PostgreSQL (bytea, TOASTed out of line).
 */
export const documentFiles = pgTable(
  'document_files',
  {
    ...tenantColumns(),
    documentId: text('document_id').notNull(),
    /** `invoice` or `credit_note`. */
    documentKind: text('document_kind').notNull(),
    /** `pending`, `generating` (claimed, leased), `ready` or `failed`. */
    state: text('state').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    lockedUntil: instant('locked_until'),
    lockToken: text('lock_token'),
    /** Why a failed generation failed: the validators' rule ids, or the error. */
    failure: jsonb('failure').$type<FileFailure | null>(),
    /** Each ready file's SHA-256 (hex) and size in bytes. */
    files: jsonb('files').$type<StoredFiles | null>(),
    facturx: bytea('facturx'),
    xml: bytea('xml'),
    pdf: bytea('pdf'),
    /** The UBL 2.1 Invoice or CreditNote; null for a document generated before UBL was issued. */
    ubl: bytea('ubl'),
    /** The rule set (FNFE-MPE version) in force on the issue date, which validated the files; null before it was recorded. */
    ruleSet: text('rule_set'),
    /** The first download of a file of a document outside e-invoicing: its manual sending (`invoice.sent`). */
    downloadedAt: instant('downloaded_at'),
    created: instant('created').notNull(),
    generatedAt: instant('generated_at'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.documentId] }),
    index('document_files_due')
      .on(t.nextAttemptAt)
      .where(sql`state in ('pending', 'generating')`),
  ],
);

/**
 * The bytes of a document's attachments (`att_`), one row each: their metadata is the document's
 * `attachments`. Written and deleted only while the document is a draft, under its row lock.
 */
export const documentAttachments = pgTable(
  'document_attachments',
  {
    ...tenantColumns(),
    id: text('id').notNull(),
    documentId: text('document_id').notNull(),
    content: bytea('content').notNull(),
    created: instant('created').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('document_attachments_by_document').on(t.companyId, t.documentId),
  ],
);
