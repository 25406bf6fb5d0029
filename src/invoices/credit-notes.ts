import { Type, type Static } from 'typebox';
import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { parseIsoInstant } from '../kernel/iso-date.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { buyerInput } from './buyer.js';
import {
  creditInvoice,
  lockRelatedInvoice,
  markCreditNoteRefunded,
  refundableOf,
  refundInvoice,
} from './collections.js';
import { toDocument, type DocumentResource } from './document-record.js';
import { draftRow, insertDraft, linesOf, prepareDraft, type DraftInput } from './drafts.js';
import { draftFields } from './document-fields.js';
import type { Seller } from './finalize.js';
import { linesField } from './lines.js';
import { metadataField } from '../kernel/metadata.js';
import { explained } from './refusals.js';
import { finalize, getInvoiceDocument, updateDocumentDraft } from './service.js';
import { finalizedCreditNotesOf, findDocument as findDocumentRow } from './store.js';
import type { DocumentRow } from './document-record.js';
import {
  deleteScopeRefunds,
  insertRefund,
  pageRefunds,
  refundedWithReference,
  type RefundRow,
} from './refund-store.js';
import { initialFr212 } from '../payments/collection-statement.js';

/**
 * Credit notes (avoirs): invoice-type documents of their own series that correct a finalized
 * invoice, partly or totally, each backed by its own tax decision. Once finalized, what the
 * buyer owes on the invoice goes down; what was already paid may be refunded through them.
 */

export const creditNoteCreateBody = Type.Object(
  {
    relatedInvoiceId: Type.Optional(
      Type.String({
        maxLength: 255,
        description:
          'The finalized invoice corrected (`inv_`); its number is frozen on the credit note now. Without it, a standalone credit note (a commercial gesture) names its buyer and cannot be refunded.',
      }),
    ),
    customerId: draftFields.customerId,
    buyer: Type.Optional(buyerInput),
    lines: Type.Optional(linesField),
    currency: draftFields.currency,
    issueDate: draftFields.issueDate,
    notes: draftFields.notes,
    metadata: draftFields.metadata,
    taxSource: draftFields.taxSource,
    taxDecisionId: draftFields.taxDecisionId,
  },
  { additionalProperties: false },
);

export const creditNoteUpdateBody = Type.Object(
  {
    lines: Type.Optional(linesField),
    issueDate: draftFields.issueDate,
    notes: draftFields.notes,
    metadata: Type.Optional(metadataField),
    taxSource: draftFields.taxSource,
    taxDecisionId: draftFields.taxDecisionId,
  },
  { additionalProperties: false },
);

export type CreditNoteInput = Static<typeof creditNoteCreateBody>;

type Needs = Pick<Deps, 'db' | 'config'>;

export async function createCreditNote(
  deps: Needs,
  ctx: CallContext,
  input: CreditNoteInput,
): Promise<DocumentResource> {
  const { relatedInvoiceId, ...rest } = input;
  if (relatedInvoiceId === undefined) {
    if (!rest.lines)
      throw new ApiError('missing_required_field', {
        param: 'lines',
        values: { detail: 'A credit note without `relatedInvoiceId` lists its lines.' },
      });
    const draft = draftRow(ctx, await prepareDraft(deps, ctx, 'credit_note', rest as DraftInput));
    return toDocument(await inTransaction(deps.db, ctx, (tx) => insertDraft(tx, ctx, draft)), deps.config.publicUrl);
  }
  const invoice = await findDocumentRow(deps.db, ctx.scope, 'invoice', relatedInvoiceId);
  if (!invoice) throw new ApiError('related_invoice_not_found', { param: 'relatedInvoiceId' });
  if (invoice.documentStatus !== 'finalized') {
    throw refuse(
      'invalid_status_transition',
      `Invoice ${relatedInvoiceId} is ${invoice.documentStatus}: a credit note corrects a finalized invoice (a draft is edited or deleted instead).`,
      { param: 'relatedInvoiceId' },
    );
  }
  if (rest.buyer !== undefined || (rest.customerId !== undefined && rest.customerId !== invoice.customerId)) {
    throw refuse(
      'invalid_field_value',
      `A credit note is addressed to the buyer of the invoice it corrects (${invoice.customerId ?? 'its inline buyer'}); leave \`customerId\` and \`buyer\` out.`,
      { param: rest.buyer !== undefined ? 'buyer' : 'customerId' },
    );
  }
  // Without lines, the whole invoice is credited: its lines as they were issued.
  const lines = rest.lines ? await linesOf(deps, ctx.scope, rest.lines) : invoice.lines.map((line) => ({ ...line }));
  const { customerId: _customerId, buyer: _buyer, lines: _lines, ...fields } = rest;
  const draft = draftRow(ctx, {
    kind: 'credit_note',
    party: { customerId: invoice.customerId, buyer: invoice.customerId ? null : invoice.buyer },
    lines,
    input: {
      ...fields,
      currency: invoice.currency as 'EUR',
      taxSource: fields.taxSource ?? (invoice.taxSource as 'service' | 'integration' | null),
    },
    extra: {
      relatedInvoiceId: invoice.id,
      relatedInvoiceNumber: invoice.number,
      // The whole invoice credited: its own allowances and charges too, so the credit note nets the same.
      ...(rest.lines ? {} : { allowances: invoice.allowances, charges: invoice.charges }),
    },
  });
  return toDocument(await inTransaction(deps.db, ctx, (tx) => insertDraft(tx, ctx, draft)), deps.config.publicUrl);
}

