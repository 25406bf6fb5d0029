import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { getCustomer } from '../customers/service.js';
import { taxProfileFor, type TaxProfile } from '../tax-profiles/service.js';
import { attachReservation, markReservationLost, releaseReservation, reserveShare } from '../ledgers/service.js';
import { resolveBuyer, type BuyerInput } from './buyer.js';
import type { DecisionInput } from './decision-input.js';
import { checkRetry, decisionRecord, type TaxDecision } from './decision-record.js';
import { conclude, prepare, undecidedLines, type Operation, type Seller } from './engine.js';
import { vatTerritoryOf } from './vat-territory.js';
import {
  decisionLookup,
  deleteScopeDecisions,
  findDecision,
  insertDecision,
  pageDecisions,
  type DecisionRow,
  lookedUpDecisionDate as decisionDateColumn,
} from './store.js';
import { mapLookup, type Lookup } from '../db/lookup.js';
import { isUniqueViolation } from '../db/errors.js';
import { isIntraEuVatNumber, unavailableRetryMs, verifyVatNumber } from '../vies/service.js';
import type { Buyer } from './buyer.js';
import type { Plan } from './treatments.js';
import { restsOnVatNumber, vatProofOf, type VatProof } from './vat-proof.js';

export type { TaxDecision } from './decision-record.js';

/** A final decision that reserved no ledger share backs a document for 24 hours. */
export const usageWindowMs = 24 * 3600_000;

/** Test seam: work done between the reservation (phase 1) and the decision's transaction (phase 2). */
export interface DecisionHooks {
  afterReservation?: () => Promise<void>;
}

/** The seller as the engine needs it, from the revision covering the date. */
export function sellerOf(profile: TaxProfile): Seller {
  const resolved = vatTerritoryOf(profile.establishment.country, profile.establishment.postalCode);
  const unresolved = (why: string) =>
    refuse(
      'tax_decision_seller_territory_unresolved',
      `The establishment of tax profile ${profile.id} ${why}; nothing is guessed.`,
    );
  if (!resolved.ok)
    throw unresolved(
      resolved.code === 'french_postal_code_required'
        ? 'has no postal code, and several French VAT territories share the country code'
        : 'has a postal code that designates no French territory of its country',
    );
  const territory = resolved.territory;
  if (territory.frenchVat === null || territory.id === 'MC')
    throw unresolved(`is in ${territory.name}, not a territory where French VAT applies`);
  if (territory.frenchVat === 'suspended') {
    throw refuse(
      'not_supported',
      `The establishment of tax profile ${profile.id} is in ${territory.name}, where VAT is provisionally not applicable (CGI art. 294-1): the engine decides for sellers in mainland France, Corsica, Guadeloupe, Martinique and La Réunion.`,
    );
  }
  return {
    profileId: profile.id,
    place: { territory, area: territory.frenchVat },
    regime: profile.regime,
    vatNumber: profile.vatNumber,
    vatOnDebits: profile.vatOnDebits,
    ossRegistered: profile.ossRegistered,
    ereportingPeriodicity: profile.ereportingPeriodicity,
  };
}

async function buyerInputOf(deps: Pick<Deps, 'db'>, scope: Scope, input: DecisionInput): Promise<BuyerInput> {
  if (input.customerId !== undefined && input.customer !== undefined) {
    throw refuse('invalid_field_value', 'Give either `customerId` or an inline `customer`, not both.', {
      param: 'customer',
    });
  }
  if (input.customer !== undefined) {
    const inline = input.customer;
    const address = (value: typeof inline.address) =>
      value ? { postalCode: value.postalCode ?? null, country: value.country } : null;
    return {
      type: inline.type,
      vatNumber: inline.vatNumber ?? null,
      address: address(inline.address),
      deliveryAddress: address(inline.deliveryAddress),
    };
  }
  if (input.customerId === undefined)
    throw new ApiError('missing_required_field', {
      param: 'customerId',
      values: { detail: 'A decision names its buyer: `customerId` or an inline `customer`.' },
    });
  let customer;
  try {
    customer = await getCustomer(deps, scope, input.customerId);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found')
      throw refuse('not_found', `No customer ${input.customerId}.`, { param: 'customerId' });
    throw error;
  }
  if (customer.deleted)
    throw new ApiError('resource_deleted', { values: { resource: 'customer', id: customer.id }, param: 'customerId' });
  const address = (value: typeof customer.address) =>
    value ? { postalCode: value.postalCode, country: value.country } : null;
  return {
    type: customer.type,
    vatNumber: customer.vatNumber,
    address: address(customer.address),
    deliveryAddress: address(customer.deliveryAddress),
  };
}

