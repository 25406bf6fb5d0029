import type { ReadDocument } from '../einvoice/cii-reader.js';
import { euros } from '../kernel/money.js';
import type { receivedInvoiceHistory, receivedInvoices } from './schema.js';
import type { ReceivedStatus } from './transitions.js';

/** The invoice as read from its XML, kept whole on the row. */
export type ReceivedDocument = ReadDocument;

/** One failure of the official validation (or the reason a file could not be judged). */
export interface ValidationError {
  /** `BR-CO-16`, `BR-FR-05_BT-22_PMT`, `XSD`... */
  rule: string;
  /** `fatal`, `warning` or `error`. */
  flag: string;
  message: string;
  location: string | null;
}

/**
 * The most validation errors kept on a received invoice. A hostile or broken file can raise tens
 * of thousands (one per line and rule); the first hundred say what is wrong with it, and the rest
 * would only weigh on every read of the row (40,000 of them made 9 MB). The count keeps the total.
 */
export const keptValidationErrors = 100;

export type ReceivedRow = typeof receivedInvoices.$inferSelect;
export type HistoryRow = typeof receivedInvoiceHistory.$inferSelect;

export interface ReceivedInvoice {
  id: string;
  object: 'received_invoice';
  livemode: boolean;
  status: ReceivedStatus;
  paInvoiceId: string;
  flowId: string;
  /** The establishment whose platform connection delivered it; null: the sandbox. */
  establishmentId: string | null;
  syntax: string;
  sender: { siret: string | null; siren: string | null; name: string | null; vatNumber: string | null };
  buyer: { siret: string | null; siren: string | null; name: string };
  number: string;
  typeCode: string;
  issueDate: string | null;
  dueDate: string | null;
  currency: string;
  lines: {
    id: string;
    description: string;
    quantity: string;
    unitCode: string;
    unitPrice: string;
    netAmount: number;
    vatCode: string;
    vatRate: string | null;
  }[];
  vatBreakdown: { vatCode: string; vatRate: string | null; taxableAmount: number; taxAmount: number }[];
  totalHt: number;
  totalTva: number;
  totalTtc: number;
  amountDue: number;
  conformant: boolean | null;
  validationErrors: ValidationError[];
  /** How many errors the file has: `validationErrors` holds the first `keptValidationErrors`. */
  validationErrorCount: number;
  validators: string[];
  ruleSet: string | null;
  receivedAt: string;
  created: string;
  updated: string;
}

export function toReceivedInvoice(row: ReceivedRow): ReceivedInvoice {
  const doc = row.document;
  return {
    id: row.id,
    object: 'received_invoice',
    livemode: row.livemode,
    status: row.status as ReceivedStatus,
    paInvoiceId: row.paInvoiceId,
    flowId: row.flowId,
    establishmentId: row.establishmentId,
    syntax: row.syntax,
    sender: {
      siret: row.senderSiret,
      siren: row.senderSiren,
      name: row.senderName,
      vatNumber: doc.seller.vatNumber,
    },
    buyer: { siret: doc.buyer.siret, siren: doc.buyer.siren, name: doc.buyer.name },
    number: row.number,
    typeCode: doc.typeCode,
    issueDate: row.issueDate,
    dueDate: doc.dueDate,
    currency: doc.currency,
    lines: doc.lines.map((line) => ({
      id: line.id,
      description: line.description,
      quantity: line.quantity,
      unitCode: line.unitCode,
      unitPrice: line.unitPrice,
      netAmount: line.netAmount,
      vatCode: line.vatCode,
      vatRate: line.vatRate,
    })),
    vatBreakdown: doc.vatBreakdown.map((group) => ({
      vatCode: group.vatCode,
      vatRate: group.vatRate,
      taxableAmount: group.taxableAmount,
      taxAmount: group.taxAmount,
    })),
    totalHt: doc.totals.taxBasis,
    totalTva: doc.totals.vat,
    totalTtc: doc.totals.gross,
    amountDue: doc.totals.due,
    conformant: row.conformant,
    validationErrors: row.validationErrors,
    validationErrorCount: row.validationErrorCount,
    validators: row.validators,
    ruleSet: row.ruleSet,
    receivedAt: row.receivedAt.toISOString(),
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

/** `invoice.incoming.received`: the contract's snake_case fields, amounts as euro strings like the payment events. */
export function incomingEventData(row: ReceivedRow): Record<string, unknown> {
  const totals = row.document.totals;
  return {
    id: row.id,
    object: 'received_invoice',
    pa_invoice_id: row.paInvoiceId,
    sender_siret: row.senderSiret,
    sender_name: row.senderName,
    number: row.number,
    total_ht: euros(totals.taxBasis),
    total_tva: euros(totals.vat),
    total_ttc: euros(totals.gross),
  };
}

export interface HistoryEntry {
  object: 'received_invoice_status';
  status: string;
  action: string | null;
  reasonCode: string | null;
  reason: string | null;
  messageId: string | null;
  platformFlowId: string | null;
  at: string;
}

export function toHistoryEntry(row: HistoryRow): HistoryEntry {
  return {
    object: 'received_invoice_status',
    status: row.status,
    action: row.action,
    reasonCode: row.reasonCode,
    reason: row.reason,
    messageId: row.messageId,
    platformFlowId: row.platformFlowId,
    at: row.at.toISOString(),
  };
}
