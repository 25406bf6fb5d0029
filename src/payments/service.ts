import { Type, type Static } from 'typebox';
import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { parseIsoInstant } from '../kernel/iso-date.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { recordEvent } from '../webhooks/service.js';
import {
  accountingParties,
  collectPayment,
  fixturePaymentsOf,
  getInvoiceDocument,
  invoiceCollectionFacts,
  type AccountingParty,
  type AccountingPeriod,
  type InstantKey,
} from '../invoices/service.js';
import {
  countAccountingPayments,
  pageAccountingPayments,
  pageEreportablePayments as ereportablePayments,
  type AccountingPaymentRow,
} from './accounting-store.js';
import { euros } from '../kernel/money.js';
import { fixtureId } from '../identifiers/fixture-id.js';
import {
  deleteScopePayments,
  findPayment,
  findProviderPayment,
  insertPayments,
  pagePayments,
  type PaymentRow,
} from './store.js';
import { statementSources, type Statement } from './statement-sources.js';
import { checkMetadata, metadataField } from '../kernel/metadata.js';
import { initialFr212, nextFr212, statementObligation, type Fr212 } from './collection-statement.js';
import { currentVersion } from '../kernel/api-version.js';
import { scopeTime } from '../kernel/sandbox-clock.js';

/** Payments recorded on invoices: `POST /v1/payments`, `GET /v1/payments/:id`, `GET /v1/invoices/:id/payments`. */

export const paymentMethods = ['transfer', 'card', 'cash', 'check', 'direct_debit', 'other'] as const;

export interface Payment {
  id: string;
  object: 'payment';
  livemode: boolean;
  invoiceId: string;
  amount: number;
  currency: string;
  method: string;
  reference: string | null;
  paidAt: string;
  recorded_by: string;
  /**
   * The payment statement (status 212) owed on a domestic B2B e-invoice whose VAT is due on
   * collection (collection-statement.ts); null when none is owed.
   */
  fr212: Record<string, unknown> | null;
  metadata: Record<string, unknown>;
  created: string;
}

export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    object: 'payment',
    livemode: row.livemode,
    invoiceId: row.invoiceId,
    amount: row.amount,
    currency: row.currency,
    method: row.method,
    reference: row.reference,
    paidAt: row.paidAt.toISOString(),
    recorded_by: row.recordedBy,
    fr212: row.fr212 ?? null,
    metadata: row.metadata,
    created: row.created.toISOString(),
  };
}

export const paymentCreateBody = Type.Object(
  {
    invoiceId: Type.String({ minLength: 1, maxLength: 255, description: 'The finalized invoice paid (`inv_`).' }),
    amount: Type.Number({
      description:
        'Cents, a positive integer, at most what is still due (`invalid_payment_amount`, `payment_exceeds_amount_due`).',
    }),
    // Unsafe keeps the static type the methods' union (a union over a mapped array types as nothing).
    method: Type.Optional(
      Type.Unsafe<(typeof paymentMethods)[number]>(
        Type.Union(
          paymentMethods.map((method) => Type.Literal(method)),
          { description: 'Default `transfer`.' },
        ),
      ),
    ),
    reference: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        maxLength: 200,
        description: 'The bank reference, cheque number...',
      }),
    ),
    paidAt: Type.Optional(
      Type.String({
        maxLength: 40,
        format: 'date-or-date-time',
        description: 'When the money was received: an ISO 8601 date or date-time; default now.',
      }),
    ),
    currency: Type.Optional(Type.Literal('EUR')),
    livemode: Type.Optional(
      Type.Boolean({
        description:
          "The environment the payment belongs to, when the caller states it: it must be the key's (`livemode_mismatch`).",
      }),
    ),
    metadata: Type.Optional(metadataField),
  },
  { additionalProperties: false },
);

export type PaymentInput = Static<typeof paymentCreateBody>;

function paidAtOf(value: string | undefined, now: Date): Date {
  if (value === undefined) return now;
  const parsed = parseIsoInstant(value);
  if (!parsed)
    throw refuse(
      'invalid_field_value',
      '`paidAt` must be an ISO 8601 date (2026-09-01) or date-time with its offset.',
      { param: 'paidAt' },
    );
  if (parsed.getTime() > now.getTime() + 60_000)
    throw refuse('invalid_field_value', '`paidAt` is in the future: record a payment once it is received.', {
      param: 'paidAt',
    });
  return parsed;
}

