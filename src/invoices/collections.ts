import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { recordEvent } from '../webhooks/service.js';
import type { Axes, PaymentStatus } from './document-axes.js';
import { amountDueOf, axesColumns, axesOf, documentEventData, type DocumentRow } from './document-record.js';
import { euros } from '../kernel/money.js';
import { later } from '../kernel/clock.js';
import { paymentStatusOf } from './payment-status.js';
import { findDocument, updateDocument } from './store.js';

/**
 * Money moves on an invoice, in the transaction of the capability that records them: a payment
 * (payments), a finalized credit note (credit notes), a refund (credit notes). Each locks the
 * invoice row, moves the amounts and the payment axis, and records the events of the move:
 *
 *   payment  `payment.received` (the variation of the total collected) and `invoice.paid` when
 *            the invoice is now paid in full, else `invoice.partially_paid`; both carry the summary
 *            before the payment as `previous_status` (LIFECYCLE.md, "Events of payments").
 *   credit   the total owed goes down; `invoice.paid` if that settles it.
 *   refund   `payment.received` with a negative amount (the total collected goes down).
 */

/** Event times of one move, a millisecond apart, so that their ids (time-ordered) keep the order of the move. */

const sameAxes = (a: Axes, b: Axes) =>
  a.documentStatus === b.documentStatus &&
  a.paymentStatus === b.paymentStatus &&
  a.transmissionStatus === b.transmissionStatus &&
  a.transmissionDetail === b.transmissionDetail;

async function lockInvoice(tx: Tx, ctx: CallContext, id: string, param: string): Promise<DocumentRow> {
  const row = await findDocument(tx, ctx.scope, 'invoice', id, true);
  if (!row) throw refuse('not_found', `No invoice ${id}.`, { param });
  return row;
}

function collectable(row: DocumentRow): void {
  if (row.documentStatus === 'draft')
    throw refuse('invalid_status_transition', `Invoice ${row.id} is a draft: finalize it before recording a payment.`, {
      param: 'invoiceId',
    });
  if (row.documentStatus === 'cancelled')
    throw refuse('invalid_status_transition', `Invoice ${row.id} is cancelled.`, { param: 'invoiceId' });
}

function withAmounts(
  row: DocumentRow,
  changes: Pick<DocumentRow, 'amountPaid' | 'amountRefunded' | 'amountCredited'>,
): { axes: Axes; changes: Partial<DocumentRow> } {
  // What the buyer owes for the invoice: its deposits were paid on their own invoices.
  const axes: Axes = { ...axesOf(row), paymentStatus: invoicePaymentStatus(row.total! - row.amountDeducted, changes) };
  return { axes, changes: { ...changes, ...axesColumns(axes, 'invoice') } };
}

/**
 * The invoice's payment axis. A refund gives back what was paid beyond what the invoice still owes
 * (its total less its credit notes): once all of that is given back the invoice is `refunded`, even
 * when it keeps the payment of what it still owes (a partial credit note refunded in full).
 */
export function invoicePaymentStatus(
  total: number,
  amounts: Pick<DocumentRow, 'amountPaid' | 'amountRefunded' | 'amountCredited'>,
): PaymentStatus {
  const owed = total - amounts.amountCredited;
  const overpaid = amounts.amountPaid - owed;
  if (amounts.amountRefunded > 0 && overpaid > 0 && amounts.amountRefunded >= overpaid) return 'refunded';
  return paymentStatusOf(owed, amounts.amountPaid, amounts.amountRefunded);
}

/** What a payment's statement (status 212, the payments capability) needs to know of its invoice. */
export interface InvoiceCollectionFacts {
  /** The obligation axes of the tax decision (`due`, `not_applicable`), null without one. */
  einvoicing: string | null;
  ereportingPayment: string | null;
  transmissionStatus: string;
  transmissionDetail: string | null;
  vatBreakdown: readonly { vatRate: string | null; taxableAmount: number; taxAmount: number }[];
}

export function collectionFactsOf(row: DocumentRow): InvoiceCollectionFacts {
  return {
    einvoicing: row.tax?.obligations?.einvoicing?.state ?? null,
    ereportingPayment: row.tax?.obligations?.ereportingPayment?.state ?? null,
    transmissionStatus: row.transmissionStatus,
    transmissionDetail: row.transmissionDetail,
    vatBreakdown: row.tax?.vatBreakdown ?? [],
  };
}

