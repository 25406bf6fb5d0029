import { randomBytes } from 'node:crypto';
import { Type, type Static } from 'typebox';
import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { recordEvent } from '../webhooks/service.js';
import { currentVersion } from '../kernel/api-version.js';
import { scopeTime } from '../kernel/sandbox-clock.js';
import { addDays, dayOf, endOfDay } from '../kernel/calendar.js';
import { later } from '../kernel/clock.js';
import { checkMetadata, metadataField } from '../kernel/metadata.js';
import { formatNumber, seriesOf } from '../numbering/series.js';
import { moveCounterBeyond, takeNextValue } from '../numbering/service.js';
import { buyerInput, shownBuyer, type BuyerInput, type BuyerSnapshot } from '../invoices/buyer.js';
import { draftFields } from '../invoices/document-fields.js';
import { linesField, resolveLines, type DocumentLine } from '../invoices/lines.js';
import { createDraftFromQuote, documentLines, documentParty, type DocumentResource } from '../invoices/service.js';
import { customerFixtures, customerResourceLookup } from '../customers/service.js';
import { queueDocumentEmail } from '../mail/service.js';
import { readLookups } from '../db/lookup.js';
import { getCompany } from '../companies/service.js';
import { fixtureCreated, fixtureId } from '../identifiers/fixture-id.js';
import { checkStillValid, quoteMove, type QuoteAction, type QuoteStatus } from './quote-status.js';
import {
  claimExpired,
  deleteScopeQuotes,
  findQuote,
  findQuoteByViewToken,
  pageQuotes,
  updateQuote,
  type QuoteRow,
  insertQuotes as insertQuoteRows,
} from './store.js';

/** Quotes (devis): drafts, numbered in their own series, sent, accepted or refused, expired, converted into a draft invoice. */

export interface Quote {
  id: string;
  object: 'quote';
  livemode: boolean;
  number: string | null;
  status: QuoteStatus;
  customerId: string | null;
  buyer: BuyerSnapshot | null;
  currency: string;
  lines: DocumentLine[];
  subtotal: number;
  issueDate: string | null;
  validUntil: string | null;
  notes: string | null;
  metadata: Record<string, unknown>;
  invoiceId: string | null;
  /** The quote's public page, for the customer (its first view once sent: `quote.viewed`); null for a draft. */
  publicUrl: string | null;
  viewedAt: string | null;
  created: string;
  updated: string;
}

/** The secret in a quote's public address. */
const viewToken = () => randomBytes(24).toString('base64url');

export function toQuote(row: QuoteRow, publicUrl: string): Quote {
  return {
    id: row.id,
    object: 'quote',
    livemode: row.livemode,
    number: row.number,
    status: row.status as QuoteStatus,
    customerId: row.customerId,
    buyer: shownBuyer((row.buyer as BuyerSnapshot | null) ?? null),
    currency: row.currency,
    lines: row.lines as unknown as DocumentLine[],
    subtotal: row.subtotal,
    issueDate: row.issueDate,
    validUntil: row.validUntil,
    notes: row.notes,
    metadata: row.metadata,
    invoiceId: row.invoiceId,
    publicUrl: row.viewToken ? `${publicUrl}/quote/${row.viewToken}` : null,
    viewedAt: row.viewedAt?.toISOString() ?? null,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

/** The contract's quote family: `id`, `object`, `status`, `number`, `metadata`. */
function quoteEventData(row: QuoteRow, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: row.id, object: 'quote', status: row.status, number: row.number, metadata: row.metadata, ...extra };
}

const validityField = Type.Optional(
  Type.Unsafe<string | null>({
    type: ['string', 'null'],
    format: 'date',
    description:
      'Last day the quote may be accepted; default 30 days after its finalization. The day after, it expires (`quote.expired`).',
  }),
);

export const quoteCreateBody = Type.Object(
  {
    customerId: draftFields.customerId,
    buyer: Type.Optional(buyerInput),
    lines: linesField,
    currency: draftFields.currency,
    validUntil: validityField,
    notes: draftFields.notes,
    metadata: Type.Optional(metadataField),
  },
  { additionalProperties: false },
);

export const quoteUpdateBody = Type.Object(
  {
    customerId: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 255 })),
    buyer: Type.Optional(Type.Unsafe<BuyerInput | null>({ ...buyerInput, type: ['object', 'null'] })),
    lines: Type.Optional(linesField),
    validUntil: validityField,
    notes: draftFields.notes,
    metadata: Type.Optional(metadataField),
  },
  { additionalProperties: false },
);

