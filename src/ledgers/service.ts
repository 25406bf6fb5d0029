import type { Deps } from '../deps.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { refuse, type Issue } from '../kernel/errors.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { newId } from '../kernel/ids.js';
import { euros } from '../kernel/money.js';
import {
  correctable,
  dateProblem,
  distanceSalesThreshold,
  remaining,
  reliefPosition,
  reliefThreshold,
  reservationMs,
  reservationState,
  standing,
  thresholdPosition,
  yearHeld,
} from './ledger-rules.js';
import {
  claimReservation,
  deleteScopeLedgers,
  findEntry,
  findEntryByReference,
  findLedger,
  findLedgerById,
  findReservationOfDecision,
  insertEntry,
  insertLedger,
  lastOperationDate,
  pendingTotals,
  recentEntries,
  updateEntry,
  updateLedger,
  type EntryRow,
  type LedgerRow,
} from './store.js';
import { isUniqueViolation } from '../db/errors.js';

/** The ledger resource: totals, bounds and the newest movements. */
export interface LedgerEntry {
  id: string;
  object: 'eu_threshold_ledger_entry';
  kind: string;
  reference: string | null;
  distanceSales: number;
  electronicServices: number;
  coveredUntil: string | null;
  operationDate: string | null;
  status: string | null;
  expiresAt: string | null;
  decisionId: string | null;
  correctsEntryId: string | null;
  reason: string | null;
  remainingMin: { distanceSales: number; electronicServices: number };
  remainingMax: { distanceSales: number; electronicServices: number };
  created: string;
}

interface Figure {
  counted: number;
  pending: number;
  lowerBound: number;
  upperBound: number;
  previousYear: number;
  threshold: number;
  standing: 'below' | 'above' | 'undetermined';
}

export interface Ledger {
  id: string;
  object: 'eu_threshold_ledger';
  livemode: boolean;
  year: number;
  status: 'open' | 'under_review';
  distanceSales: Figure;
  electronicServices: Figure;
  coveredUntil: string | null;
  lastEntryId: string | null;
  entries: LedgerEntry[];
  entriesTruncated: boolean;
  created: string;
  updated: string;
}

const shownEntries = 100;

function toEntry(row: EntryRow, now: Date): LedgerEntry {
  const left = remaining(row, now);
  return {
    id: row.id,
    object: 'eu_threshold_ledger_entry',
    kind: row.kind,
    reference: row.reference,
    distanceSales: row.distanceSales,
    electronicServices: row.electronicServices,
    coveredUntil: row.coveredUntil,
    operationDate: row.operationDate,
    status: row.kind === 'reservation' ? reservationState(row, now) : null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    decisionId: row.decisionId,
    correctsEntryId: row.targetEntryId,
    reason: row.reason,
    remainingMin: left.min,
    remainingMax: left.max,
    created: row.created.toISOString(),
  };
}

