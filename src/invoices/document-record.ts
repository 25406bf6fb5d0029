import type {
  Axes,
  DocumentKind,
  DocumentStatus,
  PaymentStatus,
  TransmissionDetail,
  TransmissionStatus,
} from './document-axes.js';
import { shownBuyer, type BuyerSnapshot } from './buyer.js';
import type { SellerBlock } from '../einvoice/document-model.js';
import type { DocumentLine } from './lines.js';
import type { DocumentAdjustment } from '../kernel/document-adjustments.js';
import type { RejectionCategory } from '../platform/rejection-classification.js';
import { summaryStatus, type SummaryStatus } from './summary-status.js';
import { documentObligation, type Obligation } from './obligation.js';
import type { invoices } from './schema.js';
import type { DepositReference, InvoiceType } from './deposit-invoices.js';
import { fileEntries, type FileEntry, type StoredFiles } from './document-files.js';
import { toAttachment, type AttachmentResource } from './attachment-rules.js';

/** The invoice and credit-note resources, their e-invoicing block, and the data of their events. */

export type DocumentRow = typeof invoices.$inferSelect;

/** The rejection fields of the current attempt (contract, "Rejection and refusal fields"). */
export interface RejectionFields {
  paErrorCode: string | null;
  rejectionReason: string | null;
  rejectionNote: string | null;
  rejectionCode: string | null;
  rejectionSource: 'platform' | 'buyer' | 'service' | null;
  rejectionCategory: RejectionCategory | null;
}

/** An earlier attempt, archived when the document is sent again after a rejection. */
export interface Submission extends RejectionFields {
  transmissionStatus: TransmissionStatus;
  transmissionDetail: TransmissionDetail;
  archivedAt: string;
}

export interface Einvoicing extends RejectionFields {
  previousSubmissions: Submission[];
  /** The platform's id of the flow deposited for the current attempt (absent before a deposit, and on older documents). */
  paFlowId?: string | null;
  /** The service's tracking id of the current attempt's deposit, the key of its proof of reception. */
  paTrackingId?: string | null;
  /**
   * Why the service holds the current attempt back and when it tries again (the platform
   * unavailable, the buyer missing from the directory); internal, told by the `obligation`.
   */
  depositWait?: DepositWait | null;
}

export interface DepositWait {
  reasonCode: string;
  reasonSource: 'platform' | 'service';
  nextAttemptAt: string;
}

export const noRejection: RejectionFields = {
  paErrorCode: null,
  rejectionReason: null,
  rejectionNote: null,
  rejectionCode: null,
  rejectionSource: null,
  rejectionCategory: null,
};

export const freshEinvoicing = (): Einvoicing => ({ ...noRejection, previousSubmissions: [] });

/** What the tax decision fixed, frozen on the document at finalization. */
export interface TaxSnapshot {
  decisionId: string;
  date: string;
  vatBreakdown: {
    vatCode: string;
    vatRate: string | null;
    vatexCode: string | null;
    taxableAmount: number;
    taxAmount: number;
  }[];
  mentions: { code: string; text: string; lines: number[] }[];
  obligations: Record<string, { state: string; reason: string }> | null;
}

/** A status the platform or the buyer reported (`fr:211` included: a mention only). */
export interface HistoryEntry {
  status: string;
  reasonCode: string | null;
  reason: string | null;
  /** The notes that came with it (absent on entries recorded before notes were kept). */
  notes?: string[];
  receivedAt: string;
  /** False when it changed nothing (a repeat, a late status, `fr:211`). */
  applied: boolean;
  event: string | null;
}

/**
 * What the finalization's answer says will block the document's deposit, with the code `send`
 * would refuse it with: the number is taken all the same. Only on that answer.
 */
export interface DocumentWarning {
  code: 'pa_not_configured' | 'deposit_not_enabled';
  message: string;
}