export type QuoteInput = Static<typeof quoteCreateBody>;
export type QuoteUpdate = Static<typeof quoteUpdateBody>;

type Needs = Pick<Deps, 'db' | 'config'>;
export const defaultValidityDays = 30;

const notFound = (id: string) => refuse('not_found', `No quote ${id}.`, { param: 'id' });

const subtotalOf = (lines: DocumentLine[]) => lines.reduce((sum, line) => sum + line.netAmount, 0);

export async function createQuote(deps: Needs, ctx: CallContext, input: QuoteInput): Promise<Quote> {
  const party = await documentParty(deps, ctx.scope, input.customerId, input.buyer);
  const lines = await documentLines(deps, ctx.scope, input.lines);
  const metadata = input.metadata ?? {};
  checkMetadata(metadata);
  const row: QuoteRow = {
    ...ctx.scope,
    id: newId('quote', ctx.now),
    number: null,
    status: 'draft',
    ...party,
    buyer: party.buyer as unknown as Record<string, unknown> | null,
    currency: input.currency ?? 'EUR',
    lines: lines as unknown as Record<string, unknown>[],
    subtotal: subtotalOf(lines),
    issueDate: null,
    validUntil: input.validUntil ?? null,
    notes: input.notes ?? null,
    metadata,
    invoiceId: null,
    expiresAt: null,
    finalizedAt: null,
    sentAt: null,
    viewToken: null,
    viewedAt: null,
    decidedAt: null,
    created: ctx.now,
    updated: ctx.now,
  };
  await inTransaction(deps.db, ctx, async (tx) => {
    await insertQuoteRows(tx, [row]);
    await recordEvent(tx, ctx, 'quote.created', quoteEventData(row), ctx.now);
  });
  return toQuote(row, deps.config.publicUrl);
}

export async function getQuote(deps: Needs, scope: Scope, id: string): Promise<Quote> {
  const row = await findQuote(deps.db, scope, id);
  if (!row) throw notFound(id);
  return toQuote(row, deps.config.publicUrl);
}

export async function listQuotes(
  deps: Needs,
  scope: Scope,
  page: PageRequest,
  filters: { status?: string | undefined; customerId?: string | undefined },
): Promise<ListEnvelope<Quote>> {
  const rows = await pageQuotes(deps.db, scope, page, filters);
  return toListEnvelope(
    rows,
    page,
    '/v1/quotes',
    (row) => row.id,
    (row) => toQuote(row, deps.config.publicUrl),
  );
}

export async function updateQuoteDraft(deps: Needs, ctx: CallContext, id: string, input: QuoteUpdate): Promise<Quote> {
  const party =
    input.customerId !== undefined || input.buyer !== undefined
      ? await documentParty(deps, ctx.scope, input.customerId, input.buyer)
      : null;
  const lines = input.lines ? await documentLines(deps, ctx.scope, input.lines) : null;
  const row = await inTransaction(deps.db, ctx, async (tx) => {
    const current = await findQuote(tx, ctx.scope, id, true);
    if (!current) throw notFound(id);
    if (current.status !== 'draft')
      throw refuse(
        'invalid_status_transition',
        `Quote ${id} is ${current.status}: only a draft quote is edited; issue a new quote.`,
        { param: 'id' },
      );
    const changes: Partial<QuoteRow> = {};
    if (party)
      Object.assign(changes, {
        customerId: party.customerId,
        buyer: party.buyer as unknown as Record<string, unknown> | null,
      });
    if (lines)
      Object.assign(changes, { lines: lines as unknown as Record<string, unknown>[], subtotal: subtotalOf(lines) });
    if (input.validUntil !== undefined) changes.validUntil = input.validUntil;
    if (input.notes !== undefined) changes.notes = input.notes;
    if (input.metadata !== undefined) {
      checkMetadata(input.metadata);
      changes.metadata = input.metadata;
    }
    if (Object.keys(changes).length === 0) return current;
    return updateQuote(tx, ctx.scope, id, { ...changes, updated: ctx.now });
  });
  return toQuote(row, deps.config.publicUrl);
}

