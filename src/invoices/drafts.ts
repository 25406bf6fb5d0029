import { Type, type Static } from 'typebox';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { recordEvent } from '../webhooks/service.js';
import { getCustomer, type Customer } from '../customers/service.js';
import { getProduct } from '../products/service.js';
import { draftAxes, type DocumentKind } from './document-axes.js';
import { buyerInput, checkBuyer, type BuyerInput, type BuyerSnapshot, type CustomerFacts } from './buyer.js';
import { linesField, resolveLines, subtotalOf, type DocumentLine, type LineInput, type ProductFacts } from './lines.js';
import { axesColumns, documentEventData, freshEinvoicing, type DocumentRow } from './document-record.js';
import { findDocument, insertDocument, updateDocument } from './store.js';
import { checkMetadata } from '../kernel/metadata.js';
import { draftFields, nullableString } from './document-fields.js';
import { checkDepositsOnDraft, depositReferencesOf, depositsField, invoiceTypeField } from './deposit-invoices.js';
import {
  checkDocumentNet,
  documentAdjustmentsField,
  resolveDocumentAdjustments,
  type DocumentAdjustmentInput,
  type DocumentAdjustments,
} from '../kernel/document-adjustments.js';

/** Drafts of invoices and credit notes: created, edited and deleted while nothing is numbered. */

/** BG-20 / BG-21: the tax decision states the same, and splits them over the VAT groups. */
const documentAdjustmentFields = {
  allowances: Type.Optional(
    documentAdjustmentsField(
      "Allowances on the whole document (BG-20), deducted from the lines' total; split over the VAT rates by the lines' nets.",
    ),
  ),
  charges: Type.Optional(
    documentAdjustmentsField(
      "Charges on the whole document (BG-21), such as shipping, added to the lines' total; split over the VAT rates likewise.",
    ),
  ),
};

/** An invoice's own: a deposit invoice, or the deposits a final invoice deducts. */
const depositFields = {
  invoiceType: Type.Optional(invoiceTypeField),
  deposits: Type.Optional(depositsField),
};

export const invoiceCreateBody = Type.Object(
  { ...draftFields, ...documentAdjustmentFields, ...depositFields, lines: linesField },
  { additionalProperties: false },
);
export const invoiceUpdateBody = Type.Object(
  {
    ...draftFields,
    ...documentAdjustmentFields,
    ...depositFields,
    customerId: Type.Optional(nullableString({ maxLength: 255 })),
    buyer: Type.Optional(Type.Unsafe<Static<typeof buyerInput> | null>({ ...buyerInput, type: ['object', 'null'] })),
    lines: Type.Optional(linesField),
  },
  { additionalProperties: false },
);

export type DraftInput = Static<typeof invoiceCreateBody>;
export type DraftUpdate = Static<typeof invoiceUpdateBody>;

function documentAdjustmentsOf(
  allowances: DocumentAdjustmentInput[] | undefined,
  charges: DocumentAdjustmentInput[] | undefined,
): DocumentAdjustments {
  return {
    allowances: resolveDocumentAdjustments(allowances, 'allowance', 'allowances'),
    charges: resolveDocumentAdjustments(charges, 'charge', 'charges'),
  };
}

export function notFound(kind: DocumentKind, id: string): ApiError {
  return refuse('not_found', `No ${kind === 'invoice' ? 'invoice' : 'credit note'} ${id}.`, { param: 'id' });
}

/** The customer named by a document, as the invoices capability needs it. */
export async function readCustomer(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  id: string,
  param = 'customerId',
): Promise<CustomerFacts> {
  let customer;
  try {
    customer = await getCustomer(deps, scope, id);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return customerFactsOf(null, id, param);
    throw error;
  }
  return customerFactsOf(customer, id, param);
}