/** Records a payment received: through the API (`api`), or reported by the card payment provider (`stripe`). */
export async function recordPayment(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  input: PaymentInput,
  origin: { recordedBy: 'api' } | { recordedBy: 'stripe'; paymentId: string } = { recordedBy: 'api' },
): Promise<Payment> {
  if (input.livemode !== undefined && input.livemode !== ctx.scope.livemode) {
    throw refuse(
      'livemode_mismatch',
      `The payment declares livemode ${input.livemode}, but this ${ctx.scope.livemode ? 'live' : 'test'} key records payments of ${ctx.scope.livemode ? 'live' : 'test'} invoices only.`,
      { param: 'livemode' },
    );
  }
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    throw new ApiError('invalid_payment_amount', { param: 'amount' });
  checkMetadata(input.metadata);
  const row: PaymentRow = {
    ...ctx.scope,
    id: origin.recordedBy === 'api' ? newId('payment', ctx.now) : origin.paymentId,
    invoiceId: input.invoiceId,
    amount: input.amount,
    currency: input.currency ?? 'EUR',
    method: input.method ?? 'transfer',
    reference: input.reference?.trim() || null,
    paidAt: paidAtOf(input.paidAt, ctx.now),
    recordedBy: origin.recordedBy,
    fr212: null,
    metadata: input.metadata ?? {},
    created: ctx.now,
  };
  await inTransaction(deps.db, ctx, async (tx) => {
    await recordEvent(
      tx,
      ctx,
      'payment.created',
      { invoiceId: row.invoiceId, paymentId: row.id, amount: euros(row.amount), method: row.method },
      ctx.now,
    );
    const collected = await collectPayment(tx, ctx, row.invoiceId, row.amount, row.id, (facts) =>
      initialFr212(facts, ctx.now),
    );
    // Stored with the statement the invoice's facts gave, as `payment.received` carried it.
    row.fr212 = collected.fr212;
    await insertPayments(tx, [row]);
  });
  return toPayment(row);
}

/**
 * A statement's new state, stored and told (`payment.obligation_updated`), in the caller's
 * transaction. A refund's statement is told as a payment's (the contract's `object`), its `id`
 * the refund's and `refundId` beside it.
 */
export async function recordStatementChange(
  tx: Executor,
  scope: Scope,
  statement: Statement,
  next: Fr212,
  now: Date,
): Promise<void> {
  await statementSources[statement.kind].update(tx, scope, statement.id, next);
  const ctx: CallContext = { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now };
  const data = {
    id: statement.id,
    object: 'payment',
    ...(statement.kind === 'refund' ? { refundId: statement.id } : {}),
    invoiceId: statement.invoiceId,
    fr212: next,
    obligation: statementObligation(next),
    reason: next.lastErrorReason ?? null,
  };
  await recordEvent(tx, ctx, 'payment.obligation_updated', data, now);
}

/**
 * Each statement of a source claimed by batches in id order (`FOR UPDATE SKIP LOCKED`, one
 * transaction a batch: several workers share the work and none handles one twice), handed with
 * its scope and its time (test ones on their company's sandbox clock); the sum of what `handle` counted.
 */
export async function eachStatement(
  deps: Pick<Deps, 'db' | 'clock'>,
  which: 'waiting' | 'due',
  options: { companyIds?: string[]; batch?: number },
  handle: (tx: Tx, statement: Statement, scope: Scope, now: Date) => Promise<number>,
): Promise<number> {
  const batch = options.batch ?? 200;
  let counted = 0;
  for (const source of Object.values(statementSources)) {
    let after: string | null = null;
    for (;;) {
      const pass: { claimed: number; counted: number; last: string | null } = await inTransaction(
        deps.db,
        null,
        async (tx) => {
          const realNow = deps.clock.now();
          const claimed = await source.claim(tx, which, batch, after, options.companyIds);
          let countedHere = 0;
          for (const { statement, sandboxClockOffsetMs } of claimed) {
            const scope: Scope = { companyId: statement.companyId, livemode: statement.livemode };
            countedHere += await handle(
              tx,
              statement,
              scope,
              scopeTime(realNow, statement.livemode, sandboxClockOffsetMs),
            );
          }
          return { claimed: claimed.length, counted: countedHere, last: claimed.at(-1)?.statement.id ?? null };
        },
      );
      counted += pass.counted;
      if (pass.claimed < batch) break;
      after = pass.last;
    }
  }
  return counted;
}

/**
 * The pass over the statements that wait on their invoice: when the invoice was deposited (or
 * rejected, or deposited again), the statement's `fr212` moves and `payment.obligation_updated`
 * says so, in the transaction of the move.
 */
export async function advanceWaitingStatements(
  deps: Pick<Deps, 'db' | 'clock'>,
  options: { companyIds?: string[]; batch?: number } = {},
): Promise<number> {
  return eachStatement(deps, 'waiting', options, async (tx, statement, scope, now) => {
    const facts = await invoiceCollectionFacts(tx, scope, statement.invoiceId);
    const next = facts ? nextFr212(statement.fr212, facts, now) : null;
    if (!next) return 0;
    await recordStatementChange(tx, scope, statement, next, now);
    return 1;
  });
}