/** Who receives a quote: its customer (read in the transaction) or its inline buyer. */
async function quoteRecipient(tx: Executor, scope: Scope, row: QuoteRow) {
  if (row.customerId) {
    const { customer } = await readLookups(tx, { customer: customerResourceLookup(scope, row.customerId) });
    if (customer) return { email: customer.email, name: customer.name, country: customer.address?.country ?? null };
  }
  const buyer = row.buyer as Partial<BuyerSnapshot> | null;
  return { email: buyer?.email ?? null, name: buyer?.name ?? null, country: buyer?.address?.country ?? null };
}

/**
 * The e-mail of a sent quote, with the link to its page (accept or refuse there): quotes have no
 * PDF of their own. Logged in test mode, without a recipient or an SMTP server (`quote.sent` then at once).
 */
async function queueQuoteEmail(tx: Executor, ctx: CallContext, config: Needs['config'], row: QuoteRow) {
  const recipient = await quoteRecipient(tx, ctx.scope, row);
  await queueDocumentEmail(tx, ctx, config, {
    kind: 'quote',
    documentId: row.id,
    number: row.number ?? row.id,
    to: recipient.email,
    buyerName: recipient.name,
    country: recipient.country,
    amount: null,
    link: toQuote(row, config.publicUrl).publicUrl,
    attachment: null,
    event: { type: 'quote.sent', data: quoteEventData(row) },
  });
}

/** One move of the table, on the locked quote, with its event. */
async function move(
  deps: Needs,
  ctx: CallContext,
  id: string,
  action: Exclude<QuoteAction, 'expire' | 'convert'>,
): Promise<Quote> {
  const row = await inTransaction(deps.db, ctx, async (tx) => {
    const current = await findQuote(tx, ctx.scope, id, true);
    if (!current) throw notFound(id);
    const next = quoteMove(id, current.status as QuoteStatus, action);
    const today = dayOf(ctx.now);
    if (action === 'finalize') {
      const validUntil = current.validUntil ?? addDays(today, defaultValidityDays);
      if (validUntil < today)
        throw refuse('invalid_field_value', `\`validUntil\` ${validUntil} is already past.`, { param: 'validUntil' });
      const series = seriesOf('quote', ctx.scope.livemode, Number(today.slice(0, 4)));
      const number = formatNumber(series, await takeNextValue(tx, ctx.scope, series));
      return updateQuote(tx, ctx.scope, id, {
        status: next.to,
        number,
        issueDate: today,
        validUntil,
        expiresAt: endOfDay(validUntil),
        finalizedAt: ctx.now,
        viewToken: viewToken(),
        updated: ctx.now,
      });
    }
    checkStillValid(id, current.validUntil, today);
    const stamp: Partial<QuoteRow> = action === 'send' ? { sentAt: ctx.now } : { decidedAt: ctx.now };
    const updated = await updateQuote(tx, ctx.scope, id, { status: next.to, ...stamp, updated: ctx.now });
    // The sent quote goes to the customer by e-mail; `quote.sent` is recorded when it leaves.
    if (action === 'send') await queueQuoteEmail(tx, ctx, deps.config, updated);
    else if (next.event) await recordEvent(tx, ctx, next.event, quoteEventData(updated), ctx.now);
    return updated;
  });
  return toQuote(row, deps.config.publicUrl);
}

