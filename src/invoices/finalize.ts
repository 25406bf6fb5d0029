import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Deps } from '../deps.js';
import type { Tx } from '../db/database.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { recordEvent, setEventDataStatement } from '../webhooks/service.js';
import { consumeMonthlyQuota } from '../limits/service.js';
import { checkStorageBytes, storedBytesLookup } from '../subscriptions/service.js';
import { lookedUpDecisionDate, taxDecisionLookup } from '../tax/service.js';
import { customerResourceLookup } from '../customers/service.js';
import { noLookup, readLookups } from '../db/lookup.js';
import type { PlanName } from '../kernel/plans.js';
import type { Axes, DocumentKind } from './document-axes.js';
import {
  checkDisclosure,
  checkNotSelf,
  snapshotOfCustomer,
  taxFactsOf,
  type BuyerSnapshot,
  type CustomerFacts,
} from './buyer.js';
import { addDays, dayOf, defaultPaymentTermsDays, endOfDay } from '../kernel/calendar.js';
import { axesColumns, documentEventData, type DocumentRow, type DocumentWarning } from './document-record.js';
import { customerFactsOf, notEditable, notFound } from './drafts.js';
import { formatNumber, seriesOf } from '../numbering/series.js';
import {
  checkBacking,
  consumeLedgerShare,
  decidedLines,
  decisionFactsOf,
  decisionNamed,
  einvoicingDue,
  type DecisionFacts,
} from './tax-gate.js';
import { documentBackedBy, findDocument } from './store.js';
import { sellerFactsOf, sellerLookups } from './seller-block.js';
import { conformanceRefusal, documentSourceOf, issueConformance } from './issue-conformance.js';
import type { Scope } from '../db/scope.js';
import { lockDraft, numberDocument, type FinalizedFields } from './finalize-store.js';
import { nextValueStatement, numberSql } from '../numbering/service.js';
import { numberingStatementDuration } from '../kernel/metrics.js';
import { explained } from './refusals.js';
import { isUniqueViolation } from '../db/errors.js';
import { queueGenerationInsert } from './files-store.js';
import { platformAccess } from '../establishments/platform-access.js';
import { deductDeposits } from './deposit-deduction.js';

/**
 * `POST /v1/invoices/:id/finalize` (and a credit note's): the document is checked against its
 * tax decision, its buyer's identity and its issuer, the live quota is consumed, and only then is
 * a number taken, in the same transaction, as late as possible: the series' counter row stays
 * locked from there to the commit, so finalizations of a series line up and a refusal or a crash
 * gives the number back (no gap, no duplicate).
 */

export interface Seller {
  siren: string;
  plan: PlanName;
}

export interface FinalizeOptions {
  /** In the transaction, after every check and before the number (a credit note updates its invoice here). */
  beforeNumber?: (tx: Tx, draft: DocumentRow, totals: { total: number }) => Promise<void>;
  /** Test seam: runs while the number is taken and the counter still locked. */
  afterNumber?: (number: string) => Promise<void>;
}

function finalizedOnly(row: DocumentRow): ApiError {
  if (row.documentStatus === 'cancelled') return notEditable(row);
  return refuse(
    'invalid_status_transition',
    `${row.kind === 'invoice' ? 'Invoice' : 'Credit note'} ${row.id} is already finalized as ${row.number}.`,
    { param: 'id' },
  );
}

/**
 * The dates the document carries once issued: today, and for an invoice the due date from its
 * terms; a credit note is owed to the buyer, it has no due date.
 */
function issuedDates(row: DocumentRow, now: Date): { issueDate: string; dueDate: string | null } {
  const today = dayOf(now);
  if (row.issueDate !== null && row.issueDate !== today) {
    throw refuse(
      'invalid_field_value',
      `\`issueDate\` is ${row.issueDate}, but a document is dated the day it is numbered (${today}): numbers follow the dates of the series. Set it to ${today} or null.`,
      { param: 'issueDate' },
    );
  }
  if (row.kind === 'credit_note') return { issueDate: today, dueDate: null };
  const dueDate = row.dueDate ?? addDays(today, row.paymentTermsDays ?? defaultPaymentTermsDays);
  if (dueDate < today)
    throw refuse('invalid_field_value', `\`dueDate\` ${dueDate} is before the issue date ${today}.`, {
      param: 'dueDate',
    });
  return { issueDate: today, dueDate };
}