function operationOf(input: DecisionInput): Operation {
  return {
    taxSource: input.taxSource,
    date: input.date,
    currency: input.currency,
    lines: input.lines,
    locationEvidence: input.locationEvidence ?? [],
    allowances: input.allowances,
    charges: input.charges,
  };
}

async function previousDecision(deps: Pick<Deps, 'db'>, ctx: CallContext, input: DecisionInput): Promise<void> {
  if (input.retryOf === undefined) return;
  const row = await findDecision(deps.db, ctx.scope, input.retryOf);
  if (!row) throw refuse('not_found', `No tax decision ${input.retryOf}.`, { param: 'retryOf' });
  checkRetry(
    { id: row.id, status: row.status, expiresAt: row.expiresAt, input: row.input as DecisionInput },
    input,
    ctx.now,
  );
}

/** VIES's word on the buyer's number when a line rests on it (asked now, or its fresh answer reused). */
async function vatProof(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  input: DecisionInput,
  buyer: Buyer,
  plan: Plan,
): Promise<VatProof> {
  if (!buyer.vatNumber || !isIntraEuVatNumber(buyer.vatNumber) || !restsOnVatNumber(plan))
    return { kind: 'proven', validation: null };
  const verdict = await verifyVatNumber(deps, ctx.scope, buyer.vatNumber, ctx.now);
  const param = input.customer !== undefined ? 'customer.vatNumber' : 'customerId';
  return vatProofOf(verdict, buyer.vatNumber, param, unavailableRetryMs / 60_000);
}

async function write(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  decision: TaxDecision,
  input: DecisionInput,
  beforeInsert?: (tx: Executor) => Promise<void>,
): Promise<TaxDecision> {
  const row: DecisionRow = {
    ...ctx.scope,
    id: decision.id,
    status: decision.status,
    date: decision.date,
    customerId: decision.customerId,
    retryOf: decision.retryOf,
    expiresAt: decision.expiresAt ? new Date(decision.expiresAt) : null,
    input: input as unknown as Record<string, unknown>,
    body: decision as unknown as Record<string, unknown>,
    created: ctx.now,
  };
  try {
    await inTransaction(deps.db, ctx, async (tx) => {
      if (beforeInsert) await beforeInsert(tx);
      await insertDecision(tx, row);
    });
  } catch (error) {
    if (decision.retryOf && isUniqueViolation(error)) {
      throw refuse(
        'tax_decision_retry_invalid',
        `Tax decision ${decision.retryOf} was already retried; retry the newest decision of its chain.`,
        { param: 'retryOf' },
      );
    }
    throw error;
  }
  return decision;
}

/**
 * `POST /v1/tax-decisions`. Without EU B2C supplies: one transaction. With them, two phases: the
 * ledger share is reserved and committed first (concurrent decisions see it), then the decision is
 * written in its own transaction, which must still find its reservation alive; a vanished one is
 * `eu_threshold_reservation_lost` (409), no decision, and the ledger goes under review.
 */
