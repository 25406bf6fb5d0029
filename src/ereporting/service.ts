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
import { companiesOf, companySeller } from '../companies/service.js';
import type { PlatformConnector } from '../platform/connector.js';
import type { OutgoingFlow } from '../platform/flows.js';
import { deliverDueFlows, deliverFlow, flowLeaseMs, flowUnderWay, queuePlatformFlow } from '../platform/service.js';
import { reportingChannel } from './channel.js';
import { OperationGathering } from './operation-gathering.js';

export { lookbackDays } from './operation-gathering.js';
import { declarationFlow, declarationFlowInput, declarationTrackingId, recordOnce } from './declaration-flow.js';
import { ereportingTransmits } from '../establishments/platform-access.js';
import type { Flow } from './flows.js';
import { reportProblemsAsync, reportXml } from './report-xml.js';
import {
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
  insertDeclaration,
  lockScopeReporting,
  operationsOf,
  pageDeclarations,
  reservedDeclarations,
  updateDeclaration,
  type DeclarationRow,
} from './store.js';

/**
 * E-reporting declarations: gathering the operations the tax decisions made reportable into the
 * declaration of their establishment, flow and period; submitting them through the platform;
 * recording the platform's verdict; retrying a rejected one.
 *
 * Submission goes through the platform's outbox (declaration-flow.ts): the claim builds the file
 * and queues its flow under the claimer's lease (so two passes and the route never transmit it
 * twice), the outbox deposits it outside any transaction and records `submitted` with
 * `ereporting.submitted` under its identity (declaration and attempt); then the verdict
 * (`accepted` or `rejected` likewise). Each event is recorded by whichever transaction takes its
 * key first.
 */

/** A declaration is retried at most this many times in all (the first attempt included). */
export const maxAttempts = 3;
/** The route waits this long (ms) for a submission another holds (a pass), then answers `pa_unavailable`. */
const routeWaitMs = 10_000;

function workerContext(scope: Scope, now: Date): CallContext {
  return { scope, requestId: null, idempotencyKey: null, apiVersion: currentVersion, now };
}

const notFound = (id: string) => refuse('not_found', `No e-reporting declaration ${id}.`, { param: 'id' });

// Gathering.

/**
 * Adds the scope's unreported operations (issued documents, payments, refunds whose decision made
 * an e-reporting axis due) to the open declarations of their periods, creating them as needed.
 * An operation whose period was already submitted goes to the period of `now`: a sent declaration
 * is never rewritten. In the caller's transaction; returns the number of operations added.
 */