export interface DocumentResource {
  id: string;
  object: DocumentKind;
  livemode: boolean;
  number: string | null;
  status: SummaryStatus;
  documentStatus: DocumentStatus;
  transmissionStatus: TransmissionStatus;
  transmissionDetail: TransmissionDetail;
  paymentStatus: PaymentStatus;
  customerId: string | null;
  buyer: BuyerSnapshot | null;
  /** The seller frozen at finalization (identity + establishment); null on a draft. */
  seller: SellerBlock | null;
  currency: string;
  taxSource: string | null;
  taxDecisionId: string | null;
  lines: DocumentLine[];
  /** BG-20 / BG-21 as stated on the document. */
  allowances: DocumentAdjustment[];
  charges: DocumentAdjustment[];
  subtotal: number;
  totalTax: number | null;
  total: number | null;
  amountPaid: number;
  amountRefunded: number;
  amountCredited: number;
  amountDue: number | null;
  issueDate: string | null;
  dueDate: string | null;
  deliveryDate: string | null;
  paymentTermsDays: number | null;
  paymentTerms: string | null;
  notes: string | null;
  metadata: Record<string, unknown>;
  vatBreakdown: TaxSnapshot['vatBreakdown'];
  mentions: TaxSnapshot['mentions'];
  einvoicing: Einvoicing;
  obligation: Obligation | null;
  overdue: boolean;
  paymentPortalUrl: string | null;
  files: FileEntry[];
  /** BG-24, metadata only (the bytes: `.../attachments/:id/content`). */
  attachments: AttachmentResource[];
  finalizedAt: string | null;
  created: string;
  updated: string;
  relatedInvoiceId?: string | null;
  relatedInvoiceNumber?: string | null;
  invoiceType?: InvoiceType;
  deposits?: DepositReference[];
  amountDeducted?: number;
  deductedBy?: string | null;
  quoteId?: string | null;
  recurringInvoiceId?: string | null;
  warnings?: DocumentWarning[];
}

export function axesOf(
  row: Pick<DocumentRow, 'documentStatus' | 'transmissionStatus' | 'transmissionDetail' | 'paymentStatus'>,
): Axes {
  return {
    documentStatus: row.documentStatus as DocumentStatus,
    transmissionStatus: row.transmissionStatus as TransmissionStatus,
    transmissionDetail: row.transmissionDetail as TransmissionDetail,
    paymentStatus: row.paymentStatus as PaymentStatus,
  };
}

export const kindOf = (row: Pick<DocumentRow, 'kind'>): DocumentKind => row.kind as DocumentKind;

/** The columns an axes change writes: the axes and the summary they give. */
export function axesColumns(
  axes: Axes,
  kind: DocumentKind,
): Pick<DocumentRow, 'documentStatus' | 'transmissionStatus' | 'transmissionDetail' | 'paymentStatus' | 'status'> {
  return { ...axes, status: summaryStatus(axes, kind) };
}

/**
 * What the buyer still owes: the total, less what the finalized credit notes took off and the
 * deposits it deducted, less what was collected net of refunds; never below zero. Null before the total is fixed.
 */
export function amountDueOf(
  row: Pick<
    DocumentRow,
    'kind' | 'total' | 'amountCredited' | 'amountDeducted' | 'amountPaid' | 'amountRefunded' | 'documentStatus'
  >,
): number | null {
  if (row.kind !== 'invoice' || row.total === null || row.documentStatus !== 'finalized') return null;
  return Math.max(0, row.total - row.amountCredited - row.amountDeducted - row.amountPaid + row.amountRefunded);
}

/** The document's `obligation` (obligation.ts), null before finalization. */
export function obligationOf(
  row: Pick<DocumentRow, 'documentStatus' | 'transmissionStatus' | 'transmissionDetail' | 'tax' | 'einvoicing'>,
): Obligation | null {
  return documentObligation({
    axes: axesOf({ ...row, paymentStatus: 'unpaid' }),
    obligations: row.tax?.obligations ?? null,
    einvoicing: row.einvoicing,
  });
}

/**
 * The resource; `files` is the state of the document's generated files (files-store.ts), null
 * when it has none yet (a draft, or a document finalized before its row was read). A row the
 * finalization returns carries its `warnings`, which only that answer shows.
 */
