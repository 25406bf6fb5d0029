import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { Db, Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError } from '../kernel/errors.js';
import { currentVersion } from '../kernel/api-version.js';
import { scopeTime } from '../kernel/sandbox-clock.js';
import { recordEvent } from '../webhooks/service.js';
import { getCompany } from '../companies/service.js';
import { checkSubscriptionActive, planOf } from '../subscriptions/service.js';
import { createTaxDecision } from '../tax/service.js';
import {
  createDraftFromTemplate,
  decisionInputOf,
  documentLines,
  documentParty,
  finalize,
  getInvoiceDocument,
  sendToPlatform,
  updateDocumentDraft,
  type BuyerInput,
  type DocumentResource,
  type TemplateFacts,
} from '../invoices/service.js';
import type { LastRun } from './schema.js';
import { failedEventData, generatedEventData, scheduleOf } from './recurring-record.js';
import { nextPeriod, runAt } from './schedule.js';
import { checkModeAllowed } from './recurring-input.js';
import {
  claimDueRecurring,
  claimUnsettledRuns,
  findRecurring,
  findRun,
  insertRun,
  updateLeasedRun,
  updateRecurring,
  type RecurringRow,
  type RunKey,
} from './store.js';

/**
 * The runs of recurring invoices: a periodic pass (every minute; test recurring invoices follow
 * their company's sandbox clock). Each due period is one run, made once whatever the number of
 * workers or crashes:
 *
 * 1. In one transaction: the recurring invoice is locked (`SKIP LOCKED`: another worker passes
 *    it by), the run's row is written under its unique key (recurring invoice, period), the draft
 *    invoice is made (`invoice.created`), and the schedule moves to the next period. A `draft`
 *    run is done there (`recurring_invoice.generated`).
 * 2. `auto_finalize`: a fresh tax decision, then the finalization, whose transaction settles the
 *    run (`recurring_invoice.generated`, or with `autoSend` the sending's transaction does). The
 *    run is leased to its worker meanwhile; a run left in the middle by a worker that died is
 *    taken over once its lease lapses, and the lease token in every settling write means a worker
 *    whose lease lapsed changes nothing.
 *
 * A refusal (a tax decision not final, the quota, the subscription paused, a deleted customer...)
 * settles the run as failed: `recurring_invoice.failed` with the code and message. The period is
 * not tried again; its draft, if made, stays for the account holder to finish.
 */

/** Longer than a run takes; a run held longer than this was left by a dead worker. */
export const runLeaseMs = 5 * 60_000;

const within = (tx: Tx): Pick<Deps, 'db'> => ({ db: tx as unknown as Db });

function workerContext(scope: Scope, now: Date): CallContext {
  return { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now };
}

const keyOf = (row: RecurringRow, period: string): RunKey => ({
  companyId: row.companyId,
  livemode: row.livemode,
  recurringInvoiceId: row.id,
  period,
});

const failureOf = (error: ApiError) => ({ code: error.code, message: error.message });

/** Test seams: where a test stops a worker (kills it) in the middle of a run. */
export interface RunHooks {
  /** After step 1 committed (the draft made, the run leased), before step 2. */
  afterStart?: (key: RunKey) => Promise<void>;
  /** In the finalization's transaction, the number taken, before the commit. */
  whileFinalizing?: (number: string) => Promise<void>;
}

/** Runs every due period, and completes the runs dead workers left; returns how many runs moved. */
export async function runRecurringInvoices(deps: Deps, companyIds?: string[], hooks: RunHooks = {}): Promise<number> {
  let total = 0;
  for (;;) {
    const token = randomUUID();
    const left = await claimUnsettledRuns(
      deps.db,
      { now: deps.clock.now(), limit: 20, leaseMs: runLeaseMs, token },
      companyIds,
    );
    for (const key of left) await completeRun(deps, key, token, hooks);
    total += left.length;
    if (left.length < 20) break;
  }
  for (;;) {
    const started = await startDueRun(deps, companyIds);
    if (!started) return total;
    if (started.made) total++;
    if (!started.pending) continue;
    await hooks.afterStart?.(started.key);
    await completeRun(deps, started.key, started.token, hooks);
  }
}

interface Started {
  key: RunKey;
  token: string;
  /** False when the period had its run already (the unique key): nothing was made. */
  made: boolean;
  /** The finalization (and sending) remain. */
  pending: boolean;
}