/** The facts of an invoice for its payments' statements, or null when there is no such invoice. */
export async function invoiceCollectionFacts(
  db: Executor,
  scope: Scope,
  invoiceId: string,
): Promise<InvoiceCollectionFacts | null> {
  const row = await findDocument(db, scope, 'invoice', invoiceId);
  return row ? collectionFactsOf(row) : null;
}

/** The VAT breakdown of a credit note: a refund through it gives back money at its rates. */
export async function creditNoteVatBreakdown(
  db: Executor,
  scope: Scope,
  creditNoteId: string,
): Promise<InvoiceCollectionFacts['vatBreakdown']> {
  const row = await findDocument(db, scope, 'credit_note', creditNoteId);
  return row?.tax?.vatBreakdown ?? [];
}

/** What a payment statement (CDAR 212) names of its invoice: the invoice and its seller. */
export interface InvoiceStatementSubject {
  number: string;
  issueDate: string;
  seller: { siren: string; siret: string | null; name: string; electronicAddress: string | null };
}

export async function invoiceStatementSubject(
  db: Executor,
  scope: Scope,
  invoiceId: string,
): Promise<InvoiceStatementSubject | null> {
  const row = await findDocument(db, scope, 'invoice', invoiceId);
  if (!row?.number || !row.issueDate || !row.seller) return null;
  return {
    number: row.number,
    issueDate: row.issueDate,
    seller: {
      siren: row.seller.siren,
      siret: row.seller.siret,
      name: row.seller.legalName,
      electronicAddress: row.seller.electronicAddress,
    },
  };
}

/** The data of `payment.received`: the invoice fields plus the amounts in euros. */
function receivedData(
  row: DocumentRow,
  previousStatus: string,
  amount: number,
  link: { paymentId: string | null; refundId?: string; fr212?: object | null },
): Record<string, unknown> {
  return {
    ...documentEventData(row, previousStatus),
    paymentId: link.paymentId,
    ...(link.refundId ? { refundId: link.refundId } : {}),
    fr212: link.fr212 ?? null,
    amount: euros(amount),
    total_paid: euros(row.amountPaid - row.amountRefunded),
    // The contract's historical name for the invoice total.
    total_due: euros(row.total!),
    total: euros(row.total!),
    amountDue: euros(amountDueOf(row) ?? 0),
  };
}

/**
 * A payment of `amount` cents on an invoice (amount already checked positive). `statementOf`
 * gives the payment's `fr212` from the invoice's facts (the payments capability decides it):
 * `payment.received` carries it.
 */
export async function collectPayment<Statement extends object>(
  tx: Tx,
  ctx: CallContext,
  invoiceId: string,
  amount: number,
  paymentId: string,
  statementOf: (facts: InvoiceCollectionFacts) => Statement | null,
): Promise<{ invoice: DocumentRow; fr212: Statement | null }> {
  const row = await lockInvoice(tx, ctx, invoiceId, 'invoiceId');
  collectable(row);
  const due = amountDueOf(row) ?? 0;
  if (amount > due)
    throw new ApiError('payment_exceeds_amount_due', { values: { amount, amountDue: due }, param: 'amount' });
  const { axes, changes } = withAmounts(row, {
    amountPaid: row.amountPaid + amount,
    amountRefunded: row.amountRefunded,
    amountCredited: row.amountCredited,
  });
  const updated = await updateDocument(tx, ctx.scope, row.id, { ...changes, updated: ctx.now });
  const fr212 = statementOf(collectionFactsOf(updated));
  // One millisecond apart, after `payment.created`: the events of one move list in the order they happened.
  await recordEvent(
    tx,
    ctx,
    'payment.received',
    receivedData(updated, row.status, amount, { paymentId, fr212 }),
    later(ctx.now, 1),
  );
  const type = axes.paymentStatus === 'paid' ? 'invoice.paid' : 'invoice.partially_paid';
  await recordEvent(tx, ctx, type, documentEventData(updated, row.status), later(ctx.now, 2));
  return { invoice: updated, fr212 };
}

/** What is left to credit on an invoice: its total less its finalized credit notes. */
export function creditableOf(row: DocumentRow): number {
  return (row.total ?? 0) - row.amountCredited;
}