export function toDocument(
  row: DocumentRow & { warnings?: DocumentWarning[] },
  publicUrl: string,
  files: { state: string; files: StoredFiles | null; ruleSet?: string | null } | null = null,
): DocumentResource {
  const resource: DocumentResource = {
    id: row.id,
    object: kindOf(row),
    livemode: row.livemode,
    number: row.number,
    status: row.status as SummaryStatus,
    documentStatus: row.documentStatus as DocumentStatus,
    transmissionStatus: row.transmissionStatus as TransmissionStatus,
    transmissionDetail: row.transmissionDetail as TransmissionDetail,
    paymentStatus: row.paymentStatus as PaymentStatus,
    customerId: row.customerId,
    buyer: shownBuyer(row.buyer),
    seller: row.seller ?? null,
    currency: row.currency,
    taxSource: row.taxSource,
    taxDecisionId: row.taxDecisionId,
    lines: row.lines,
    allowances: row.allowances ?? [],
    charges: row.charges ?? [],
    subtotal: row.subtotal,
    totalTax: row.totalTax,
    total: row.total,
    amountPaid: row.amountPaid,
    amountRefunded: row.amountRefunded,
    amountCredited: row.amountCredited,
    amountDue: amountDueOf(row),
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    deliveryDate: row.deliveryDate,
    paymentTermsDays: row.paymentTermsDays,
    paymentTerms: row.paymentTerms,
    notes: row.notes,
    metadata: row.metadata,
    vatBreakdown: row.tax?.vatBreakdown ?? [],
    mentions: row.tax?.mentions ?? [],
    einvoicing: row.einvoicing,
    obligation: obligationOf(row),
    overdue: row.overdueAt !== null,
    paymentPortalUrl: row.portalToken && row.kind === 'invoice' ? `${publicUrl}/pay/${row.portalToken}` : null,
    files: fileEntries(row, files ?? (row.number !== null ? { state: 'pending', files: null } : null)),
    attachments: (row.attachments ?? []).map(toAttachment),
    finalizedAt: row.finalizedAt?.toISOString() ?? null,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
  if (row.kind === 'credit_note') {
    resource.relatedInvoiceId = row.relatedInvoiceId;
    resource.relatedInvoiceNumber = row.relatedInvoiceNumber;
  } else {
    resource.invoiceType = row.invoiceType;
    resource.deposits = row.deposits;
    resource.amountDeducted = row.amountDeducted;
    resource.deductedBy = row.deductedBy;
    resource.quoteId = row.quoteId;
    resource.recurringInvoiceId = row.recurringInvoiceId;
  }
  // The finalization's answer: what will block the deposit (the row it returns carries them).
  if (row.warnings) resource.warnings = row.warnings;
  return resource;
}

/**
 * The data of an invoice-family or credit-note-family event (contract, "Data by family"): the
 * summary at the time of the event and the one just before the change it reports; from
 * finalization on, the document's `obligation` too ("invoice and credit-note events may also carry
 * `obligation`").
 */
export function documentEventData(row: DocumentRow, previousStatus: string | null): Record<string, unknown> {
  const einvoicing = row.einvoicing;
  const data: Record<string, unknown> = {
    id: row.id,
    object: kindOf(row),
    status: row.status,
    previous_status: previousStatus,
    livemode: row.livemode,
    number: row.number,
    documentStatus: row.documentStatus,
    transmissionStatus: row.transmissionStatus,
    transmissionDetail: row.transmissionDetail,
    paymentStatus: row.paymentStatus,
    paErrorCode: einvoicing.paErrorCode,
    rejectionReason: einvoicing.rejectionReason,
    rejectionCategory: einvoicing.rejectionCategory,
    rejectionCode: einvoicing.rejectionCode,
    rejectionSource: einvoicing.rejectionSource,
    metadata: row.metadata,
  };
  const obligation = obligationOf(row);
  if (obligation) data.obligation = obligation;
  if (row.kind === 'credit_note') {
    data.relatedInvoiceId = row.relatedInvoiceId;
    data.relatedInvoiceNumber = row.relatedInvoiceNumber;
  }
  return data;
}

/**
 * The data of `invoice.obligation_updated` / `credit_note.obligation_updated` (contract, "obligation
 * events"): `reason` is the original words of what changed it, when there were any.
 */
export function obligationEventData(row: DocumentRow, obligation: Obligation, reason: string | null) {
  return { id: row.id, object: kindOf(row), status: row.status, obligation, reason };
}
