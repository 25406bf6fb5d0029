import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import type { DocumentKind } from './document-axes.js';
import {
  amountDueOf,
  toDocument,
  type DocumentResource,
  type DocumentRow,
  type HistoryEntry,
} from './document-record.js';
import {
  createInvoiceDraft,
  deleteDraft,
  draftRow,
  getDocument,
  insertDraft,
  linesOf,
  partyOf,
  updateDraft,
  type DraftInput,
  type DraftUpdate,
  type Party,
} from './drafts.js';
import type { BuyerInput } from './buyer.js';
import type { DocumentLine, LineInput } from './lines.js';
import { finalizeDocument, type FinalizeOptions, type Seller } from './finalize.js';
import { emailToBuyer, sendDocument, type SendOptions } from './transmission.js';
import { simulateStatus, type SimulateInput } from './sandbox-statuses.js';
import { deleteScopeDocuments, findByPortalToken, pageDocuments, type DocumentFilters } from './store.js';
import { deleteScopeFiles, filesSummaries } from './files-store.js';
import { deleteScopeAttachments } from './attachment-store.js';
import { releaseStorage } from '../subscriptions/service.js';
import { emailsOfDocument, type DocumentEmail } from '../mail/service.js';
import * as reportable from './ereporting-store.js';
import type { EreportableDocumentRow, EreportableRefundRow, PaymentInvoiceFactsRow } from './ereporting-store.js';
import * as refundStatements from './refund-store.js';
import type { RefundRow, RefundStatementState } from './refund-store.js';

/**
 * The invoices capability: invoices and, through the same documents, what the credit notes,
 * payments and quotes capabilities need of them. Each use case lives in its own file.
 */

export type { DocumentResource } from './document-record.js';
export type { DraftInput, DraftUpdate, Party } from './drafts.js';
export type { DocumentLine, LineInput } from './lines.js';
export type { BuyerInput, BuyerSnapshot } from './buyer.js';
export { shownBuyer } from './buyer.js';
export type { Seller, FinalizeOptions } from './finalize.js';
export type { FixturePayment } from './fixtures.js';
export {
  collectPayment,
  creditNoteVatBreakdown,
  invoiceCollectionFacts,
  invoiceStatementSubject,
  type InvoiceCollectionFacts,
  type InvoiceStatementSubject,
} from './collections.js';
export { createCreditNote, type CreditNoteInput } from './credit-notes.js';
export { decisionInputOf, type DecisionInput } from './decision-input.js';
export {
  refundableCreditNotes,
  refundedByReference,
  refundUpTo,
  type Refund,
  type RefundableCreditNote,
  type ReferencedRefundInput,
} from './credit-notes.js';
export { documentFile, verifyDocumentArchive, type ArchiveVerification, type DownloadedFile } from './files.js';
export { createFileWorker, type FileWorker, type FileWorkerOptions } from './generation.js';

type Needs = Pick<Deps, 'db' | 'config'>;

/** The resource with its files' state, read for a numbered document (a draft has none). */
async function resource(deps: Needs, row: DocumentRow): Promise<DocumentResource> {
  if (row.number === null) return toDocument(row, deps.config.publicUrl);
  const files = await filesSummaries(deps.db, { companyId: row.companyId, livemode: row.livemode }, [row.id]);
  return toDocument(row, deps.config.publicUrl, files.get(row.id) ?? null);
}

export async function createInvoice(deps: Needs, ctx: CallContext, input: DraftInput): Promise<DocumentResource> {
  return resource(deps, await createInvoiceDraft(deps, ctx, input));
}

export async function getInvoiceDocument(
  deps: Needs,
  scope: Scope,
  kind: DocumentKind,
  id: string,
): Promise<DocumentResource> {
  return resource(deps, await getDocument(deps, scope, kind, id));
}