/** The invoice a credit note corrects (BT-25, BT-26), as the own checks read it. */
async function precedingOf(
  tx: Tx,
  scope: Scope,
  draft: DocumentRow,
): Promise<{ number: string; issueDate: string } | null> {
  if (draft.kind !== 'credit_note' || !draft.relatedInvoiceId) return null;
  const invoice = await findDocument(tx, scope, 'invoice', draft.relatedInvoiceId);
  if (!invoice?.number || !invoice.issueDate) return null;
  return { number: invoice.number, issueDate: invoice.issueDate };
}

/**
 * What will block the deposit of a document routed to e-invoicing, told by the finalization's
 * answer before anything is deposited: the send operation is where the contract refuses with these
 * codes (a platform may be connected after the number is taken, and `send` then deposits it), so
 * the finalization numbers the document and warns.
 */
async function depositWarnings(
  deps: Pick<Deps, 'config'>,
  tx: Tx,
  scope: Scope,
  siret: string | null,
): Promise<DocumentWarning[]> {
  const access = await platformAccess(deps, tx, scope, { siret });
  if (access.state === 'not_configured')
    return [
      {
        code: 'pa_not_configured',
        message:
          'No approved platform is connected for the issuing establishment: this document is due on the e-invoicing network, and `send` will refuse it with `pa_not_configured` until one is (`POST /v1/establishments/:id` with `platform`).',
      },
    ];
  if (access.state === 'connected' && !access.depositEnabled)
    return [
      {
        code: 'deposit_not_enabled',
        message: `Establishment ${access.establishmentId} has a platform but its deposits are off: \`send\` will refuse this document with \`deposit_not_enabled\` until \`depositEnabled\` is set on it.`,
      },
    ];
  return [];
}

/** A number the series could give, with the longest counter: BR-FR-01/02 look at its length and characters. */
const longestCounter = 9_999_999_999;