export const finalizeQuote = (deps: Needs, ctx: CallContext, id: string) => move(deps, ctx, id, 'finalize');
export const sendQuote = (deps: Needs, ctx: CallContext, id: string) => move(deps, ctx, id, 'send');
export const acceptQuote = (deps: Needs, ctx: CallContext, id: string) => move(deps, ctx, id, 'accept');
export const refuseQuote = (deps: Needs, ctx: CallContext, id: string) => move(deps, ctx, id, 'refuse');

/** `POST /v1/quotes/:id/convert`: a draft invoice with the quote's buyer and lines (`invoice.created`, `quote.converted`). */
export async function convertQuote(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  id: string,
): Promise<{ quote: Quote; invoice: DocumentResource }> {
  const seen = await findQuote(deps.db, ctx.scope, id);
  if (!seen) throw notFound(id);
  // A deleted customer takes no new invoice (resource_deleted), as for any new draft.
  if (seen.customerId) await documentParty(deps, ctx.scope, seen.customerId, null);
  const result = await inTransaction(deps.db, ctx, async (tx) => {
    const current = await findQuote(tx, ctx.scope, id, true);
    if (!current) throw notFound(id);
    const next = quoteMove(id, current.status as QuoteStatus, 'convert');
    checkStillValid(id, current.validUntil, dayOf(ctx.now));
    const invoice = await createDraftFromQuote(
      tx,
      ctx,
      {
        id: current.id,
        party: {
          customerId: current.customerId,
          buyer: current.customerId ? null : (current.buyer as BuyerSnapshot | null),
        },
        lines: current.lines as unknown as DocumentLine[],
        currency: current.currency as 'EUR',
        notes: current.notes,
        metadata: current.metadata,
      },
      deps.config.publicUrl,
    );
    const updated = await updateQuote(tx, ctx.scope, id, {
      status: next.to,
      invoiceId: invoice.id,
      decidedAt: current.decidedAt ?? ctx.now,
      updated: ctx.now,
    });
    await recordEvent(tx, ctx, next.event!, quoteEventData(updated, { invoiceId: invoice.id }), later(ctx.now, 1));
    return { quote: updated, invoice };
  });
  return {
    quote: toQuote(result.quote, deps.config.publicUrl),
    invoice: result.invoice,
  };
}

/** What the public page of a quote shows. */
export interface QuoteView {
  seller: string;
  quote: Quote;
}

/**
 * `GET /quote/:token`: the customer opens the quote's page. The first opening of a sent quote
 * records `viewedAt` and emits `quote.viewed` (once); the seller's own look at a quote not yet
 * sent, and any later opening, emit nothing. Null for an unknown token.
 */
export async function viewQuote(deps: Pick<Deps, 'db' | 'clock' | 'config'>, token: string): Promise<QuoteView | null> {
  const found = await inTransaction(deps.db, null, async (tx) => {
    const seen = await findQuoteByViewToken(tx, token);
    if (!seen || seen.row.status !== 'sent' || seen.row.viewedAt !== null) return seen;
    const scope = { companyId: seen.row.companyId, livemode: seen.row.livemode };
    const now = scopeTime(deps.clock.now(), scope.livemode, seen.sandboxClockOffsetMs);
    const ctx: CallContext = { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now };
    const updated = await updateQuote(tx, scope, seen.row.id, { viewedAt: now, updated: now });
    await recordEvent(tx, ctx, 'quote.viewed', quoteEventData(updated), now);
    return { ...seen, row: updated };
  });
  if (!found) return null;
  const seller = await getCompany(deps, found.row.companyId);
  return { seller: seller.name, quote: toQuote(found.row, deps.config.publicUrl) };
}