/** The customer `id` as a lookup read it (null: none in this environment, `not_found`). */
export function customerFactsOf(customer: Customer | null, id: string, param = 'customerId'): CustomerFacts {
  if (!customer) throw refuse('not_found', `No customer ${id}.`, { param });
  return {
    id: customer.id,
    type: customer.type,
    name: customer.name,
    email: customer.email,
    siren: customer.siren,
    siret: customer.siret,
    vatNumber: customer.vatNumber,
    electronicAddress: customer.electronicAddress,
    address: customer.address,
    deliveryAddress: customer.deliveryAddress,
    registryNonDisclosure: [...customer.registryNonDisclosure],
    einvoiceSyntax: customer.einvoiceSyntax,
    deleted: customer.deleted,
  };
}

/** Reads the products the lines name and resolves the lines. */
export async function linesOf(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  inputs: LineInput[],
  field = 'lines',
): Promise<DocumentLine[]> {
  const products = new Map<string, ProductFacts>();
  for (const [index, input] of inputs.entries()) {
    const id = input.productId;
    if (id === undefined || products.has(id)) continue;
    try {
      const product = await getProduct(deps, scope, id);
      products.set(id, {
        id,
        name: product.name,
        unitPrice: product.unitPrice,
        unit: product.unit,
        nature: product.nature,
        vatCategory: product.vatCategory,
        deleted: product.deleted,
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found')
        throw refuse('not_found', `No product ${id}.`, { param: `${field}[${index}].productId` });
      throw error;
    }
  }
  return resolveLines(inputs, products, field);
}

export interface Party {
  customerId: string | null;
  buyer: BuyerSnapshot | null;
}

/** The buyer of a document or quote: an existing customer, or an inline buyer checked like one. */
export async function partyOf(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  customerId: string | null | undefined,
  buyer: BuyerInput | null | undefined,
): Promise<Party> {
  if (customerId && buyer)
    throw refuse('invalid_field_value', 'Give either `customerId` or an inline `buyer`, not both.', { param: 'buyer' });
  if (customerId) {
    const customer = await readCustomer(deps, scope, customerId);
    if (customer.deleted)
      throw new ApiError('resource_deleted', { values: { resource: 'customer', id: customerId }, param: 'customerId' });
    return { customerId, buyer: null };
  }
  if (buyer) return { customerId: null, buyer: checkBuyer(buyer) };
  throw new ApiError('missing_required_field', {
    param: 'customerId',
    values: { detail: 'A document or quote names its buyer: `customerId` or an inline `buyer`.' },
  });
}

function checkDates(fields: { issueDate: string | null; dueDate: string | null }): void {
  if (fields.issueDate && fields.dueDate && fields.dueDate < fields.issueDate) {
    throw refuse('invalid_field_value', `\`dueDate\` ${fields.dueDate} is before \`issueDate\` ${fields.issueDate}.`, {
      param: 'dueDate',
    });
  }
}

/** What a new draft of either kind is made of (credit notes add their own columns). */
export interface NewDraft {
  kind: DocumentKind;
  party: Party;
  lines: DocumentLine[];
  input: Omit<DraftInput, 'lines' | 'customerId' | 'buyer'>;
  extra?: Partial<DocumentRow>;
}

export function draftRow(ctx: CallContext, draft: NewDraft): DocumentRow {
  const { allowances: allowanceInputs, charges: chargeInputs, invoiceType, deposits, ...input } = draft.input;
  const depositColumns = {
    invoiceType: invoiceType ?? 'standard',
    deposits: depositReferencesOf(deposits ?? []),
    amountDeducted: 0,
    deductedBy: null,
  };
  checkDepositsOnDraft(depositColumns.invoiceType, depositColumns.deposits);
  const metadata = input.metadata ?? {};
  checkMetadata(metadata);
  const subtotal = subtotalOf(draft.lines);
  const adjustments = documentAdjustmentsOf(allowanceInputs, chargeInputs);
  checkDocumentNet(subtotal, adjustments);
  const dates = { issueDate: input.issueDate ?? null, dueDate: input.dueDate ?? null };
  checkDates(dates);
  return {
    ...ctx.scope,
    id: newId(draft.kind === 'invoice' ? 'invoice' : 'creditNote', ctx.now),
    kind: draft.kind,
    number: null,
    series: null,
    ...axesColumns(draftAxes, draft.kind),
    customerId: draft.party.customerId,
    buyer: draft.party.buyer,
    seller: null,
    currency: input.currency ?? 'EUR',
    taxSource: input.taxSource ?? null,
    taxDecisionId: input.taxDecisionId ?? null,
    backingDecisionId: null,
    lines: draft.lines,
    ...adjustments,
    ...dates,
    deliveryDate: input.deliveryDate ?? null,
    paymentTermsDays: input.paymentTermsDays ?? null,
    paymentTerms: input.paymentTerms ?? null,
    notes: input.notes ?? null,
    metadata,
    subtotal,
    totalTax: null,
    total: null,
    amountPaid: 0,
    amountRefunded: 0,
    amountCredited: 0,
    ...depositColumns,
    attachments: [],
    tax: null,
    einvoicing: freshEinvoicing(),
    history: [],
    relatedInvoiceId: null,
    relatedInvoiceNumber: null,
    quoteId: null,
    recurringInvoiceId: null,
    portalToken: null,
    dueAt: null,
    overdueAt: null,
    finalizedAt: null,
    created: ctx.now,
    updated: ctx.now,
    ...draft.extra,
  };
}

/** Inserts a draft and records `<kind>.created`, in the caller's transaction. */
export async function insertDraft(tx: Executor, ctx: CallContext, row: DocumentRow): Promise<DocumentRow> {
  await insertDocument(tx, row);
  await recordEvent(tx, ctx, `${row.kind}.created`, documentEventData(row, null), ctx.now);
  return row;
}

/** The parts of a create body, read and checked (customer, products), before any transaction. */
export async function prepareDraft(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  kind: DocumentKind,
  input: DraftInput,
): Promise<NewDraft> {
  const { lines: lineInputs, customerId, buyer, ...rest } = input;
  const party = await partyOf(deps, ctx.scope, customerId, buyer);
  const lines = await linesOf(deps, ctx.scope, lineInputs);
  return { kind, party, lines, input: rest };
}

/**
 * The deposits a draft names, read when it names them: an id of no invoice, or of an invoice that
 * is no deposit, is told now rather than at finalization (which checks everything again, locked).
 */
async function checkNamedDeposits(deps: Pick<Deps, 'db'>, scope: Scope, ids: readonly string[] | undefined) {
  for (const [index, id] of (ids ?? []).entries()) {
    const deposit = await findDocument(deps.db, scope, 'invoice', id);
    if (!deposit) throw refuse('invalid_field_value', `No invoice ${id}.`, { param: `deposits[${index}]` });
    if (deposit.invoiceType !== 'deposit')
      throw refuse('invalid_field_value', `Invoice ${id} is not a deposit invoice (\`invoiceType: deposit\`).`, {
        param: `deposits[${index}]`,
      });
  }
}

export async function createInvoiceDraft(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  input: DraftInput,
): Promise<DocumentRow> {
  // A deposit invoice naming deposits is refused for that by draftRow.
  if (input.invoiceType !== 'deposit') await checkNamedDeposits(deps, ctx.scope, input.deposits);
  const row = draftRow(ctx, await prepareDraft(deps, ctx, 'invoice', input));
  return inTransaction(deps.db, ctx, (tx) => insertDraft(tx, ctx, row));
}

export function notEditable(row: DocumentRow): ApiError {
  if (row.documentStatus === 'cancelled') {
    return refuse(
      'invalid_status_transition',
      `${row.kind === 'invoice' ? 'Invoice' : 'Credit note'} ${row.id} was deleted (cancelled as a draft) and can no longer change.`,
      { param: 'id' },
    );
  }
  return new ApiError('invoice_not_editable', {
    values: { id: row.number ? `${row.id} (${row.number})` : row.id },
    param: 'id',
    ...(row.kind === 'credit_note'
      ? { hint: 'A finalized credit note is corrected by a new document, never edited.' }
      : {}),
  });
}

/** Absent fields are kept; null clears; `lines` and `metadata` are replaced whole; `customerId` and `buyer` replace each other. */
export async function updateDraft(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
  input: DraftUpdate,
): Promise<DocumentRow> {
  if (kind === 'invoice' && input.invoiceType !== 'deposit') await checkNamedDeposits(deps, ctx.scope, input.deposits);
  const lines = input.lines ? await linesOf(deps, ctx.scope, input.lines) : null;
  const party =
    input.customerId !== undefined || input.buyer !== undefined
      ? await partyOf(deps, ctx.scope, input.customerId, input.buyer)
      : null;
  return inTransaction(deps.db, ctx, async (tx) => {
    const current = await findDocument(tx, ctx.scope, kind, id, true);
    if (!current) throw notFound(kind, id);
    if (current.documentStatus !== 'draft') throw notEditable(current);
    const changes: Partial<DocumentRow> = {};
    if (party) Object.assign(changes, party);
    if (lines) Object.assign(changes, { lines, subtotal: subtotalOf(lines) });
    if (input.allowances !== undefined || input.charges !== undefined) {
      const adjustments = documentAdjustmentsOf(input.allowances, input.charges);
      if (input.allowances !== undefined) changes.allowances = adjustments.allowances;
      if (input.charges !== undefined) changes.charges = adjustments.charges;
    }
    for (const field of [
      'currency',
      'issueDate',
      'dueDate',
      'deliveryDate',
      'paymentTermsDays',
      'paymentTerms',
      'notes',
      'taxSource',
      'taxDecisionId',
    ] as const) {
      if (input[field] !== undefined) (changes as Record<string, unknown>)[field] = input[field];
    }
    if (input.metadata !== undefined) {
      checkMetadata(input.metadata);
      changes.metadata = input.metadata;
    }
    if (input.invoiceType !== undefined) changes.invoiceType = input.invoiceType;
    if (input.deposits !== undefined) changes.deposits = depositReferencesOf(input.deposits);
    if (kind === 'invoice')
      checkDepositsOnDraft(changes.invoiceType ?? current.invoiceType, changes.deposits ?? current.deposits);
    checkDocumentNet(changes.subtotal ?? current.subtotal, {
      allowances: changes.allowances ?? current.allowances,
      charges: changes.charges ?? current.charges,
    });
    checkDates({
      issueDate: changes.issueDate !== undefined ? changes.issueDate : current.issueDate,
      dueDate: changes.dueDate !== undefined ? changes.dueDate : current.dueDate,
    });
    if (Object.keys(changes).length === 0) return current;
    return updateDocument(tx, ctx.scope, id, { ...changes, updated: ctx.now });
  });
}

/** A draft is deleted by cancelling it: `documentStatus: cancelled`; it never had a number. */
export async function deleteDraft(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
): Promise<DocumentRow> {
  return inTransaction(deps.db, ctx, async (tx) => {
    const current = await findDocument(tx, ctx.scope, kind, id, true);
    if (!current) throw notFound(kind, id);
    if (current.documentStatus !== 'draft') throw notEditable(current);
    return updateDocument(tx, ctx.scope, id, {
      ...axesColumns({ ...draftAxes, documentStatus: 'cancelled' }, kind),
      updated: ctx.now,
    });
  });
}

export async function getDocument(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  kind: DocumentKind,
  id: string,
): Promise<DocumentRow> {
  const row = await findDocument(deps.db, scope, kind, id);
  if (!row) throw notFound(kind, id);
  return row;
}