async function toLedger(db: Executor, scope: Scope, row: LedgerRow, now: Date): Promise<Ledger> {
  const pending = await pendingTotals(db, scope, row.id, now);
  const entries = await recentEntries(db, scope, row.id, shownEntries + 1);
  const figure = (counted: number, pendingAmount: number, previousYear: number, threshold: number): Figure => ({
    counted,
    pending: pendingAmount,
    lowerBound: counted,
    upperBound: counted + pendingAmount,
    previousYear,
    threshold,
    standing: standing(previousYear, { counted, pending: pendingAmount }, threshold),
  });
  return {
    id: row.id,
    object: 'eu_threshold_ledger',
    livemode: row.livemode,
    year: row.year,
    status: row.status as Ledger['status'],
    distanceSales: figure(
      row.countedDistanceSales,
      pending.distanceSales,
      row.previousDistanceSales,
      distanceSalesThreshold,
    ),
    electronicServices: figure(
      row.countedElectronicServices,
      pending.electronicServices,
      row.previousElectronicServices,
      reliefThreshold,
    ),
    coveredUntil: row.coveredUntil,
    lastEntryId: row.lastEntryId,
    entries: entries.slice(0, shownEntries).map((entry) => toEntry(entry, now)),
    entriesTruncated: entries.length > shownEntries,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

function yearInvalid(year: number): never {
  throw refuse(
    'eu_threshold_year_invalid',
    `${year} is not a calendar year the service holds (from 2024 to next year).`,
    { param: 'year' },
  );
}

function checkDate(date: string, year: number, now: Date, param: string): void {
  const problem = dateProblem(date, year, now);
  if (problem === 'outside_year')
    throw refuse('eu_threshold_date_outside_year', `\`${param}\` ${date} is outside the ledger's year ${year}.`, {
      param,
    });
  if (problem === 'in_future')
    throw refuse(
      'eu_threshold_date_in_future',
      `\`${param}\` ${date} is in the future: completeness can only be declared up to today.`,
      { param },
    );
}

function stateMissing(year: number): never {
  throw refuse(
    'eu_threshold_state_missing',
    `No EU threshold ledger is open for ${year}; open it with \`POST /v1/eu-threshold-ledgers\`.`,
    { param: 'year' },
  );
}

function entryRow(
  scope: Scope,
  ledgerId: string,
  now: Date,
  fields: Partial<EntryRow> & Pick<EntryRow, 'kind'>,
): EntryRow {
  return {
    ...scope,
    id: newId('ledgerEntry', now),
    ledgerId,
    reference: null,
    fingerprint: null,
    distanceSales: 0,
    electronicServices: 0,
    correctedDistanceSales: 0,
    correctedElectronicServices: 0,
    coveredUntil: null,
    operationDate: null,
    state: null,
    expiresAt: null,
    decisionId: null,
    targetEntryId: null,
    reason: null,
    created: now,
    ...fields,
  };
}

export interface OpenLedgerInput {
  year: number;
  previousYear?: { distanceSales?: number | undefined; electronicServices?: number | undefined } | undefined;
  opening?:
    | { distanceSales?: number | undefined; electronicServices?: number | undefined; coveredUntil?: string | undefined }
    | undefined;
}

export async function openLedger(deps: Pick<Deps, 'db'>, ctx: CallContext, input: OpenLedgerInput): Promise<Ledger> {
  if (!yearHeld(input.year, ctx.now)) yearInvalid(input.year);
  const coveredUntil = input.opening?.coveredUntil ?? null;
  if (coveredUntil) checkDate(coveredUntil, input.year, ctx.now, 'opening.coveredUntil');
  const ledgerId = newId('euThresholdLedger', ctx.now);
  const opening = entryRow(ctx.scope, ledgerId, ctx.now, {
    kind: 'opening',
    distanceSales: input.opening?.distanceSales ?? 0,
    electronicServices: input.opening?.electronicServices ?? 0,
    coveredUntil,
  });
  const row: LedgerRow = {
    ...ctx.scope,
    id: ledgerId,
    year: input.year,
    status: 'open',
    previousDistanceSales: input.previousYear?.distanceSales ?? 0,
    previousElectronicServices: input.previousYear?.electronicServices ?? 0,
    countedDistanceSales: opening.distanceSales,
    countedElectronicServices: opening.electronicServices,
    coveredUntil,
    lastEntryId: opening.id,
    created: ctx.now,
    updated: ctx.now,
  };
  try {
    await inTransaction(deps.db, ctx, async (tx) => {
      await insertLedger(tx, row);
      await insertEntry(tx, opening);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw refuse(
        'eu_threshold_year_already_open',
        `The ledger of ${input.year} is already open; correct its figures with an adjustment.`,
        { param: 'year' },
      );
    throw error;
  }
  return toLedger(deps.db, ctx.scope, row, ctx.now);
}

export async function getLedger(deps: Pick<Deps, 'db'>, scope: Scope, year: number, now: Date): Promise<Ledger> {
  const row = await findLedger(deps.db, scope, year);
  if (!row) throw refuse('not_found', `No EU threshold ledger for ${year}.`, { param: 'year' });
  return toLedger(deps.db, scope, row, now);
}

/** Runs a movement on the locked ledger of `year`; the same reference with the same content changes nothing. */
async function onLockedLedger(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  year: number,
  reference: string | null,
  content: unknown,
  work: (tx: Executor, ledger: LedgerRow) => Promise<LedgerRow>,
): Promise<Ledger> {
  const result = await inTransaction(deps.db, ctx, async (tx) => {
    const ledger = await findLedger(tx, ctx.scope, year, true);
    if (!ledger) stateMissing(year);
    if (reference !== null) {
      const existing = await findEntryByReference(tx, ctx.scope, ledger.id, reference);
      if (existing) {
        if (existing.fingerprint !== canonicalJson(content))
          throw refuse(
            'eu_threshold_entry_conflict',
            `Reference "${reference}" already names entry ${existing.id} with other content; use a new reference.`,
            { param: 'reference' },
          );
        return ledger;
      }
    }
    return work(tx, ledger);
  });
  return toLedger(deps.db, ctx.scope, result, ctx.now);
}

export interface AdjustmentInput {
  reference: string;
  distanceSales?: number | undefined;
  electronicServices?: number | undefined;
  coveredUntil: string;
}

/** Other-channel figures (never lowering the total) and the day up to which they are complete. */
export async function recordAdjustment(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  year: number,
  input: AdjustmentInput,
): Promise<Ledger> {
  if (!yearHeld(year, ctx.now)) yearInvalid(year);
  const distanceSales = input.distanceSales ?? 0;
  const electronicServices = input.electronicServices ?? 0;
  for (const [field, value] of [
    ['distanceSales', distanceSales],
    ['electronicServices', electronicServices],
  ] as const) {
    if (value < 0)
      throw refuse(
        'eu_threshold_decrease_not_sourced',
        `An adjustment never lowers the total (\`${field}\` is ${value}); give back a counted figure with a qualified correction of the movement concerned.`,
        { param: field },
      );
  }
  checkDate(input.coveredUntil, year, ctx.now, 'coveredUntil');
  const content = { kind: 'adjustment', distanceSales, electronicServices, coveredUntil: input.coveredUntil };
  return onLockedLedger(deps, ctx, year, input.reference, content, async (tx, ledger) => {
    const entry = entryRow(ctx.scope, ledger.id, ctx.now, {
      kind: 'adjustment',
      reference: input.reference,
      fingerprint: canonicalJson(content),
      distanceSales,
      electronicServices,
      coveredUntil: input.coveredUntil,
    });
    await insertEntry(tx, entry);
    const coveredUntil =
      ledger.coveredUntil && ledger.coveredUntil > input.coveredUntil ? ledger.coveredUntil : input.coveredUntil;
    return updateLedger(tx, ctx.scope, ledger.id, {
      countedDistanceSales: ledger.countedDistanceSales + distanceSales,
      countedElectronicServices: ledger.countedElectronicServices + electronicServices,
      coveredUntil,
      lastEntryId: entry.id,
      updated: ctx.now,
    });
  });
}

export interface CorrectionInput {
  reference: string;
  entryId: string;
  distanceSales?: number | undefined;
  electronicServices?: number | undefined;
  reason?: string | undefined;
}

/** A qualified correction gives back part of one movement, never more than it still counts (`remainingMin`). */
export async function recordCorrection(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  year: number,
  input: CorrectionInput,
): Promise<Ledger> {
  if (!yearHeld(year, ctx.now)) yearInvalid(year);
  const distanceSales = input.distanceSales ?? 0;
  const electronicServices = input.electronicServices ?? 0;
  if (distanceSales < 0 || electronicServices < 0 || distanceSales + electronicServices === 0) {
    throw refuse(
      'invalid_field_value',
      'A correction gives back a positive amount of `distanceSales` or `electronicServices` (cents).',
      { param: distanceSales <= 0 ? 'distanceSales' : 'electronicServices' },
    );
  }
  const content = {
    kind: 'correction',
    entryId: input.entryId,
    distanceSales,
    electronicServices,
    reason: input.reason ?? null,
  };
  return onLockedLedger(deps, ctx, year, input.reference, content, async (tx, ledger) => {
    const target = await findEntry(tx, ctx.scope, ledger.id, input.entryId, true);
    if (!target)
      throw refuse(
        'eu_threshold_correction_target_unknown',
        `The ledger of ${year} holds no movement ${input.entryId}.`,
        { param: 'entryId' },
      );
    if (!correctable(target, ctx.now)) {
      throw refuse(
        'eu_threshold_correction_target_not_correctable',
        `Movement ${target.id} (${target.kind}${target.kind === 'reservation' ? `, ${reservationState(target, ctx.now)}` : ''}) contributed no figure to correct.`,
        { param: 'entryId' },
      );
    }
    const left = remaining(target, ctx.now).min;
    for (const [field, value] of [
      ['distanceSales', distanceSales],
      ['electronicServices', electronicServices],
    ] as const) {
      if (value > left[field]) {
        throw refuse(
          'eu_threshold_correction_exceeds_counted',
          `The correction gives back ${value} cents of \`${field}\` but movement ${target.id} still counts ${left[field]} (its \`remainingMin\`).`,
          { param: field },
        );
      }
    }
    const entry = entryRow(ctx.scope, ledger.id, ctx.now, {
      kind: 'correction',
      reference: input.reference,
      fingerprint: canonicalJson(content),
      distanceSales: -distanceSales,
      electronicServices: -electronicServices,
      targetEntryId: target.id,
      reason: input.reason ?? null,
    });
    await insertEntry(tx, entry);
    await updateEntry(tx, ctx.scope, target.id, {
      correctedDistanceSales: target.correctedDistanceSales + distanceSales,
      correctedElectronicServices: target.correctedElectronicServices + electronicServices,
    });
    // Giving back part of a live reservation lowers what it may still count, not the counted total.
    const counted =
      reservationState(target, ctx.now) === 'reserved'
        ? { distanceSales: 0, electronicServices: 0 }
        : { distanceSales, electronicServices };
    return updateLedger(tx, ctx.scope, ledger.id, {
      countedDistanceSales: ledger.countedDistanceSales - counted.distanceSales,
      countedElectronicServices: ledger.countedElectronicServices - counted.electronicServices,
      lastEntryId: entry.id,
      updated: ctx.now,
    });
  });
}

export interface ReconciliationInput {
  /** The newest movement seen when the totals were checked. */
  lastEntryId: string;
  distanceSales: number;
  electronicServices: number;
}

/** Closes a review: nothing moved since the check, and the verified totals are the ledger's. */
export async function reconcileLedger(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  year: number,
  input: ReconciliationInput,
): Promise<Ledger> {
  if (!yearHeld(year, ctx.now)) yearInvalid(year);
  return onLockedLedger(deps, ctx, year, null, null, async (tx, ledger) => {
    if (ledger.status !== 'under_review')
      throw refuse(
        'eu_threshold_not_under_review',
        `The ledger of ${year} is not under review: there is nothing to close.`,
      );
    if (ledger.lastEntryId !== input.lastEntryId) {
      throw refuse(
        'eu_threshold_reconciliation_stale',
        `A movement occurred since the check: the newest movement is ${ledger.lastEntryId}, the check saw ${input.lastEntryId}. Check again.`,
        { param: 'lastEntryId' },
      );
    }
    const differs: string[] = [];
    if (input.distanceSales !== ledger.countedDistanceSales)
      differs.push(
        `distance sales: verified ${input.distanceSales} cents (EUR ${euros(input.distanceSales)}), ledger ${ledger.countedDistanceSales} cents (EUR ${euros(ledger.countedDistanceSales)})`,
      );
    if (input.electronicServices !== ledger.countedElectronicServices)
      differs.push(
        `electronic services: verified ${input.electronicServices} cents (EUR ${euros(input.electronicServices)}), ledger ${ledger.countedElectronicServices} cents (EUR ${euros(ledger.countedElectronicServices)})`,
      );
    if (differs.length > 0) {
      throw refuse(
        'eu_threshold_reconciliation_mismatch',
        `The verified totals differ from the ledger's: ${differs.join('; ')}. Correct the ledger (adjustment or qualified correction), then reconcile.`,
        { param: input.distanceSales !== ledger.countedDistanceSales ? 'distanceSales' : 'electronicServices' },
      );
    }
    const entry = entryRow(ctx.scope, ledger.id, ctx.now, {
      kind: 'reconciliation',
      distanceSales: 0,
      electronicServices: 0,
      reason: `verified at ${input.lastEntryId}`,
    });
    await insertEntry(tx, entry);
    return updateLedger(tx, ctx.scope, ledger.id, { status: 'open', lastEntryId: entry.id, updated: ctx.now });
  });
}

// For the tax decision engine.

export interface ShareRequest {
  date: string;
  distanceSales: number;
  electronicServices: number;
  /** The location rests on one third-party item: the EUR 100,000 relief must hold. */
  needsRelief: boolean;
}

export type ShareOutcome =
  | { kind: 'reserved'; entryId: string; expiresAt: Date; position: 'origin' | 'destination'; year: number }
  | { kind: 'suspended'; reason: Issue; year: number };

/**
 * Phase 1 of a decision on EU B2C supplies: on the locked ledger row (SELECT ... FOR UPDATE, so
 * concurrent decisions of the company take turns), decide where the threshold stands for this
 * share and reserve it for at most 15 minutes. Committed at once: concurrent decisions see it as
 * the gap between the lower and upper bounds.
 */
export async function reserveShare(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  now: Date,
  request: ShareRequest,
): Promise<ShareOutcome> {
  const year = Number(request.date.slice(0, 4));
  return inTransaction(deps.db, null, async (tx) => {
    const ledger = await findLedger(tx, scope, year, true);
    if (!ledger) stateMissing(year);
    if (ledger.status === 'under_review') return underReview(year);
    await checkCountable(tx, scope, ledger, request, now);
    const pending = await pendingTotals(tx, scope, ledger.id, now);
    if (request.needsRelief) {
      const relief = reliefPosition(
        ledger.previousElectronicServices,
        { counted: ledger.countedElectronicServices, pending: pending.electronicServices },
        request.electronicServices,
      );
      if (relief === 'pending') return concurrentDecision(year, 'EUR 100,000 relief ceiling');
      if (relief === 'not_established') return reliefUndetermined(year);
    }
    const position = thresholdPosition(
      ledger.previousDistanceSales,
      { counted: ledger.countedDistanceSales, pending: pending.distanceSales },
      request.distanceSales,
    );
    if (position === 'pending') return concurrentDecision(year, 'EUR 10,000 ceiling');
    const expiresAt = new Date(now.getTime() + reservationMs);
    const entry = entryRow(scope, ledger.id, now, {
      kind: 'reservation',
      state: 'reserved',
      expiresAt,
      operationDate: request.date,
      distanceSales: request.distanceSales,
      electronicServices: request.electronicServices,
      reason:
        position === 'origin' ? 'below the threshold: taxed in France' : 'threshold exceeded: taxed at destination',
    });
    await insertEntry(tx, entry);
    await updateLedger(tx, scope, ledger.id, { lastEntryId: entry.id, updated: now });
    return { kind: 'reserved', entryId: entry.id, expiresAt, position, year };
  });
}

type LedgerOf = NonNullable<Awaited<ReturnType<typeof findLedger>>>;

/** The operation can be counted on the ledger: its day is covered by the other channels, and not before one already counted. */
async function checkCountable(tx: Tx, scope: Scope, ledger: LedgerOf, request: ShareRequest, now: Date): Promise<void> {
  if (!ledger.coveredUntil || ledger.coveredUntil < request.date) {
    throw refuse(
      'eu_threshold_external_coverage_incomplete',
      `Other sales channels are declared complete up to ${ledger.coveredUntil ?? 'no day yet'}, before the operation day ${request.date}: record an adjustment (even zero) covering ${request.date}.`,
      { param: 'date' },
    );
  }
  const last = await lastOperationDate(tx, scope, ledger.id, now);
  if (last && request.date < last) {
    throw refuse(
      'eu_threshold_backdated_operation',
      `The operation of ${request.date} is earlier than one already counted (${last}); the threshold is crossed in date order.`,
      { param: 'date' },
    );
  }
}

const underReview = (year: number): ShareOutcome => ({
  kind: 'suspended',
  year,
  reason: {
    code: 'eu_threshold_review_required',
    param: null,
    message: `The EU threshold ledger of ${year} is under review: no decision is frozen on it until a reconciliation closes the review.`,
  },
});

const concurrentDecision = (year: number, what: string): ShareOutcome => ({
  kind: 'suspended',
  year,
  reason: {
    code: 'eu_threshold_concurrent_decision_pending',
    param: null,
    message: `Other operations of the company are being decided: the ${what} falls between the ledger's bounds; ask again once they conclude (an orphan reserved share expires after at most 15 minutes).`,
  },
});

const reliefUndetermined = (year: number): ShareOutcome => ({
  kind: 'suspended',
  year,
  reason: {
    code: 'location_evidence_relief_undetermined',
    param: 'locationEvidence',
    message: `A single third-party item locates the consumer, and the EUR 100,000 relief is not established for ${year}: bring a second, non-contradictory item.`,
  },
});

/** Phase 2, inside the decision's transaction: the reservation still lives and now belongs to the decision. */
export async function attachReservation(
  tx: Executor,
  scope: Scope,
  entryId: string,
  decisionId: string,
  now: Date,
): Promise<boolean> {
  return claimReservation(tx, scope, entryId, decisionId, now);
}

/** A share whose decision was not written (a refusal after the reservation): returned at once. */
export async function releaseReservation(deps: Pick<Deps, 'db'>, scope: Scope, entryId: string): Promise<void> {
  await inTransaction(deps.db, null, (tx) => updateEntry(tx, scope, entryId, { state: 'released' }));
}

/** The reserved share vanished before the decision was written: the ledger's total is no longer trusted. */
export async function markReservationLost(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  year: number,
  entryId: string,
  now: Date,
): Promise<void> {
  await inTransaction(deps.db, null, async (tx) => {
    const ledger = await findLedger(tx, scope, year, true);
    if (!ledger) return;
    const entry = entryRow(scope, ledger.id, now, {
      kind: 'review',
      reason: `reservation ${entryId} lost before its decision was written`,
    });
    await insertEntry(tx, entry);
    await updateLedger(tx, scope, ledger.id, { status: 'under_review', lastEntryId: entry.id, updated: now });
  });
}

/**
 * When a document is finalized on a final decision: its reserved share becomes counted. For the
 * invoices capability; refuses an expired or vanished share (the decision's usage window is over).
 */
export async function countDecisionShare(
  tx: Executor,
  scope: Scope,
  decisionId: string,
  now: Date,
): Promise<'counted' | 'none'> {
  const found = await findReservationOfDecision(tx, scope, decisionId);
  if (!found) return 'none';
  // The ledger first, then its movement: the order every movement takes, so none deadlocks.
  const ledger = await findLedgerById(tx, scope, found.ledgerId, true);
  const reservation = await findEntry(tx, scope, found.ledgerId, found.id, true);
  if (!ledger || !reservation || reservationState(reservation, now) !== 'reserved') {
    throw refuse(
      'tax_decision_expired',
      `The ledger share of tax decision ${decisionId} is no longer reserved; create a new decision.`,
    );
  }
  await updateEntry(tx, scope, reservation.id, { state: 'counted' });
  await updateLedger(tx, scope, ledger.id, {
    countedDistanceSales: ledger.countedDistanceSales + reservation.distanceSales - reservation.correctedDistanceSales,
    countedElectronicServices:
      ledger.countedElectronicServices + reservation.electronicServices - reservation.correctedElectronicServices,
    updated: now,
  });
  return 'counted';
}

/** Sandbox reset: every test ledger of the company goes, with its movements. */
export async function purgeTestLedgers(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live ledgers');
  return deleteScopeLedgers(tx, scope);
}