/** Open quotes whose validity date passed (on the sandbox clock for test quotes) expire: `quote.expired`. */
export async function expireQuotes(
  deps: Pick<Deps, 'db' | 'clock'>,
  options: { companyIds?: string[]; batch?: number } = {},
): Promise<number> {
  const batch = options.batch ?? 200;
  let total = 0;
  for (;;) {
    const expired = await inTransaction(deps.db, null, async (tx: Tx) => {
      const realNow = deps.clock.now();
      const due = await claimExpired(tx, realNow, batch, options.companyIds);
      for (const { row, sandboxClockOffsetMs } of due) {
        const now = scopeTime(realNow, row.livemode, sandboxClockOffsetMs);
        const ctx: CallContext = {
          scope: { companyId: row.companyId, livemode: row.livemode },
          requestId: null,
          idempotencyKey: null,
          apiVersion: currentVersion,
          now,
        };
        const updated = await updateQuote(tx, ctx.scope, row.id, { status: 'expired', decidedAt: now, updated: now });
        await recordEvent(tx, ctx, 'quote.expired', quoteEventData(updated), now);
      }
      return due.length;
    });
    total += expired;
    if (expired < batch) return total;
  }
}

/** Sandbox reset: every test quote of the company goes. */
export async function purgeTestQuotes(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live quotes');
  return deleteScopeQuotes(tx, scope);
}

export type { QuoteRow } from './store.js';

/** Quotes written as given, in the caller's transaction (the sandbox's fixtures, an import): no number taken, no event. */
export function insertQuotes(tx: Executor, rows: QuoteRow[]): Promise<void> {
  return insertQuoteRows(tx, rows);
}

/** The sandbox's fixture quotes: a draft and a sent one (numbered; the quote series moves beyond it). No event. */
export async function seedQuoteFixtures(tx: Executor, ctx: CallContext): Promise<number> {
  const scope = ctx.scope;
  if (scope.livemode) throw new Error('fixtures are for the sandbox only');
  const index = customerFixtures.findIndex(([name]) => name === 'fr_b2b');
  const customerId = fixtureId('customer', scope.companyId, 'fr_b2b', customerFixtures.length - index);
  const lines = resolveLines(
    [{ description: 'Conseil en organisation', quantity: '10', unitPrice: '90.00', unit: 'HUR', nature: 'services' }],
    new Map(),
  );
  const today = dayOf(ctx.now);
  const issueDate = addDays(today, -3);
  const series = seriesOf('quote', false, Number(issueDate.slice(0, 4)));
  const validUntil = addDays(issueDate, defaultValidityDays);
  const common = {
    ...scope,
    customerId,
    buyer: null,
    currency: 'EUR',
    lines: lines as unknown as Record<string, unknown>[],
    subtotal: subtotalOf(lines),
    notes: null,
    invoiceId: null,
    decidedAt: null,
    viewedAt: null,
  };
  const rows: QuoteRow[] = [
    {
      ...common,
      id: fixtureId('quote', scope.companyId, 'sent', 2),
      number: formatNumber(series, 1),
      status: 'sent',
      issueDate,
      validUntil,
      metadata: { fixture: 'sent' },
      viewToken: viewToken(),
      expiresAt: endOfDay(validUntil),
      finalizedAt: new Date(`${issueDate}T09:00:00Z`),
      sentAt: new Date(`${issueDate}T09:05:00Z`),
      created: fixtureCreated(2),
      updated: new Date(`${issueDate}T09:05:00Z`),
    },
    {
      ...common,
      id: fixtureId('quote', scope.companyId, 'draft', 1),
      number: null,
      status: 'draft',
      issueDate: null,
      validUntil: null,
      metadata: { fixture: 'draft' },
      viewToken: null,
      expiresAt: null,
      finalizedAt: null,
      sentAt: null,
      created: fixtureCreated(1),
      updated: fixtureCreated(1),
    },
  ];
  await insertQuoteRows(tx, rows);
  await moveCounterBeyond(tx, scope, series, 1);
  return rows.length;
}