export async function updateCreditNote(
  deps: Needs,
  ctx: CallContext,
  id: string,
  input: Static<typeof creditNoteUpdateBody>,
): Promise<DocumentResource> {
  return updateDocumentDraft(deps, ctx, 'credit_note', id, input);
}

/** Finalized with its own decision and series; the related invoice's total owed goes down in the same transaction. */
export async function finalizeCreditNote(
  deps: Needs,
  ctx: CallContext,
  id: string,
  seller: Seller,
): Promise<DocumentResource> {
  return finalize(deps, ctx, 'credit_note', id, seller, {
    beforeNumber: async (tx, draft, { total }) => {
      if (!draft.relatedInvoiceId) return;
      const invoice = await lockRelatedInvoice(tx, ctx, draft.relatedInvoiceId);
      await creditInvoice(tx, ctx, invoice, total, draft.id);
    },
  });
}

export interface Refund {
  id: string;
  object: 'refund';
  livemode: boolean;
  creditNoteId: string;
  invoiceId: string;
  amount: number;
  currency: string;
  method: string;
  reference: string | null;
  refundedAt: string;
  /** The negative payment statement (status 212) owed for it, as a payment's `fr212`; null when none is owed. */
  fr212: Record<string, unknown> | null;
  metadata: Record<string, unknown>;
  created: string;
}

export function toRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    object: 'refund',
    livemode: row.livemode,
    creditNoteId: row.creditNoteId,
    invoiceId: row.invoiceId,
    amount: row.amount,
    currency: row.currency,
    method: row.method,
    reference: row.reference,
    refundedAt: row.refundedAt.toISOString(),
    fr212: row.fr212 ?? null,
    metadata: row.metadata,
    created: row.created.toISOString(),
  };
}

export const refundBody = Type.Object(
  {
    amount: Type.Unsafe<unknown>({
      description:
        'Cents, a positive integer, at most what is left to refund (`invalid_refund_amount`, `refund_exceeds_credit_note`).',
    }),
    method: Type.Optional(
      Type.Union(
        ['transfer', 'card', 'cash', 'check', 'other'].map((method) => Type.Literal(method)),
        { description: 'Default `transfer`.' },
      ),
    ),
    reference: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 200 })),
    refundedAt: Type.Optional(
      Type.String({
        maxLength: 40,
        format: 'date-or-date-time',
        description: 'ISO 8601 date or date-time; default now.',
      }),
    ),
    metadata: Type.Optional(metadataField),
  },
  { additionalProperties: false },
);

export type RefundInput = Static<typeof refundBody>;

/**
 * `POST /v1/credit-notes/:id/refunds`: money given back to the buyer. The credit note must be
 * finalized and not fully refunded (`credit_note_not_refundable`), the amount a positive integer
 * (`invalid_refund_amount`) within what is left (`refund_exceeds_credit_note`: the credit note's
 * remainder, never more than was paid on the invoice and not given back), and the invoice it
 * corrects must exist (`related_invoice_not_found`).
 */
export async function refundCreditNote(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
  input: RefundInput,
): Promise<Refund> {
  const amount = input.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0)
    throw new ApiError('invalid_refund_amount', { param: 'amount' });
  let refundedAt = ctx.now;
  if (input.refundedAt !== undefined) {
    const parsed = parseIsoInstant(input.refundedAt);
    if (!parsed)
      throw refuse('invalid_field_value', '`refundedAt` must be an ISO 8601 date or date-time with its offset.', {
        param: 'refundedAt',
      });
    refundedAt = parsed;
  }
  const details = {
    method: input.method ?? 'transfer',
    reference: input.reference?.trim() || null,
    refundedAt,
    metadata: input.metadata ?? {},
  };
  return inTransaction(deps.db, ctx, async (tx) => (await recordRefund(tx, ctx, id, async () => amount, details))!);
}

/** A refund that a card provider reports as a running total for one of its payments. */
export interface ReferencedRefundInput {
  /** The provider's payment (Stripe's PaymentIntent): the refunds with this reference on the invoice are its refunds. */
  reference: string;
  /** Cents refunded on that payment so far, all refunds together (Stripe's `amount_refunded`). */
  total: number;
  method: RefundRow['method'];
  refundedAt: Date;
  metadata: Record<string, unknown>;
}