/** Step 1, in one transaction: the run's row, its draft, the schedule moved on. */
async function startDueRun(deps: Deps, companyIds?: string[]): Promise<Started | null> {
  return inTransaction(deps.db, null, async (tx) => {
    const realNow = deps.clock.now();
    const due = await claimDueRecurring(tx, realNow, companyIds);
    if (!due) return null;
    const { row } = due;
    const period = row.nextPeriod!;
    const now = scopeTime(realNow, row.livemode, due.sandboxClockOffsetMs);
    const ctx = workerContext({ companyId: row.companyId, livemode: row.livemode }, now);
    const key = keyOf(row, period);
    const token = randomUUID();
    const run = await insertRun(tx, {
      ...key,
      status: 'pending',
      invoiceId: null,
      errorCode: null,
      errorMessage: null,
      lockedUntil: new Date(realNow.getTime() + runLeaseMs),
      lockToken: token,
      created: now,
      updated: now,
    });
    // The period already has its run (a unique key, whatever happened before): only move on.
    if (!run) {
      await moveSchedule(tx, row, period, now, null, {});
      return { key, token, made: false, pending: false };
    }
    const made = await makeDraft(deps, tx, ctx, row);
    if ('failure' in made || row.mode === 'draft') {
      await settleAtStart(tx, ctx, row, { key, token }, made);
      return { key, token, made: true, pending: false };
    }
    await updateLeasedRun(tx, key, token, { invoiceId: made.draft.id, updated: now });
    await moveSchedule(tx, row, period, now, lastRun(period, 'pending', made.draft.id, null), {});
    return { key, token, made: true, pending: true };
  });
}

type MadeDraft = { draft: DocumentResource } | { failure: ApiError };