export async function finalizeDocument(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  kind: DocumentKind,
  id: string,
  seller: Seller,
  options: FinalizeOptions = {},
): Promise<DocumentRow & { warnings: DocumentWarning[] }> {
  let decisionId: string | null = null;
  try {
    // Everything runs on the transaction's connection: a second connection taken inside it could starve the pool.
    return await inTransaction(deps.db, ctx, async (tx, effect) => {
      const draft = await lockDraft(tx, ctx.scope, kind, id);
      if (!draft) throw notFound(kind, id);
      if (draft.documentStatus !== 'draft') throw finalizedOnly(draft);
      const decisionNamedId = decisionNamed(draft.taxDecisionId);
      // What the checks read of other capabilities, in one statement under the draft's lock.
      const read = await readLookups(tx, {
        decision: taxDecisionLookup(ctx.scope, decisionNamedId),
        customer: draft.customerId ? customerResourceLookup(ctx.scope, draft.customerId) : noLookup(null),
        // The seller is frozen as it is now; a later change of the identity or establishment never alters the document.
        ...sellerLookups(ctx.scope, lookedUpDecisionDate),
        storedBytes: storedBytesLookup(ctx.scope),
      });
      const decision: DecisionFacts = decisionFactsOf(read.decision, decisionNamedId);
      decisionId = decision.id;
      const customer: CustomerFacts | null = draft.customerId ? customerFactsOf(read.customer, draft.customerId) : null;
      if (customer?.deleted)
        throw new ApiError('resource_deleted', {
          values: { resource: 'customer', id: customer.id },
          param: 'customerId',
        });

      const buyer: BuyerSnapshot | null = customer ? snapshotOfCustomer(customer) : draft.buyer;
      if (!buyer)
        throw new ApiError('missing_required_field', {
          param: 'customerId',
          values: { detail: 'A document names its buyer: `customerId` or an inline `buyer`.' },
        });
      // Nothing is numbered nor reserved for a buyer the registry keeps from publication.
      checkDisclosure(buyer, 'buyer');
      checkNotSelf(buyer, seller.siren, 'buyer');
      // A decision that already backs another document is refused by the unique index when written.
      checkBacking(
        decision,
        {
          customerId: draft.customerId,
          buyer: taxFactsOf(buyer),
          currency: draft.currency,
          taxSource: draft.taxSource,
          lines: draft.lines,
          subtotal: draft.subtotal,
          allowances: draft.allowances,
          charges: draft.charges,
        },
        ctx.now,
        null,
      );
      const dates = issuedDates(draft, ctx.now);
      const totals = decision.totals!;
      // A final invoice's deposits, locked, checked and marked deducted (rolled back with any refusal below).
      const deduction =
        kind === 'invoice'
          ? await deductDeposits(tx, ctx.scope, draft, buyer, totals.gross, ctx.now)
          : { deposits: [], amountDeducted: 0 };
      const series = seriesOf(kind, ctx.scope.livemode, Number(dates.issueDate.slice(0, 4)));
      const lines = decidedLines(decision, draft.lines);
      const tax = {
        decisionId: decision.id,
        date: decision.date,
        vatBreakdown: decision.vatBreakdown,
        mentions: decision.mentions,
        obligations: decision.obligations,
      };
      const issuer = sellerFactsOf(read.identity, read.profile, read.establishment);
      // The own checks before anything is consumed or numbered: a document that would fail keeps its number free.
      const issues = issueConformance(
        {
          ...documentSourceOf(
            {
              ...draft,
              ...deduction,
              ...dates,
              number: formatNumber(series, longestCounter),
              seller: issuer.block,
              buyer,
              lines,
              tax,
            },
            await precedingOf(tx, ctx.scope, draft),
          ),
          operationDate: tax.date,
        },
        issuer.missing,
      );
      if (issues.length > 0) throw conformanceRefusal(kind, issues);
      const warnings = einvoicingDue(decision) ? await depositWarnings(deps, tx, ctx.scope, issuer.block.siret) : [];

      await consumeLedgerShare(tx, ctx.scope, decision, ctx.now);
      await consumeMonthlyQuota(tx, ctx.scope, seller.plan, 'documents', ctx.now);
      // Its files will be counted whatever their size: a storage used up refuses the document now.
      checkStorageBytes(seller.plan, read.storedBytes);
      await options.beforeNumber?.(tx, draft, { total: totals.gross });

      const axes: Axes = {
        documentStatus: 'finalized',
        transmissionStatus: einvoicingDue(decision) ? 'pending' : 'not_applicable',
        transmissionDetail: null,
        // Deposits that cover the whole total leave nothing to pay.
        paymentStatus: deduction.amountDeducted > 0 && deduction.amountDeducted >= totals.gross ? 'paid' : 'unpaid',
      };
      const fields: FinalizedFields = {
        ...axesColumns(axes, kind),
        buyer,
        seller: issuer.block,
        taxSource: decision.taxSource,
        backingDecisionId: decision.id,
        lines,
        ...dates,
        totalTax: totals.vat,
        total: totals.gross,
        tax,
        portalToken: kind === 'invoice' ? randomBytes(24).toString('base64url') : null,
        dueAt: dates.dueDate !== null ? endOfDay(dates.dueDate) : null,
        finalizedAt: ctx.now,
        updated: ctx.now,
      };
      // The event (and the idempotency mark) are written before the number, which the numbering
      // statement fills into the event: the series' counter is locked for that statement and the commit only.
      const announced = documentEventData({ ...draft, ...deduction, ...fields }, draft.status);
      const event = await recordEvent(tx, ctx, `${kind}.finalized`, announced, ctx.now);
      await effect.mark();

      const stopTimer = numberingStatementDuration.startTimer();
      const { row: finalized, sequence } = await numberDocument(tx, ctx.scope, id, series, fields, {
        takeNext: nextValueStatement(ctx.scope, series),
        format: (value) => numberSql(series, value),
        announce: (number) => setEventDataStatement(ctx.scope, event.id, 'number', number),
        // The files' generation (an outbox row), generated after the commit by the file worker.
        queueGeneration: queueGenerationInsert(ctx.scope, id, kind, ctx.now),
      });
      stopTimer();
      // The number as series.ts writes it (BR-FR-01/02), and the event as the document reads, or nothing commits.
      if (finalized.number !== formatNumber(series, sequence))
        throw new Error(`number ${finalized.number} is not ${formatNumber(series, sequence)}`);
      if (!isDeepStrictEqual({ ...announced, number: finalized.number }, documentEventData(finalized, draft.status)))
        throw new Error(`the ${kind}.finalized event of ${id} differs from the document`);
      await options.afterNumber?.(finalized.number);
      return { ...finalized, warnings };
    });
  } catch (error) {
    // Two finalizations racing on one decision: the unique index lets one through.
    if (decisionId !== null && isUniqueViolation(error, 'invoices_backing_decision')) {
      const other = await documentBackedBy(deps.db, ctx.scope, decisionId);
      throw explained(
        'tax_decision_required',
        `Tax decision ${decisionId} already backs ${other ?? 'another document'}: one final decision backs exactly one document. Create a new decision for this one.`,
        { param: 'taxDecisionId' },
      );
    }
    throw error;
  }
}