export async function getPayment(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<Payment> {
  const row = await findPayment(deps.db, scope, id);
  if (!row) throw refuse('not_found', `No payment ${id}.`, { param: 'id' });
  return toPayment(row);
}

/** The payment `recordedBy` (a card provider) recorded with its own `reference`, if any. */
export async function findPaymentByProviderReference(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  recordedBy: string,
  reference: string,
): Promise<Payment | null> {
  const row = await findProviderPayment(deps.db, scope, recordedBy, reference);
  return row ? toPayment(row) : null;
}

export async function listPayments(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  filters: { invoiceId?: string | undefined },
): Promise<ListEnvelope<Payment>> {
  const rows = await pagePayments(deps.db, scope, page, filters);
  return toListEnvelope(rows, page, '/v1/payments', (row) => row.id, toPayment);
}

/** `GET /v1/invoices/:id/payments`: each with its current `fr212`. */
export async function listInvoicePayments(
  deps: Pick<Deps, 'db' | 'config'>,
  scope: Scope,
  invoiceId: string,
  page: PageRequest,
): Promise<ListEnvelope<Payment>> {
  await getInvoiceDocument(deps, scope, 'invoice', invoiceId);
  const rows = await pagePayments(deps.db, scope, page, { invoiceId });
  return toListEnvelope(rows, page, `/v1/invoices/${invoiceId}/payments`, (row) => row.id, toPayment);
}

/** Sandbox reset: every test payment of the company goes. */
export async function purgeTestPayments(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live payments');
  return deleteScopePayments(tx, scope);
}

export type { PaymentRow } from './store.js';

/** The fixture invoices' payments (sandbox reset), with ids that stay the same after every reset. */
/** Sandbox reset: the payments of the fixture invoices, `now` being the sandbox's time after the reset. */
export async function seedPaymentFixtures(tx: Executor, scope: Scope, now: Date): Promise<number> {
  if (scope.livemode) throw new Error('fixtures are for the sandbox only');
  const fixtures = fixturePaymentsOf(scope, now);
  const rows: PaymentRow[] = fixtures.map((fixture, index) => ({
    ...scope,
    id: fixtureId('payment', scope.companyId, fixture.name, fixtures.length - index),
    invoiceId: fixture.invoiceId,
    amount: fixture.amount,
    currency: 'EUR',
    method: fixture.method,
    reference: null,
    paidAt: fixture.paidAt,
    recordedBy: 'api',
    fr212: null,
    metadata: { fixture: fixture.name },
    created: fixture.paidAt,
  }));
  await insertPayments(tx, rows);
  return rows.length;
}

// The accounting exports: the period's payments in the order of the books, with their invoice.

/** A payment as the books see it: the money, when, and the invoice and party it settles. */
export interface AccountingPayment {
  key: InstantKey;
  id: string;
  invoiceId: string;
  invoiceNumber: string | null;
  party: AccountingParty;
  amount: number;
  currency: string;
  method: string;
  reference: string | null;
  paidAt: string;
  recordedAt: string;
}

/** The UTC instants that bound a period of calendar days: `[from 00:00, to + 1 day 00:00)`. */
function instantsOf(period: AccountingPeriod): { start: string; end: string } {
  return {
    start: `${period.from}T00:00:00.000Z`,
    end: new Date(Date.parse(`${period.to}T00:00:00Z`) + 86_400_000).toISOString(),
  };
}

/** One page of the period's payments after `after`, each with its invoice's number and party. */
export async function accountingPaymentsPage(
  db: Executor,
  scope: Scope,
  period: AccountingPeriod,
  after: InstantKey | null,
  limit: number,
): Promise<AccountingPayment[]> {
  const { start, end } = instantsOf(period);
  const rows = await pageAccountingPayments(db, scope, start, end, after, limit);
  const invoices = await accountingParties(
    db,
    scope,
    rows.map((row) => row.invoice_id),
  );
  return rows.map((row) => {
    const invoice = invoices.get(row.invoice_id);
    return {
      key: { at: row.paid_at, id: row.id },
      id: row.id,
      invoiceId: row.invoice_id,
      invoiceNumber: invoice?.number ?? null,
      party: invoice?.party ?? { customerId: null, name: null, siren: null },
      amount: Number(row.amount),
      currency: row.currency,
      method: row.method,
      reference: row.reference,
      paidAt: row.paid_at,
      recordedAt: row.created,
    };
  });
}

export async function accountingPaymentCount(db: Executor, scope: Scope, period: AccountingPeriod): Promise<number> {
  const { start, end } = instantsOf(period);
  return countAccountingPayments(db, scope, start, end);
}

// E-reporting: the payments received from an instant on.

export type { AccountingPaymentRow } from './accounting-store.js';

/** A page of the payments received from an instant on whose invoice made a report due (keyset by time and id). */
export function pageEreportablePayments(
  db: Executor,
  scope: Scope,
  fromInstant: string,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<AccountingPaymentRow[]> {
  return ereportablePayments(db, scope, fromInstant, after, limit);
}
