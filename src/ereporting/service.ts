import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { Db, Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { refuse, type ApiError } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { scopeTime } from '../kernel/sandbox-clock.js';
import { recordEvent } from '../webhooks/service.js';
import { companiesOf, getCompany } from '../companies/service.js';
import { taxProfileFor } from '../tax-profiles/service.js';
import { pageEreportableDocuments, pageEreportableRefunds, paymentInvoiceFacts } from '../invoices/service.js';
import { pageEreportablePayments } from '../payments/service.js';
import type { PlatformConnector, PlatformResult } from '../platform/connector.js';
import { reportingChannel } from './channel.js';
import { ereportingTransmits } from '../establishments/platform-access.js';
import {
  paymentFlow,
  ReportBuilder,
  transactionFlow,
  type DocumentFacts,
  type Flow,
  type PaymentFacts,
  type VatEntry,
} from './flows.js';
import { dueAtOf, paymentPeriodicity, periodOf, type Periodicity } from './periods.js';
import { reportProblems, reportXml } from './report-xml.js';
import {
  submittedEventData,
  obligationEventData,
  toDeclaration,
  verdictEventData,
  type Declaration,
  type DeclarationState,
} from './declaration-record.js';
import {
  actionableDeclarations,
  deleteScopeReporting,
  findDeclaration,
  findFirstAttempt,
  insertDeclaration,
  insertOperations,
  lockScopeReporting,
  operationsOf,
  pageDeclarations,
  reportedSources,
  setEventKeyEvent,
  takeEventKey,
  reservedDeclarations,
  updateDeclaration,
  type DeclarationRow,
  type OperationRow,
} from './store.js';

/**
 * E-reporting declarations: gathering the operations the tax decisions made reportable into the
 * declaration of their establishment, flow and period; submitting them through the platform;
 * recording the platform's verdict; retrying a rejected one.
 *
 * Submission is three short transactions around the platform call: claim (a lease on the
 * declaration, so two passes and the route never transmit it twice), confirm (`submitted`, and
 * `ereporting.submitted` under its identity: declaration and attempt), verdict (`accepted` or
 * `rejected` likewise). Each event is recorded by whichever transaction takes its key first.
 */

/** Operations are looked for this far back (days): late ones go to the open period. */
export const lookbackDays = 100;
/** A declaration is retried at most this many times in all (the first attempt included). */
export const maxAttempts = 3;
/** A submission is leased this long (ms): longer than a platform call with its retries. */
export const submissionLeaseMs = 2 * 60_000;
/** The platform calls of one submission retry within this budget (ms), well inside the lease. */
const platformRetryBudgetMs = 45_000;
/** The route waits this long (ms) for a submission another holds (a pass), then answers `pa_unavailable`. */
const routeWaitMs = 10_000;

const pageSize = 5000;

function workerContext(scope: Scope, now: Date): CallContext {
  return { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now };
}

const notFound = (id: string) => refuse('not_found', `No e-reporting declaration ${id}.`, { param: 'id' });

// Gathering.

interface Target {
  row: DeclarationRow;
  builder: ReportBuilder;
  /** Operations gathered since the last flush (written page by page: memory stays flat). */
  operations: OperationRow[];
  /** Operations added to it by this gathering. */
  added: number;
}

interface Seller {
  establishment: string | null;
  periodicity: Periodicity;
}

/**
 * Adds the scope's unreported operations (issued documents, payments, refunds whose decision made
 * an e-reporting axis due) to the open declarations of their periods, creating them as needed.
 * An operation whose period was already submitted goes to the period of `now`: a sent declaration
 * is never rewritten. In the caller's transaction; returns the number of operations added.
 */
export async function gatherOperations(tx: Tx, scope: Scope, now: Date): Promise<number> {
  await lockScopeReporting(tx, scope);
  const today = now.toISOString().slice(0, 10);
  const from = new Date(now.getTime() - lookbackDays * 86_400_000);
  const fromDay = from.toISOString().slice(0, 10);
  const sellers = new Map<string, Seller | null>();
  const sellerOn = async (date: string): Promise<Seller | null> => {
    if (!sellers.has(date)) {
      try {
        const profile = await taxProfileFor(tx, scope, date);
        sellers.set(date, {
          establishment: profile.establishment.siret ?? null,
          // A profile that names no periodicity is reported monthly (the default of most regimes).
          periodicity: profile.ereportingPeriodicity ?? 'monthly',
        });
      } catch {
        sellers.set(date, null);
      }
    }
    return sellers.get(date)!;
  };

  const transmits = new Map<string, boolean>();
  const blockOf = async (establishment: string | null): Promise<string | null> => {
    const key = establishment ?? '';
    if (!transmits.has(key)) transmits.set(key, await ereportingTransmits(tx, scope, establishment));
    return transmits.get(key) ? null : 'ereporting_not_enabled';
  };

  const targets = new Map<string, Target | null>();
  const targetOf = async (flow: Flow, date: string, currency: string): Promise<Target | null> => {
    const seller = await sellerOn(date);
    if (!seller) return null;
    const periodicity =
      flow === '10.2' || flow === '10.4' ? paymentPeriodicity(seller.periodicity) : seller.periodicity;
    for (const day of date < today ? [date, today] : [date]) {
      const period = periodOf(day, periodicity);
      const key = `${seller.establishment ?? ''}|${flow}|${period.key}`;
      if (!targets.has(key)) {
        const found = await findFirstAttempt(tx, scope, {
          establishment: seller.establishment,
          flow,
          period: period.key,
        });
        if (!found) {
          const row: DeclarationRow = {
            ...scope,
            id: newId('ereporting', now),
            establishment: seller.establishment,
            flow,
            period: period.key,
            periodStart: period.start,
            periodEnd: period.end,
            state: 'reserved',
            attempt: 1,
            previousAttemptId: null,
            supersededById: null,
            currency,
            lines: [],
            operationCount: 0,
            taxableAmount: 0,
            taxAmount: 0,
            dueAt: dueAtOf(period),
            trackingId: null,
            flowId: null,
            paRejectionCode: null,
            paRejectionReason: null,
            transmissionBlock: await blockOf(seller.establishment),
            lockToken: null,
            lockedUntil: null,
            submittedAt: null,
            acceptedAt: null,
            rejectedAt: null,
            created: now,
            updated: now,
          };
          // Written at once (empty), so its operations can be written page by page; the totals follow at the end.
          await insertDeclaration(tx, row);
          targets.set(key, { row, builder: new ReportBuilder(flow), operations: [], added: 0 });
        } else if (found.state === 'reserved' && found.lockToken === null && found.currency === currency) {
          const builder = new ReportBuilder(flow);
          builder.addLines(found.lines ?? []);
          builder.operationCount = found.operationCount;
          builder.taxableAmount = found.taxableAmount;
          builder.taxAmount = found.taxAmount;
          targets.set(key, { row: found, builder, operations: [], added: 0 });
        } else targets.set(key, null);
      }
      const target = targets.get(key);
      if (target && target.row.currency === currency) return target;
    }
    return null;
  };
  const operation =
    (target: Target, kind: string, id: string, date: string, number: string | null) =>
    (amounts: { taxableAmount: number; taxAmount: number }) =>
      target.operations.push({
        ...scope,
        sourceKind: kind,
        sourceId: id,
        flow: target.row.flow,
        declarationId: target.row.id,
        date,
        number,
        ...amounts,
        created: now,
      });

  const flush = async () => {
    for (const target of targets.values()) {
      if (!target || target.operations.length === 0) continue;
      await insertOperations(tx, target.operations);
      target.added += target.operations.length;
      target.operations = [];
    }
  };

  let after: { day: string; at: string; id: string } | null = null;
  for (;;) {
    const page = await pageEreportableDocuments(tx, scope, fromDay, after, pageSize);
    if (page.length === 0) break;
    const last = page.at(-1)!;
    after = { day: last.issue_date, at: last.finalized_at, id: last.id };
    const reported = await reportedSources(
      tx,
      scope,
      ['invoice', 'credit_note'],
      page.map((row) => row.id),
    );
    for (const row of page) {
      if (reported.has(row.id)) continue;
      const flow = transactionFlow(row.obligations);
      if (!flow) continue;
      const target = await targetOf(flow, row.issue_date, row.currency);
      if (!target) continue;
      const facts: DocumentFacts = {
        kind: row.kind,
        id: row.id,
        number: row.number,
        issueDate: row.issue_date,
        currency: row.currency,
        buyerCountry: row.buyer_country,
        buyerVatNumber: row.buyer_vat_number,
        lines: row.lines,
        vatBreakdown: (row.vat_breakdown ?? []) as VatEntry[],
        obligations: row.obligations,
      };
      operation(target, row.kind, row.id, row.issue_date, row.number)(target.builder.addDocument(facts));
    }
    await flush();
    if (page.length < pageSize) break;
  }

  const payments = async (kind: 'payment' | 'refund') => {
    let cursor: { at: string; id: string } | null = null;
    for (;;) {
      const facts: PaymentFacts[] = [];
      if (kind === 'payment') {
        const page = await pageEreportablePayments(tx, scope, from.toISOString(), cursor, pageSize);
        if (page.length === 0) return;
        cursor = { at: page.at(-1)!.paid_at, id: page.at(-1)!.id };
        const invoices = new Map(
          (await paymentInvoiceFacts(tx, scope, [...new Set(page.map((row) => row.invoice_id))])).map((row) => [
            row.id,
            row,
          ]),
        );
        for (const row of page) {
          const invoice = invoices.get(row.invoice_id);
          if (!invoice) continue;
          facts.push({
            kind,
            id: row.id,
            date: row.paid_at.slice(0, 10),
            amount: Number(row.amount),
            currency: row.currency,
            invoiceNumber: invoice.number,
            vatBreakdown: (invoice.vat_breakdown ?? []) as VatEntry[],
            obligations: invoice.obligations,
          });
        }
        if (page.length < pageSize) cursor = null;
      } else {
        const page = await pageEreportableRefunds(tx, scope, from.toISOString(), cursor, pageSize);
        if (page.length === 0) return;
        cursor = { at: page.at(-1)!.refunded_at, id: page.at(-1)!.id };
        for (const row of page)
          facts.push({
            kind,
            id: row.id,
            date: row.refunded_at.slice(0, 10),
            amount: Number(row.amount),
            currency: row.currency,
            invoiceNumber: row.credit_note_number,
            vatBreakdown: (row.vat_breakdown ?? []) as VatEntry[],
            obligations: row.obligations,
          });
        if (page.length < pageSize) cursor = null;
      }
      const reported = await reportedSources(
        tx,
        scope,
        [kind],
        facts.map((fact) => fact.id),
      );
      for (const fact of facts) {
        if (reported.has(fact.id)) continue;
        const flow = paymentFlow(fact.obligations);
        if (!flow) continue;
        const target = await targetOf(flow, fact.date, fact.currency);
        if (!target) continue;
        operation(target, kind, fact.id, fact.date, fact.invoiceNumber)(target.builder.addPayment(fact));
      }
      await flush();
      if (cursor === null) return;
    }
  };
  await payments('payment');
  await payments('refund');

  let added = 0;
  for (const target of targets.values()) {
    if (!target || target.added === 0) continue;
    added += target.added;
    const changes = {
      lines: target.builder.lines(),
      operationCount: target.builder.operationCount,
      taxableAmount: target.builder.taxableAmount,
      taxAmount: target.builder.taxAmount,
      updated: now,
    };
    await updateDeclaration(tx, scope, target.row.id, changes, { state: 'reserved' });
  }
  return added;
}

// Reading.

export async function listDeclarations(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  filters: { period?: string | undefined; state?: string | undefined; flow?: string | undefined },
): Promise<ListEnvelope<Declaration>> {
  const rows = await inTransaction(deps.db, workerContext(scope, new Date()), (tx) =>
    pageDeclarations(tx, scope, page, filters),
  );
  return toListEnvelope(
    rows,
    page,
    '/v1/ereporting/declarations',
    (row) => row.id,
    (row) => toDeclaration(row),
  );
}

/** The first attempt of a declaration's chain: its operations hang there. */
async function chainRoot(db: Executor, scope: Scope, row: DeclarationRow): Promise<DeclarationRow> {
  let current = row;
  for (let hops = 0; current.previousAttemptId && hops < maxAttempts; hops++) {
    const previous = await findDeclaration(db, scope, current.previousAttemptId);
    if (!previous) break;
    current = previous;
  }
  return current;
}

/** A declaration with (the first 1,000 of) its operations. */
export async function getDeclaration(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<Declaration> {
  return inTransaction(deps.db, workerContext(scope, new Date()), async (tx) => {
    const row = await findDeclaration(tx, scope, id);
    if (!row) throw notFound(id);
    const root = await chainRoot(tx, scope, row);
    return toDeclaration(row, await operationsOf(tx, scope, root.id, 1000));
  });
}

// Submitting.

type Claim =
  /** `resumed`: an earlier claim of this attempt may have deposited it without recording the flow. */
  | { kind: 'claimed'; row: DeclarationRow; token: string; xml: string; resumed: boolean }
  | { kind: 'settled'; row: DeclarationRow }
  | { kind: 'busy'; row: DeclarationRow };

async function claimSubmission(deps: Pick<Deps, 'db' | 'clock'>, ctx: CallContext, id: string, siren: string) {
  return inTransaction(deps.db, ctx, async (tx): Promise<Claim> => {
    await lockScopeReporting(tx, ctx.scope);
    const row = await findDeclaration(tx, ctx.scope, id, true);
    if (!row) throw notFound(id);
    if (row.state !== 'reserved') return { kind: 'settled', row };
    const realNow = deps.clock.now();
    if (row.lockToken && row.lockedUntil && row.lockedUntil > realNow) return { kind: 'busy', row };
    if (!row.lines || row.lines.length === 0)
      throw refuse(
        'ereporting_declaration_incomplete',
        `Declaration ${id} holds no operation line: nothing can be transmitted.`,
        { param: 'id' },
      );
    const xml = reportXml({
      id: row.id,
      attempt: row.attempt,
      flow: row.flow as Flow,
      issuedAt: ctx.now,
      siren,
      siret: row.establishment,
      periodStart: row.periodStart,
      periodEnd: row.periodEnd,
      currency: row.currency,
      lines: row.lines,
      operationCount: row.operationCount,
      taxableAmount: row.taxableAmount,
      taxAmount: row.taxAmount,
    });
    const problems = reportProblems(xml);
    if (problems.length > 0)
      throw refuse(
        'ereporting_declaration_incomplete',
        `Declaration ${id} does not pass the flow 10 schema: ${problems.slice(0, 3).join('; ')}.`,
        { param: 'id' },
      );
    const token = randomUUID();
    const claimed = (await updateDeclaration(
      tx,
      ctx.scope,
      id,
      {
        lockToken: token,
        lockedUntil: new Date(realNow.getTime() + submissionLeaseMs),
        trackingId: `${row.id}-${row.attempt}`,
      },
      { state: 'reserved' },
    ))!;
    return { kind: 'claimed', row: claimed, token, xml, resumed: row.trackingId !== null };
  });
}

/** Records an event of the declaration once: under its identity (declaration, attempt, type). */
async function recordOnce(tx: Tx, ctx: CallContext, row: DeclarationRow, type: string, data: Record<string, unknown>) {
  const key = { declarationId: row.id, attempt: row.attempt, type };
  if (!(await takeEventKey(tx, ctx.scope, key, ctx.now))) return;
  const event = await recordEvent(tx, ctx, type, data, ctx.now);
  await setEventKeyEvent(tx, ctx.scope, key, event.id);
}

/** Confirms the platform holds the declaration: `submitted`, once, whoever confirms first. */
async function confirmSubmission(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  row: DeclarationRow,
  token: string,
  flowId: string,
): Promise<DeclarationRow> {
  return inTransaction(deps.db, ctx, async (tx) => {
    const confirmed = await updateDeclaration(
      tx,
      ctx.scope,
      row.id,
      { state: 'submitted', flowId, submittedAt: ctx.now, lockToken: null, lockedUntil: null, updated: ctx.now },
      { state: 'reserved', lockToken: token },
    );
    const current = confirmed ?? (await findDeclaration(tx, ctx.scope, row.id))!;
    if (current.state !== 'reserved' && current.attempt === row.attempt && current.flowId === flowId)
      await recordOnce(tx, ctx, current, 'ereporting.submitted', submittedEventData(current));
    return current;
  });
}

async function releaseClaim(deps: Pick<Deps, 'db'>, ctx: CallContext, id: string, token: string): Promise<void> {
  await inTransaction(deps.db, ctx, (tx) =>
    updateDeclaration(tx, ctx.scope, id, { lockToken: null, lockedUntil: null }, { lockToken: token }),
  );
}

/** Reads the platform's verdict on a submitted declaration and records it (once); undefined while pending. */
async function settleVerdict(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  connector: PlatformConnector,
  row: DeclarationRow,
): Promise<DeclarationRow> {
  if (row.state !== 'submitted' || !row.flowId) return row;
  const flow = await connector.getFlow(row.flowId);
  if (!flow.ok || flow.value.ackStatus === 'Pending') return row;
  const accepted = flow.value.ackStatus === 'Ok';
  const detail = flow.value.ackDetails.find((entry) => entry.level === 'Error') ?? flow.value.ackDetails[0];
  return inTransaction(deps.db, ctx, async (tx) => {
    const state: DeclarationState = accepted ? 'accepted' : 'rejected';
    const settled = await updateDeclaration(
      tx,
      ctx.scope,
      row.id,
      accepted
        ? { state, acceptedAt: ctx.now, updated: ctx.now }
        : {
            state,
            rejectedAt: ctx.now,
            paRejectionCode: detail?.reasonCode ?? 'rejected',
            paRejectionReason: detail?.reasonMessage ?? null,
            updated: ctx.now,
          },
      { state: 'submitted' },
    );
    const current = settled ?? (await findDeclaration(tx, ctx.scope, row.id))!;
    if (current.state === 'accepted' || current.state === 'rejected')
      await recordOnce(tx, ctx, current, `ereporting.${current.state}`, verdictEventData(current));
    return current;
  });
}

export interface SubmitOutcome {
  row: DeclarationRow;
  /** Why it did not leave, for the route to answer (the pass leaves it for its next run). */
  refusal: ApiError | null;
}

/**
 * Deposits the declaration's file, unless the claim before this one already did: that claim may
 * have died after the platform took the file, so a resumed claim looks for its tracking id first
 * and one attempt is never transmitted twice.
 */
async function depositOnce(
  connector: PlatformConnector,
  row: DeclarationRow,
  xml: string,
  resumed: boolean,
): Promise<PlatformResult<{ flowId: string }>> {
  const options = { retryBudgetMs: platformRetryBudgetMs };
  if (resumed) {
    const earlier = await connector.findDeposit(row.trackingId!, options);
    if (!earlier.ok || earlier.value) return earlier.ok ? { ...earlier, value: earlier.value! } : earlier;
  }
  return connector.deposit(
    {
      file: Buffer.from(xml, 'utf8'),
      name: `${row.id}-${row.attempt}.xml`,
      syntax: 'FRR',
      trackingId: row.trackingId!,
      processingRule: row.flow === '10.1' || row.flow === '10.2' ? 'B2BInt' : 'B2C',
    },
    options,
  );
}

/** Transmits one declaration now (the route) or as it falls due (the pass). */
export async function transmit(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'sandboxPlatform'>,
  ctx: CallContext,
  id: string,
): Promise<SubmitOutcome> {
  const company = await getCompany(deps, ctx.scope.companyId);
  const first = await inTransaction(deps.db, ctx, (tx) => findDeclaration(tx, ctx.scope, id));
  if (!first) throw notFound(id);
  const channel = await reportingChannel(deps, deps.db, ctx.scope, first.establishment);
  if (!channel.enabled) {
    const row = await inTransaction(deps.db, ctx, (tx) =>
      setTransmissionBlock(tx, ctx, first.id, 'ereporting_not_enabled', channel.detail),
    );
    return { row: row ?? first, refusal: refuse('ereporting_not_enabled', channel.detail, { param: 'id' }) };
  }

  const claim = await claimSubmission(deps, ctx, id, company.siren);
  if (claim.kind === 'busy') return { row: claim.row, refusal: null };
  if (claim.kind === 'settled') {
    const row = await settleVerdict(deps, ctx, channel.connector, claim.row);
    return { row, refusal: null };
  }
  const { row, token, xml } = claim;
  const receipt = await depositOnce(channel.connector, row, xml, claim.resumed);
  if (!receipt.ok) {
    await releaseClaim(deps, ctx, row.id, token);
    return {
      row,
      refusal: refuse(
        'pa_unavailable',
        `The platform did not take declaration ${row.id}: ${receipt.message}. It stays reserved and leaves at the next pass.`,
      ),
    };
  }
  const confirmed = await confirmSubmission(deps, ctx, row, token, receipt.value.flowId);
  return { row: await settleVerdict(deps, ctx, channel.connector, confirmed), refusal: null };
}

/** `POST /v1/ereporting/declarations/:id/submit`. */
export async function submitDeclaration(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'sandboxPlatform'>,
  ctx: CallContext,
  id: string,
): Promise<Declaration> {
  let outcome = await transmit(deps, ctx, id);
  // Another submission holds it (a pass). Once its lease is gone, this one goes on from where the
  // pass left it: the verdict still to read if it confirmed, the deposit if it let go.
  const pollMs = 100;
  for (let waited = 0; !outcome.refusal && isBusy(outcome.row, deps.clock.now()); waited += pollMs) {
    if (waited >= routeWaitMs)
      throw refuse(
        'pa_unavailable',
        `Declaration ${id} is being transmitted by the scheduled pass and the platform has not answered it yet. It stays reserved: read it again, or submit it again, in a minute.`,
        { param: 'id', headers: { 'Retry-After': '60' } },
      );
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const row = (await inTransaction(deps.db, ctx, (tx) => findDeclaration(tx, ctx.scope, id)))!;
    outcome = isBusy(row, deps.clock.now()) ? { row, refusal: null } : await transmit(deps, ctx, id);
  }
  if (outcome.refusal) throw outcome.refusal;
  if (outcome.row.state === 'rejected')
    throw refuse(
      'ereporting_declaration_rejected',
      `The platform rejected declaration ${id} (${outcome.row.paRejectionCode}: ${outcome.row.paRejectionReason ?? 'no reason given'}); it is kept as a trace. Correct the source documents if needed, then \`POST /v1/ereporting/declarations/${id}/retry\`.`,
      { param: 'id' },
    );
  return toDeclaration(outcome.row);
}

const isBusy = (row: DeclarationRow, now: Date) =>
  row.state === 'reserved' && row.lockToken !== null && row.lockedUntil !== null && row.lockedUntil > now;

// Retrying.

/** `POST /v1/ereporting/declarations/:id/retry`: a new attempt in `reserved`, or the one made already. */
export async function retryDeclaration(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
): Promise<{ declaration: Declaration; created: boolean }> {
  return inTransaction(deps.db, ctx, async (tx) => {
    await lockScopeReporting(tx, ctx.scope);
    const row = await findDeclaration(tx, ctx.scope, id, true);
    if (!row) throw notFound(id);
    if (row.state !== 'rejected')
      throw refuse(
        'ereporting_declaration_not_rejected',
        `Declaration ${id} is ${row.state}: only a rejected declaration can be retried.`,
        { param: 'id' },
      );
    if (row.supersededById) {
      const next = await findDeclaration(tx, ctx.scope, row.supersededById);
      if (next && next.previousAttemptId === row.id && next.attempt === row.attempt + 1)
        return { declaration: toDeclaration(next), created: false };
      throw refuse(
        'ereporting_declaration_already_superseded',
        `Declaration ${id} points to attempt ${row.supersededById}, which does not lead back to it in this environment: the chain cannot be validated.`,
        { param: 'id' },
      );
    }
    if (row.previousAttemptId) {
      const previous = await findDeclaration(tx, ctx.scope, row.previousAttemptId);
      if (!previous || previous.supersededById !== row.id || previous.attempt !== row.attempt - 1)
        throw refuse(
          'ereporting_declaration_already_superseded',
          `Declaration ${id} comes from attempt ${row.previousAttemptId}, which does not point to it: the chain cannot be validated.`,
          { param: 'id' },
        );
    }
    if (!row.lines || row.lines.length === 0)
      throw refuse(
        'ereporting_declaration_incomplete',
        `Declaration ${id} no longer holds the lines a new attempt needs.`,
        { param: 'id' },
      );
    if (row.attempt >= maxAttempts)
      throw refuse(
        'ereporting_attempt_limit_reached',
        `Declaration ${id} was sent ${row.attempt} times; the same data would be refused again. Correct the source documents (a credit note, then a new invoice): the corrections are reported in their own period.`,
        { param: 'id' },
      );
    const next: DeclarationRow = {
      ...row,
      id: newId('ereporting', ctx.now),
      state: 'reserved',
      attempt: row.attempt + 1,
      previousAttemptId: row.id,
      supersededById: null,
      // Nothing is transmitted by the retry: it leaves at the next pass, or by its submit route.
      dueAt: ctx.now,
      trackingId: null,
      flowId: null,
      paRejectionCode: null,
      paRejectionReason: null,
      lockToken: null,
      lockedUntil: null,
      submittedAt: null,
      acceptedAt: null,
      rejectedAt: null,
      created: ctx.now,
      updated: ctx.now,
    };
    await insertDeclaration(tx, next);
    await updateDeclaration(tx, ctx.scope, row.id, { supersededById: next.id, updated: ctx.now });
    return { declaration: toDeclaration(next), created: true };
  });
}

// What keeps a reserved declaration from leaving.

/**
 * Records why a reserved declaration cannot leave (null: it can), and tells a change with
 * `ereporting.obligation_updated` in the same transaction. Returns the row, or null when it is no
 * longer reserved (nothing to say).
 */
async function setTransmissionBlock(
  tx: Tx,
  ctx: CallContext,
  id: string,
  block: string | null,
  reason: string | null,
): Promise<DeclarationRow | null> {
  await lockScopeReporting(tx, ctx.scope);
  const row = await findDeclaration(tx, ctx.scope, id);
  if (!row || row.state !== 'reserved') return null;
  if (row.transmissionBlock === block) return row;
  const updated = await updateDeclaration(
    tx,
    ctx.scope,
    id,
    { transmissionBlock: block, updated: ctx.now },
    {
      state: 'reserved',
    },
  );
  if (updated)
    await recordEvent(tx, ctx, 'ereporting.obligation_updated', obligationEventData(updated, reason), ctx.now);
  return updated ?? row;
}

/** The pass: each reserved declaration's block follows its establishment's switches (connected, enabled). */
async function refreshTransmissionBlocks(tx: Tx, ctx: CallContext): Promise<number> {
  const transmits = new Map<string, boolean>();
  let changed = 0;
  for (const row of await reservedDeclarations(tx, ctx.scope)) {
    const key = row.establishment ?? '';
    if (!transmits.has(key)) transmits.set(key, await ereportingTransmits(tx, ctx.scope, row.establishment));
    const block = transmits.get(key) ? null : 'ereporting_not_enabled';
    if (block === row.transmissionBlock) continue;
    const reason =
      block === null
        ? `Establishment ${row.establishment ?? '(default)'} transmits e-reporting now: the declaration leaves once its period is over.`
        : `Establishment ${row.establishment ?? '(default)'} does not transmit e-reporting (no platform connection, or \`ereportingEnabled: false\`).`;
    if (await setTransmissionBlock(tx, ctx, row.id, block, reason)) changed += 1;
  }
  return changed;
}

// The pass.

/**
 * Per company and environment: gathers the new operations, then submits the declarations that
 * fell due (on the sandbox clock for test ones) and reads the verdicts still awaited. A
 * declaration whose establishment does not transmit (no connection, `ereportingEnabled: false`)
 * stays reserved: `transmit` answers the refusal without writing anything.
 */
export async function runEreportingPass(deps: Deps, companyIds?: string[]): Promise<number> {
  let handled = 0;
  for (const company of await companiesOf(deps.db, companyIds)) {
    for (const livemode of [false, true]) {
      const scope = { companyId: company.id, livemode };
      const now = scopeTime(deps.clock.now(), livemode, company.sandboxClockOffsetMs);
      const ctx = workerContext(scope, now);
      handled += await inTransaction(deps.db, ctx, (tx) => gatherOperations(tx, scope, now));
      handled += await inTransaction(deps.db, ctx, (tx) => refreshTransmissionBlocks(tx, ctx));
      const due = await inTransaction(deps.db, ctx, (tx) => actionableDeclarations(tx, scope, now));
      for (const row of due) {
        try {
          const outcome = await transmit(deps, ctx, row.id);
          if (outcome.row.state !== row.state) handled++;
        } catch (error) {
          deps.log.warn({ err: error, declaration: row.id }, 'e-reporting submission failed; retried at the next pass');
        }
      }
    }
  }
  return handled;
}

// The sandbox.

export async function purgeTestReporting(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live declarations');
  return deleteScopeReporting(tx, scope);
}

export type { Db };