export async function updateDocumentDraft(
  deps: Needs,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
  input: DraftUpdate,
): Promise<DocumentResource> {
  return resource(deps, await updateDraft(deps, ctx, kind, id, input));
}

export async function deleteDocumentDraft(
  deps: Needs,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
): Promise<DocumentResource> {
  return resource(deps, await deleteDraft(deps, ctx, kind, id));
}

export async function finalize(
  deps: Needs,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
  seller: Seller,
  options: FinalizeOptions = {},
): Promise<DocumentResource> {
  // Its files were queued in the finalization's transaction: pending.
  const row = await finalizeDocument(deps, ctx, kind, id, seller, options);
  return toDocument(row, deps.config.publicUrl, { state: 'pending', files: null });
}

export interface DocumentListQuery extends DocumentFilters {}

export async function listDocuments(
  deps: Needs,
  scope: Scope,
  kind: DocumentKind,
  page: PageRequest,
  query: DocumentListQuery,
  url: string,
): Promise<ListEnvelope<DocumentResource>> {
  if (query.dateFrom && query.dateTo && query.dateTo < query.dateFrom)
    throw refuse('invalid_field_value', '`date_to` is before `date_from`.', { param: 'date_to' });
  const rows = await pageDocuments(deps.db, scope, kind, page, query);
  const files = await filesSummaries(
    deps.db,
    scope,
    rows.filter((row) => row.number !== null).map((row) => row.id),
  );
  return toListEnvelope(
    rows,
    page,
    url,
    (row) => row.id,
    (row) => toDocument(row, deps.config.publicUrl, files.get(row.id) ?? null),
  );
}

/** Sandbox reset: every test invoice and credit note of the company goes. */
export async function purgeTestDocuments(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live invoices');
  const files = await deleteScopeFiles(tx, scope);
  await releaseStorage(tx, scope, files.bytes + (await deleteScopeAttachments(tx, scope)));
  // Their deposit flows go with the platform capability's test flows (platform/index.ts).
  return deleteScopeDocuments(tx, scope);
}

// The way to the buyer: send, reported statuses, history.

export { type SendOptions } from './transmission.js';
export { simulateBody, type SimulateInput } from './sandbox-statuses.js';

export async function sendToPlatform(
  deps: Needs,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
  options: SendOptions = {},
): Promise<DocumentResource> {
  return resource(deps, await sendDocument(deps, ctx, kind, id, options));
}

/** `POST /v1/invoices/:id/email`: the document's Factur-X e-mailed to its buyer. */
export async function emailDocumentToBuyer(
  deps: Needs,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
): Promise<DocumentResource> {
  return resource(deps, await emailToBuyer(deps, ctx, kind, id));
}

export async function simulateReportedStatus(
  deps: Needs & Pick<Deps, 'sandboxPlatform'>,
  ctx: CallContext,
  id: string,
  input: SimulateInput,
): Promise<DocumentResource> {
  return resource(deps, await simulateStatus(deps, ctx, id, input));
}

export interface HistoryList {
  object: 'list';
  data: (HistoryEntry & { object: 'lifecycle_status' })[];
  has_more: false;
  next_cursor: null;
  url: string;
}

/** Every status the platform or the buyer reported, oldest first (`fr:211` mentions included). */
export async function documentHistory(deps: Needs, scope: Scope, kind: DocumentKind, id: string): Promise<HistoryList> {
  const row = await getDocument(deps, scope, kind, id);
  const path = kind === 'invoice' ? 'invoices' : 'credit-notes';
  return {
    object: 'list',
    data: row.history.map((entry) => ({ object: 'lifecycle_status', ...entry })),
    has_more: false,
    next_cursor: null,
    url: `/v1/${path}/${id}/history`,
  };
}