/** Locks the invoice a credit note corrects (for its finalization or a refund). */
export async function lockRelatedInvoice(tx: Tx, ctx: CallContext, invoiceId: string): Promise<DocumentRow> {
  const row = await findDocument(tx, ctx.scope, 'invoice', invoiceId, true);
  if (!row) throw new ApiError('related_invoice_not_found', { param: 'relatedInvoiceId' });
  return row;
}

/** A credit note of `amount` cents is finalized: the invoice's total owed goes down. */
export async function creditInvoice(
  tx: Tx,
  ctx: CallContext,
  invoice: DocumentRow,
  amount: number,
  creditNoteId: string,
): Promise<DocumentRow> {
  // The final invoice counted the deposit as paid: crediting the deposit would leave it wrong.
  if (invoice.deductedBy !== null)
    throw refuse(
      'invalid_status_transition',
      `Deposit invoice ${invoice.number ?? invoice.id} is deducted by invoice ${invoice.deductedBy}: correct that final invoice with a credit note instead.`,
      { param: 'relatedInvoiceId' },
    );
  if (amount > creditableOf(invoice)) {
    throw refuse(
      'invalid_field_value',
      `Credit note ${creditNoteId} credits ${amount} cents, but only ${creditableOf(invoice)} cents of invoice ${invoice.id} are left to credit (its total less its finalized credit notes).`,
      { param: 'lines' },
    );
  }
  const { axes, changes } = withAmounts(invoice, {
    amountPaid: invoice.amountPaid,
    amountRefunded: invoice.amountRefunded,
    amountCredited: invoice.amountCredited + amount,
  });
  const updated = await updateDocument(tx, ctx.scope, invoice.id, { ...changes, updated: ctx.now });
  if (!sameAxes(axes, axesOf(invoice)) && axes.paymentStatus === 'paid') {
    await recordEvent(tx, ctx, 'invoice.paid', documentEventData(updated, invoice.status), ctx.now);
  }
  return updated;
}

/**
 * What may still be refunded through a credit note: its own remainder, and never more than the
 * buyer paid on the invoice and was not given back.
 */
export function refundableOf(
  creditNote: Pick<DocumentRow, 'total' | 'amountRefunded'>,
  invoice: Pick<DocumentRow, 'amountPaid' | 'amountRefunded'>,
): number {
  return Math.max(
    0,
    Math.min((creditNote.total ?? 0) - creditNote.amountRefunded, invoice.amountPaid - invoice.amountRefunded),
  );
}

/**
 * A refund of `amount` cents: money given back to the buyer of the invoice. `statementOf` gives
 * the refund's `fr212` (the negative statement) from the invoice's facts: `payment.received` carries it.
 */
export async function refundInvoice<Statement extends object>(
  tx: Tx,
  ctx: CallContext,
  invoice: DocumentRow,
  amount: number,
  refundId: string,
  statementOf: (facts: InvoiceCollectionFacts) => Statement | null,
): Promise<{ invoice: DocumentRow; fr212: Statement | null }> {
  const { changes } = withAmounts(invoice, {
    amountPaid: invoice.amountPaid,
    amountRefunded: invoice.amountRefunded + amount,
    amountCredited: invoice.amountCredited,
  });
  const updated = await updateDocument(tx, ctx.scope, invoice.id, { ...changes, updated: ctx.now });
  const fr212 = statementOf(collectionFactsOf(updated));
  await recordEvent(
    tx,
    ctx,
    'payment.received',
    receivedData(updated, invoice.status, -amount, { paymentId: null, refundId, fr212 }),
    later(ctx.now, 1),
  );
  return { invoice: updated, fr212 };
}

/** The credit note's own payment axis after a refund: `partially_refunded`, then `refunded`. */
export async function markCreditNoteRefunded(
  tx: Tx,
  ctx: CallContext,
  note: DocumentRow,
  amount: number,
): Promise<DocumentRow> {
  const amountRefunded = note.amountRefunded + amount;
  const axes: Axes = {
    ...axesOf(note),
    paymentStatus: amountRefunded >= (note.total ?? 0) ? 'refunded' : 'partially_refunded',
  };
  return updateDocument(tx, ctx.scope, note.id, {
    amountRefunded,
    ...axesColumns(axes, 'credit_note'),
    updated: ctx.now,
  });
}