/**
 * A card provider's refund: the refunds of `input.reference` on the credit note's invoice brought
 * up to `input.total`, on credit note `id`; null when they already add up to it. The difference is
 * taken under the invoice's lock, so two reports of the same payment's refunds at once, in either
 * order, record the total once. `within` runs in the same transaction (the provider's event id).
 */
export async function refundUpTo(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
  input: ReferencedRefundInput,
  within: (tx: Tx, refund: Refund | null) => Promise<void>,
): Promise<Refund | null> {
  return inTransaction(deps.db, ctx, async (tx) => {
    const refund = await recordRefund(
      tx,
      ctx,
      id,
      async (invoice) => input.total - (await refundedWithReference(tx, ctx.scope, invoice.id, input.reference)),
      { method: input.method, reference: input.reference, refundedAt: input.refundedAt, metadata: input.metadata },
    );
    await within(tx, refund);
    return refund;
  });
}

/**
 * The refund step under the credit note's and its invoice's locks: `amountOf` says how much, from
 * the locked invoice (zero or less: nothing to record, null).
 */
async function recordRefund(
  tx: Tx,
  ctx: CallContext,
  id: string,
  amountOf: (invoice: DocumentRow) => Promise<number>,
  details: Pick<RefundRow, 'method' | 'reference' | 'refundedAt' | 'metadata'>,
): Promise<Refund | null> {
  const note = await findDocumentRow(tx, ctx.scope, 'credit_note', id, true);
  if (!note) throw refuse('not_found', `No credit note ${id}.`, { param: 'id' });
  if (note.documentStatus !== 'finalized')
    throw explained(
      'credit_note_not_refundable',
      `Credit note ${id} is ${note.documentStatus}: only a finalized credit note is refunded.`,
      { param: 'id' },
    );
  if (!note.relatedInvoiceId)
    throw new ApiError('related_invoice_not_found', {
      param: 'relatedInvoiceId',
      hint: 'A standalone credit note corrects no invoice: nothing was collected through it to give back.',
    });
  const invoice = await lockRelatedInvoice(tx, ctx, note.relatedInvoiceId);
  const amount = await amountOf(invoice);
  if (amount <= 0) return null;
  if (note.amountRefunded >= (note.total ?? 0))
    throw explained(
      'credit_note_not_refundable',
      `Credit note ${id} is already fully refunded (${note.amountRefunded} cents).`,
      { param: 'id' },
    );
  const remaining = refundableOf(note, invoice);
  if (amount > remaining)
    throw new ApiError('refund_exceeds_credit_note', { values: { amount, remaining }, param: 'amount' });
  const row: RefundRow = {
    ...ctx.scope,
    id: newId('refund', ctx.now),
    creditNoteId: id,
    invoiceId: invoice.id,
    amount,
    currency: note.currency,
    ...details,
    fr212: null,
    created: ctx.now,
  };
  // The money collected goes down: the statement owed on the payments is owed again, negative.
  const refunded = await refundInvoice(tx, ctx, invoice, amount, row.id, (facts) => initialFr212(facts, ctx.now));
  row.fr212 = refunded.fr212;
  await insertRefund(tx, row);
  await markCreditNoteRefunded(tx, ctx, note, amount);
  return toRefund(row);
}

/** Cents refunded on `invoiceId` under a card provider's payment `reference`, all refunds together. */
export async function refundedByReference(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  invoiceId: string,
  reference: string,
): Promise<number> {
  return refundedWithReference(deps.db, scope, invoiceId, reference);
}

/** A credit note a refund of the invoice can go on, with what is left to refund on it. */
export interface RefundableCreditNote {
  id: string;
  number: string | null;
  /** Cents: the credit note's remainder, never more than was collected on the invoice and not given back. */
  refundable: number;
}

/** The finalized credit notes of `invoiceId` that something can still be refunded on, oldest first. */
export async function refundableCreditNotes(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  invoiceId: string,
): Promise<RefundableCreditNote[]> {
  const invoice = await findDocumentRow(deps.db, scope, 'invoice', invoiceId);
  if (!invoice) return [];
  const notes = await finalizedCreditNotesOf(deps.db, scope, invoiceId);
  return notes
    .map((note) => ({ id: note.id, number: note.number, refundable: refundableOf(note, invoice) }))
    .filter((note) => note.refundable > 0);
}

export async function listRefunds(
  deps: Needs,
  scope: Scope,
  id: string,
  page: PageRequest,
): Promise<ListEnvelope<Refund>> {
  await getInvoiceDocument(deps, scope, 'credit_note', id);
  const rows = await pageRefunds(deps.db, scope, id, page);
  return toListEnvelope(rows, page, `/v1/credit-notes/${id}/refunds`, (row) => row.id, toRefund);
}

/** Sandbox reset: every test refund of the company goes (the credit notes go with the invoices). */
export async function purgeTestRefunds(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live refunds');
  return deleteScopeRefunds(tx, scope);
}