/** `GET /v1/invoices/:id/emails`: the document's e-mails (sent, pending, logged, bounced), oldest first. */
export async function documentEmails(
  deps: Needs,
  scope: Scope,
  kind: DocumentKind,
  id: string,
): Promise<ListEnvelope<DocumentEmail>> {
  const row = await getDocument(deps, scope, kind, id);
  const path = kind === 'invoice' ? 'invoices' : 'credit-notes';
  return {
    object: 'list',
    data: await emailsOfDocument(deps.db, scope, row.id),
    has_more: false,
    next_cursor: null,
    url: `/v1/${path}/${id}/emails`,
  };
}

export interface PaymentLink {
  object: 'payment_link';
  livemode: boolean;
  invoiceId: string;
  url: string;
  amountDue: number;
  currency: string;
}

/** `POST /v1/invoices/:id/payment-link`: the public payment page of a live invoice with something due. */
export async function paymentLink(deps: Needs, ctx: CallContext, id: string): Promise<PaymentLink> {
  const row = await getDocument(deps, ctx.scope, 'invoice', id);
  if (!ctx.scope.livemode) throw new ApiError('sandbox_payment_unavailable', { status: 422, param: 'id' });
  if (row.documentStatus !== 'finalized' || !row.portalToken) {
    throw refuse(
      'invalid_status_transition',
      `Invoice ${id} is ${row.documentStatus}: only a finalized invoice can be paid online.`,
      { param: 'id' },
    );
  }
  const amountDue = amountDueOf(row) ?? 0;
  if (amountDue === 0)
    throw refuse('invalid_status_transition', `Nothing is due on invoice ${id} (${row.paymentStatus}).`, {
      param: 'id',
    });
  return {
    object: 'payment_link',
    livemode: true,
    invoiceId: id,
    url: `${deps.config.publicUrl}/pay/${row.portalToken}`,
    amountDue,
    currency: row.currency,
  };
}

/** The invoice behind a public payment page's token (any company), with its company, or null. */
export async function documentOfPortalToken(
  deps: Pick<Deps, 'db' | 'config'>,
  token: string,
): Promise<{ companyId: string; invoice: DocumentResource } | null> {
  const row = await findByPortalToken(deps.db, token);
  return row ? { companyId: row.companyId, invoice: await resource(deps, row) } : null;
}

// For the quotes capability: the parties and lines of a document, and a quote's conversion.

/** A document's buyer: a customer of the scope (not deleted), or an inline buyer checked by the customer rules. */
export async function documentParty(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  customerId: string | null | undefined,
  buyer: BuyerInput | null | undefined,
): Promise<Party> {
  return partyOf(deps, scope, customerId, buyer);
}

/** A document's lines, their products read in the scope (`param` names the field of a refusal). */
export async function documentLines(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  inputs: LineInput[],
  param = 'lines',
): Promise<DocumentLine[]> {
  return linesOf(deps, scope, inputs, param);
}

/** A draft invoice from a quote's buyer and lines, in the quote's transaction (`invoice.created`). */
export async function createDraftFromQuote(
  tx: Executor,
  ctx: CallContext,
  quote: {
    id: string;
    party: Party;
    lines: DocumentLine[];
    currency: 'EUR';
    notes: string | null;
    metadata: Record<string, unknown>;
  },
  publicUrl: string,
): Promise<DocumentResource> {
  const row = await insertDraft(
    tx,
    ctx,
    draftRow(ctx, {
      kind: 'invoice',
      party: quote.party,
      lines: quote.lines,
      input: { currency: quote.currency, notes: quote.notes, metadata: quote.metadata },
      extra: { quoteId: quote.id },
    }),
  );
  return toDocument(row, publicUrl);
}

/** What a recurring invoice gives each invoice it generates. */
export interface TemplateFacts {
  recurringInvoiceId: string;
  party: Party;
  lines: DocumentLine[];
  currency: 'EUR';
  taxSource: 'service' | 'integration';
  paymentTermsDays: number | null;
  paymentTerms: string | null;
  notes: string | null;
  metadata: Record<string, unknown>;
}