export function gatherOperations(tx: Tx, scope: Scope, now: Date): Promise<number> {
  return new OperationGathering(tx, scope, now).run();
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
  /** `resumed`: an earlier try of this attempt may have reached the platform (its tracking id was set). */
  | { kind: 'queued'; row: DeclarationRow; flow: OutgoingFlow; resumed: boolean }
  | { kind: 'settled'; row: DeclarationRow }
  /** Its flow is on its way under another holder's lease (a pass, another request). */
  | { kind: 'busy'; row: DeclarationRow };

/** Who declares: the company (flow 10 names it by SIREN, its legal name and its VAT number). */
export interface Declarant {
  siren: string;
  name: string;
  vatNumber: string | null;
}

/**
 * The declaration's report, built from its lines and checked against the official flow 10 XSD
 * and the PPF schematron (in a worker thread: never inside a transaction).
 */
async function checkedReport(
  deps: Pick<Deps, 'config'>,
  row: DeclarationRow,
  declarant: Declarant,
  now: Date,
): Promise<string> {
  if (!row.lines || row.lines.length === 0)
    throw refuse(
      'ereporting_declaration_incomplete',
      `Declaration ${row.id} holds no operation line: nothing can be transmitted.`,
      { param: 'id' },
    );
  const xml = reportXml({
    id: row.id,
    attempt: row.attempt,
    flow: row.flow as Flow,
    issuedAt: now,
    siren: declarant.siren,
    sellerName: declarant.name,
    sellerVatNumber: declarant.vatNumber,
    siret: row.establishment,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    currency: row.currency,
    lines: row.lines,
    operationCount: row.operationCount,
    taxableAmount: row.taxableAmount,
    taxAmount: row.taxAmount,
  });
  const problems = await reportProblemsAsync(xml, deps.config.dataDir);
  if (problems.length > 0)
    throw refuse(
      'ereporting_declaration_incomplete',
      `Declaration ${row.id} does not pass the official flow 10 rules: ${problems.slice(0, 3).join('; ')}.`,
      { param: 'id' },
    );
  return xml;
}

/**
 * Claims a reserved declaration for its deposit: its file built and checked, and its flow queued
 * in the outbox under this caller's lease, in the transaction that sets its tracking id. The
 * caller deposits it (`deliverFlow`), outside the transaction. Under the scope's lock, as the
 * gathering: a declaration whose flow is under way takes no new operation.
 */
export async function claimSubmission(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  ctx: CallContext,
  id: string,
  declarant: Declarant | string,
): Promise<Claim> {
  const seller = typeof declarant === 'string' ? { siren: declarant, name: '', vatNumber: null } : declarant;
  // The file is built and checked outside the transaction (the schematron runs in a worker
  // thread); the claim then takes it only if the declaration's content is still what was checked.
  for (let tries = 1; ; tries++) {
    const read = await inTransaction(deps.db, ctx, (tx) => findDeclaration(tx, ctx.scope, id));
    if (!read) throw notFound(id);
    if (read.state !== 'reserved') return { kind: 'settled', row: read };
    const xml = await checkedReport(deps, read, seller, ctx.now);
    const claim = await claimChecked(deps, ctx, read, xml);
    if (claim !== 'changed') return claim;
    // Operations were added between the check and the claim: the file is built again.
    if (tries >= 3) return { kind: 'busy', row: read };
  }
}

/** The claim of a file checked outside: `changed` when the declaration moved on since it was read. */
async function claimChecked(
  deps: Pick<Deps, 'db' | 'clock'>,
  ctx: CallContext,
  read: DeclarationRow,
  xml: string,
): Promise<Claim | 'changed'> {
  const id = read.id;
  return inTransaction(deps.db, ctx, async (tx): Promise<Claim | 'changed'> => {
    await lockScopeReporting(tx, ctx.scope);
    const row = await findDeclaration(tx, ctx.scope, id, true);
    if (!row) throw notFound(id);
    if (row.state !== 'reserved') return { kind: 'settled', row };
    if (await flowUnderWay(tx, ctx.scope, declarationFlow.kind, id)) return { kind: 'busy', row };
    if (row.operationCount !== read.operationCount || row.updated.getTime() !== read.updated.getTime())
      return 'changed';
    const claimed = (await updateDeclaration(
      tx,
      ctx.scope,
      id,
      { trackingId: declarationTrackingId(row) },
      { state: 'reserved' },
    ))!;
    const lease = { token: randomUUID(), until: new Date(deps.clock.now().getTime() + flowLeaseMs) };
    const flow = await queuePlatformFlow(tx, ctx.scope, declarationFlowInput(claimed, xml, ctx), ctx.now, lease);
    // Not pending (checked above, under the lock), not deposited (the declaration would be submitted).
    if (!flow) throw new Error(`declaration ${id} queued while its flow is recorded deposited`);
    return { kind: 'queued', row: claimed, flow, resumed: row.trackingId !== null };
  });
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
  /** Another holder has its flow on the way: the route waits for it, the pass leaves it. */
  busy: boolean;
}

/**
 * Deposits a claimed declaration through the outbox (outside any transaction), recorded with
 * its `submitted` state; then reads the verdict. A claim that follows an earlier try of the
 * attempt (`resumed`) has the platform searched for its tracking id first.
 */
async function depositClaimed(
  deps: Deps,
  ctx: CallContext,
  connector: PlatformConnector,
  claim: Extract<Claim, { kind: 'queued' }>,
): Promise<SubmitOutcome> {
  const outcome = await deliverFlow(deps, declarationFlow, claim.flow, { lapsed: claim.resumed, ctx });
  const row = (await inTransaction(deps.db, ctx, (tx) => findDeclaration(tx, ctx.scope, claim.row.id)))!;
  if (outcome.state === 'failed')
    return {
      row,
      busy: false,
      refusal: refuse(
        'pa_unavailable',
        `The platform did not take declaration ${row.id}: ${outcome.failure.message}. It stays reserved and leaves at the next pass.`,
      ),
    };
  // Lost: its lease lapsed during the try and another holder took the flow (its outcome is that one's).
  if (outcome.state !== 'deposited' && row.state === 'reserved') return { row, busy: true, refusal: null };
  return { row: await settleVerdict(deps, ctx, connector, row), refusal: null, busy: false };
}

/** Transmits one declaration now (the route) or as it falls due (the pass). */
export async function transmit(deps: Deps, ctx: CallContext, id: string): Promise<SubmitOutcome> {
  const company = await companySeller(deps.db, ctx.scope.companyId);
  const declarant: Declarant = {
    siren: company.siren,
    name: company.legalName ?? company.name,
    vatNumber: company.vatNumber,
  };
  const first = await inTransaction(deps.db, ctx, (tx) => findDeclaration(tx, ctx.scope, id));
  if (!first) throw notFound(id);
  const channel = await reportingChannel(deps, deps.db, ctx.scope, first.establishment);
  if (!channel.enabled) {
    const row = await inTransaction(deps.db, ctx, (tx) =>
      setTransmissionBlock(tx, ctx, first.id, 'ereporting_not_enabled', channel.detail),
    );
    return {
      row: row ?? first,
      refusal: refuse('ereporting_not_enabled', channel.detail, { param: 'id' }),
      busy: false,
    };
  }
  const claim = await claimSubmission(deps, ctx, id, declarant);
  if (claim.kind === 'busy') return { row: claim.row, refusal: null, busy: true };
  if (claim.kind === 'settled')
    return { row: await settleVerdict(deps, ctx, channel.connector, claim.row), refusal: null, busy: false };
  return depositClaimed(deps, ctx, channel.connector, claim);
}

/**
 * The flows of the company's declarations whose holder died (its lease lapsed), taken back and
 * deposited: the outbox searches for each by its tracking id first, so none leaves twice.
 */
function takeBackLapsedFlows(deps: Deps, companyId: string): Promise<number> {
  return deliverDueFlows(deps, [declarationFlow], { companyIds: [companyId] });
}

/** How often the route looks again at a declaration another holder is transmitting. */
const routePollMs = 250;

/** `POST /v1/ereporting/declarations/:id/submit`. */
export async function submitDeclaration(deps: Deps, ctx: CallContext, id: string): Promise<Declaration> {
  let outcome = await transmit(deps, ctx, id);
  // Another holder has its flow on the way (a pass). Once that flow is recorded, this one goes on
  // from there: the verdict to read if it was deposited, the deposit again if it was not; once the
  // holder's lease lapsed (it died), this one takes the flow back.
  for (let waited = 0; !outcome.refusal && outcome.busy; waited += routePollMs) {
    if (waited >= routeWaitMs)
      throw refuse(
        'pa_unavailable',
        `Declaration ${id} is being transmitted by the scheduled pass and the platform has not answered it yet. It stays reserved: read it again, or submit it again, in a minute.`,
        { param: 'id', headers: { 'Retry-After': '60' } },
      );
    await new Promise((resolve) => setTimeout(resolve, routePollMs));
    await takeBackLapsedFlows(deps, ctx.scope.companyId);
    outcome = await transmit(deps, ctx, id);
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
    // One on its way to the platform was claimed as it was: what its deposit says of it comes first.
    if (await flowUnderWay(tx, ctx.scope, declarationFlow.kind, row.id)) continue;
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
 * Per company: takes back the declaration flows whose holder died (their lease lapsed); then per
 * environment gathers the new operations, submits the declarations that fell due (on the sandbox
 * clock for test ones) and reads the verdicts still awaited. A
 * declaration whose establishment does not transmit (no connection, `ereportingEnabled: false`)
 * stays reserved: `transmit` answers the refusal without writing anything.
 */
export async function runEreportingPass(deps: Deps, companyIds?: string[]): Promise<number> {
  let handled = 0;
  for (const company of await companiesOf(deps.db, companyIds)) {
    handled += await takeBackLapsedFlows(deps, company.id);
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