export async function createTaxDecision(
  deps: Pick<Deps, 'db' | 'clock' | 'log' | 'config'>,
  ctx: CallContext,
  input: DecisionInput,
  hooks: DecisionHooks = {},
): Promise<TaxDecision> {
  const startedAt = deps.clock.now().getTime();
  // The scope's time now: the request's time plus what has run since (the sandbox clock in test mode).
  const scopeNow = () => new Date(ctx.now.getTime() + (deps.clock.now().getTime() - startedAt));
  await previousDecision(deps, ctx, input);
  const buyer = resolveBuyer(await buyerInputOf(deps, ctx.scope, input));
  const seller = sellerOf(await taxProfileFor(deps.db, ctx.scope, input.date));
  const operation = operationOf(input);
  const prepared = prepare(operation, seller, buyer);
  const proof = await vatProof(deps, ctx, input, buyer, prepared.plan);
  const id = newId('taxDecision', ctx.now);
  const parts = {
    id,
    livemode: ctx.scope.livemode,
    input,
    seller,
    buyer,
    plan: prepared.plan,
    now: ctx.now,
    expiresAt: null as Date | null,
    euThreshold: null as TaxDecision['euThreshold'],
    vatValidation: proof.kind === 'proven' ? proof.validation : null,
  };

  const pending = proof.kind === 'pending' ? proof.reason : prepared.plan.locationPending;
  if (pending) {
    return write(
      deps,
      ctx,
      decisionRecord(parts, { status: 'suspended', lines: undecidedLines(operation, prepared), reasons: [pending] }),
      input,
    );
  }
  if (!prepared.needsLedger) {
    const concluded = conclude(operation, seller, buyer, prepared, null);
    return write(
      deps,
      ctx,
      decisionRecord({ ...parts, expiresAt: new Date(ctx.now.getTime() + usageWindowMs) }, concluded),
      input,
    );
  }

  const share = await reserveShare(deps, ctx.scope, ctx.now, {
    date: input.date,
    ...prepared.shares,
    needsRelief: prepared.plan.needsRelief,
  });
  if (share.kind === 'suspended') {
    return write(
      deps,
      ctx,
      decisionRecord(parts, {
        status: 'suspended',
        lines: undecidedLines(operation, prepared),
        reasons: [share.reason],
      }),
      input,
    );
  }
  let concluded;
  try {
    concluded = conclude(operation, seller, buyer, prepared, { position: share.position });
  } catch (error) {
    await releaseReservation(deps, ctx.scope, share.entryId);
    throw error;
  }
  if (concluded.status !== 'final') {
    await releaseReservation(deps, ctx.scope, share.entryId);
    return write(deps, ctx, decisionRecord(parts, concluded), input);
  }
  await hooks.afterReservation?.();
  const decision = decisionRecord(
    {
      ...parts,
      expiresAt: share.expiresAt,
      euThreshold: { year: share.year, position: share.position, reservationId: share.entryId },
    },
    concluded,
  );
  let lost = false;
  try {
    return await write(deps, ctx, decision, input, async (tx) => {
      if (!(await attachReservation(tx, ctx.scope, share.entryId, id, scopeNow()))) {
        lost = true;
        throw refuse(
          'eu_threshold_reservation_lost',
          `The ledger share reserved for this decision (${share.entryId}) vanished before the decision was written: no decision was created, and the ledger of ${share.year} is now under review. Reconcile it, then ask again.`,
        );
      }
    });
  } catch (error) {
    if (lost) await markReservationLost(deps, ctx.scope, share.year, share.entryId, scopeNow());
    else
      await releaseReservation(deps, ctx.scope, share.entryId).catch((releaseError: unknown) =>
        // The share lapses by itself within 15 minutes; the refusal below is what the client needs.
        deps.log.warn({ err: releaseError, entry: share.entryId }, 'reserved ledger share not released'),
      );
    throw error;
  }
}

export function toTaxDecision(row: DecisionRow): TaxDecision {
  const decision = row.body as unknown as TaxDecision;
  // Decisions written before VIES was consulted carry no `vatValidation`.
  return { ...decision, vatValidation: decision.vatValidation ?? null };
}

export async function getTaxDecision(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<TaxDecision> {
  const row = await findDecision(deps.db, scope, id);
  if (!row) throw refuse('not_found', `No tax decision ${id}.`, { param: 'id' });
  return toTaxDecision(row);
}

/** `getTaxDecision` as a lookup of a bigger statement (null: none in this environment). */
export function taxDecisionLookup(scope: Scope, id: string): Lookup<TaxDecision | null> {
  return mapLookup(decisionLookup(scope, id), (row) => row && toTaxDecision(row));
}

export async function listTaxDecisions(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  filters: { status?: string | undefined; customerId?: string | undefined },
): Promise<ListEnvelope<TaxDecision>> {
  const rows = await pageDecisions(deps.db, scope, page, filters);
  return toListEnvelope(rows, page, '/v1/tax-decisions', (row) => row.id, toTaxDecision);
}

/** `POST` or `DELETE` on a decision: it is immutable (contract, rule 1 besides the table). */
export async function refuseDecisionChange(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  id: string,
  method: string,
): Promise<never> {
  await getTaxDecision(deps, scope, id);
  throw refuse(
    'method_not_allowed',
    `${method} is not allowed on tax decision ${id}: a decision is immutable. Create a new decision linked to it with \`retryOf\`.`,
    { param: 'id' },
  );
}

/** Sandbox reset: every test decision goes. */
export async function purgeTestDecisions(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live tax decisions');
  return deleteScopeDecisions(tx, scope);
}

/** The date of the decision a lookup found, as a column of the caller's statement (the operation's date). */
export const lookedUpDecisionDate = decisionDateColumn;