/**
 * A draft invoice from a recurring invoice's template, in the run's transaction
 * (`invoice.created`). No issue date: a draft is dated the day it is numbered.
 */
export async function createDraftFromTemplate(
  tx: Executor,
  ctx: CallContext,
  facts: TemplateFacts,
  publicUrl: string,
): Promise<DocumentResource> {
  const row = await insertDraft(
    tx,
    ctx,
    draftRow(ctx, {
      kind: 'invoice',
      party: facts.party,
      lines: facts.lines,
      input: {
        currency: facts.currency,
        taxSource: facts.taxSource,
        paymentTermsDays: facts.paymentTermsDays,
        paymentTerms: facts.paymentTerms,
        notes: facts.notes,
        metadata: facts.metadata,
      },
      extra: { recurringInvoiceId: facts.recurringInvoiceId },
    }),
  );
  return toDocument(row, publicUrl);
}

// Periodic work and the sandbox.

export { markOverdueInvoices } from './overdue.js';
export { seedInvoiceFixtures, fixturePaymentsOf } from './fixtures.js';

// The accounting exports: the period's documents and refunds in the order of the books.

export {
  accountingDocumentsPage,
  accountingDocumentRows,
  accountingDocumentKey,
  accountingDocumentOf,
  accountingDocumentCount,
  accountingRefundsPage,
  accountingRefundCount,
  accountingParties,
  type AccountingDocument,
  type AccountingDocumentRow,
  type AccountingRefund,
  type AccountingParty,
  type AccountingPeriod,
  type DocumentKey,
  type InstantKey,
} from './accounting.js';

// E-reporting: the issued documents, refunds and paid invoices whose decision made a report due.

export type { EreportableDocumentRow, EreportableRefundRow, PaymentInvoiceFactsRow } from './ereporting-store.js';

/** A page of the documents issued from a day on whose decision made a report due (keyset by day, time, id). */
export function pageEreportableDocuments(
  db: Executor,
  scope: Scope,
  fromDay: string,
  after: { day: string; at: string; id: string } | null,
  limit: number,
): Promise<EreportableDocumentRow[]> {
  return reportable.pageEreportableDocuments(db, scope, fromDay, after, limit);
}

/** A page of the refunds made from an instant on whose credit note made a report due. */
export function pageEreportableRefunds(
  db: Executor,
  scope: Scope,
  fromInstant: string,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<EreportableRefundRow[]> {
  return reportable.pageEreportableRefunds(db, scope, fromInstant, after, limit);
}

/** What e-reporting reads of the invoices these payments settled (number, VAT breakdown, obligations). */
export function paymentInvoiceFacts(db: Executor, scope: Scope, ids: string[]): Promise<PaymentInvoiceFactsRow[]> {
  return reportable.paymentInvoiceFacts(db, scope, ids);
}

// The refunds' negative payment statements (status 212): the payments capability moves and sends them.

export type { RefundRow } from './refund-store.js';

/** The refunds whose statement is in this state (`due`, …), locked past `after`, with their company's sandbox clock offset. */
export function claimRefundStatements(
  tx: Executor,
  which: RefundStatementState,
  limit: number,
  after: string | null,
  companyIds?: readonly string[],
): Promise<{ row: RefundRow; sandboxClockOffsetMs: number }[]> {
  return refundStatements.claimRefundStatements(tx, which, limit, after, companyIds);
}

/** A refund locked for its statement's change, in the caller's transaction. */
export function lockRefund(tx: Executor, scope: Scope, id: string): Promise<RefundRow | undefined> {
  return refundStatements.lockRefund(tx, scope, id);
}

/** Records a refund's statement (`fr212`), in the caller's transaction (the payments capability owns its meaning). */
export function updateRefundFr212(tx: Executor, scope: Scope, id: string, fr212: RefundRow['fr212']): Promise<void> {
  return refundStatements.updateRefundFr212(tx, scope, id, fr212);
}