/** The period's draft from the recurring invoice's template, or the refusal that stops the run. */
async function makeDraft(deps: Deps, tx: Tx, ctx: CallContext, row: RecurringRow): Promise<MadeDraft> {
  try {
    await checkSubscriptionActive(tx, row.companyId);
    checkModeAllowed(row.mode, await planOf(tx, row.companyId));
    const party = await documentParty(within(tx), ctx.scope, row.customerId, row.buyer as BuyerInput | null);
    const lines = await documentLines(within(tx), ctx.scope, row.lines);
    const template: TemplateFacts = {
      recurringInvoiceId: row.id,
      party,
      lines,
      currency: 'EUR',
      taxSource: row.taxSource as 'service' | 'integration',
      paymentTermsDays: row.paymentTermsDays,
      paymentTerms: row.paymentTerms,
      notes: row.notes,
      metadata: row.metadata,
    };
    return { draft: await createDraftFromTemplate(tx, ctx, template, deps.config.publicUrl) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { failure: error };
  }
}

/** A run done at its start: failed (a refusal), or generated (a `draft` run); the schedule moves on and the event is recorded. */
async function settleAtStart(
  tx: Tx,
  ctx: CallContext,
  row: RecurringRow,
  lease: { key: RunKey; token: string },
  made: MadeDraft,
): Promise<void> {
  const { period } = lease.key;
  const failure = 'failure' in made ? made.failure : null;
  const draftId = 'draft' in made ? made.draft.id : null;
  const status = failure ? 'failed' : 'generated';
  await updateLeasedRun(tx, lease.key, lease.token, {
    status,
    invoiceId: draftId,
    errorCode: failure?.code ?? null,
    errorMessage: failure?.message ?? null,
    lockedUntil: null,
    lockToken: null,
    updated: ctx.now,
  });
  const moved = await moveSchedule(tx, row, period, ctx.now, lastRun(period, status, draftId, failure), {
    generated: failure ? 0 : 1,
    failed: failure ? 1 : 0,
  });
  if (failure)
    await recordEvent(
      tx,
      ctx,
      'recurring_invoice.failed',
      failedEventData(moved, failureOf(failure), period, null),
      ctx.now,
    );
  else await recordEvent(tx, ctx, 'recurring_invoice.generated', generatedEventData(moved, draftId!, period), ctx.now);
}

function lastRun(period: string, status: string, invoiceId: string | null, failure: ApiError | null): LastRun {
  return { period, status, invoiceId, error: failure ? failureOf(failure) : null };
}

/** The schedule goes on after `period`: its next period (caught up one run at a time), or completed. */
async function moveSchedule(
  tx: Executor,
  row: RecurringRow,
  period: string,
  now: Date,
  last: LastRun | null,
  counts: { generated?: number; failed?: number },
): Promise<RecurringRow> {
  const next = nextPeriod(scheduleOf(row), { after: period, notBefore: row.startDate });
  return updateRecurring(tx, { companyId: row.companyId, livemode: row.livemode }, row.id, {
    lastPeriod: period,
    nextPeriod: next?.period ?? null,
    nextRunAt: next ? runAt(next.period) : null,
    status: next ? row.status : 'completed',
    ...(last ? { lastRun: last } : {}),
    invoicesGenerated: row.invoicesGenerated + (counts.generated ?? 0),
    runsFailed: row.runsFailed + (counts.failed ?? 0),
    updated: now,
  });
}

/**
 * In the transaction that commits the run's step (the finalization, the sending): the run moves
 * on while this worker holds its lease (else the step rolls back), and once generated the
 * recurring invoice counts it and `recurring_invoice.generated` is recorded.
 */
async function settle(tx: Tx, key: RunKey, token: string, status: 'finalized' | 'generated', ctx: CallContext) {
  const done = status === 'generated';
  const run = await updateLeasedRun(tx, key, token, {
    status,
    updated: ctx.now,
    ...(done ? { lockedUntil: null, lockToken: null } : {}),
  });
  if (!run) throw new Error(`the lease of run ${key.recurringInvoiceId} ${key.period} was lost; another worker has it`);
  const row = (await findRecurring(tx, ctx.scope, key.recurringInvoiceId, true))!;
  const updated = await updateRecurring(tx, ctx.scope, row.id, {
    invoicesGenerated: row.invoicesGenerated + (done ? 1 : 0),
    ...(row.lastRun?.period === key.period ? { lastRun: { ...row.lastRun, status } } : {}),
  });
  if (!done) return;
  await recordEvent(
    tx,
    ctx,
    'recurring_invoice.generated',
    generatedEventData(updated, run.invoiceId!, key.period),
    ctx.now,
  );
}

/** A refusal settles the run as failed (if this worker still holds it): `recurring_invoice.failed`. */
async function fail(deps: Pick<Deps, 'db'>, key: RunKey, token: string, error: ApiError, ctx: CallContext) {
  await inTransaction(deps.db, null, async (tx) => {
    const run = await updateLeasedRun(tx, key, token, {
      status: 'failed',
      errorCode: error.code,
      errorMessage: error.message,
      lockedUntil: null,
      lockToken: null,
      updated: ctx.now,
    });
    if (!run) return;
    const row = (await findRecurring(tx, ctx.scope, key.recurringInvoiceId, true))!;
    const updated = await updateRecurring(tx, ctx.scope, row.id, {
      runsFailed: row.runsFailed + 1,
      ...(row.lastRun?.period === key.period ? { lastRun: lastRun(key.period, 'failed', run.invoiceId, error) } : {}),
    });
    await recordEvent(
      tx,
      ctx,
      'recurring_invoice.failed',
      failedEventData(updated, failureOf(error), key.period, run.invoiceId),
      ctx.now,
    );
  });
}

/** Step 2: a fresh tax decision and the finalization, then (`autoSend`) the sending. */
async function completeRun(deps: Deps, key: RunKey, token: string, hooks: RunHooks): Promise<void> {
  const scope = { companyId: key.companyId, livemode: key.livemode };
  const company = await getCompany(deps, key.companyId);
  const ctx = workerContext(scope, scopeTime(deps.clock.now(), key.livemode, company.sandboxClockOffsetMs));
  const [run, row] = await Promise.all([findRun(deps.db, key), findRecurring(deps.db, scope, key.recurringInvoiceId)]);
  if (!run || !row || run.lockToken !== token || !run.invoiceId) return;
  // Read once: a change of the recurring invoice meanwhile applies to the next runs.
  const autoSend = row.autoSend;
  try {
    let status = run.status;
    if (status === 'pending') {
      await checkSubscriptionActive(deps.db, key.companyId);
      const draft = await getInvoiceDocument(deps, scope, 'invoice', run.invoiceId);
      const decision = await createTaxDecision(deps, ctx, decisionInputOf(draft, key.period));
      await updateDocumentDraft(deps, ctx, 'invoice', draft.id, { taxDecisionId: decision.id });
      status = autoSend ? 'finalized' : 'generated';
      await finalize(
        deps,
        ctx,
        'invoice',
        draft.id,
        { siren: company.siren, plan: company.plan },
        {
          beforeNumber: (tx) => settle(tx, key, token, status as 'finalized' | 'generated', ctx),
          ...(hooks.whileFinalizing ? { afterNumber: hooks.whileFinalizing } : {}),
        },
      );
    }
    if (status !== 'finalized') return;
    if (autoSend) {
      await sendToPlatform(deps, ctx, 'invoice', run.invoiceId, {
        beforeCommit: (tx) => settle(tx, key, token, 'generated', ctx),
      });
    } else {
      // `autoSend` was turned off after the finalization: the run is done.
      await inTransaction(deps.db, ctx, (tx) => settle(tx, key, token, 'generated', ctx));
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    await fail(deps, key, token, error, ctx);
  }
}
