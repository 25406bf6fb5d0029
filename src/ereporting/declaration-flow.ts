import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { recordEvent } from '../webhooks/service.js';
import type { ProcessingRule } from '../platform/connector.js';
import type { DepositedFlow, FlowKind, OutgoingFlow } from '../platform/flows.js';
import type { QueuedFlowInput } from '../platform/service.js';
import { reportingChannel } from './channel.js';
import { submittedEventData } from './declaration-record.js';
import { findDeclaration, setEventKeyEvent, takeEventKey, updateDeclaration, type DeclarationRow } from './store.js';

/**
 * A declaration's deposit as a kind of the outbox's flows (platform/outbox.ts): queued with a
 * lease by the claim that built its file, deposited outside any transaction by the route or the
 * pass that claimed it, or, once that holder's lease lapsed, by whichever pass takes it back (the
 * outbox searches the platform for its tracking id first: one attempt is never deposited twice).
 * Deposited, the declaration is `submitted` and `ereporting.submitted` recorded once; not taken,
 * it stays `reserved` and the next pass (or the submit route) queues it again with its file
 * rebuilt. The verdict is read by e-reporting itself (service.ts `settleVerdict`).
 */

/** The platform's key of one attempt: the same for every try of it, so a try finds an earlier one. */
export const declarationTrackingId = (row: Pick<DeclarationRow, 'id' | 'attempt'>) => `${row.id}-${row.attempt}`;

/** The one-at-a-time budget of the connector's own retries: search, deposit and the search of a duplicate fit the lease. */
const declarationRetryBudgetMs = 15_000;

/** What the flow keeps of its declaration and of the request that queued it. */
interface DeclarationFlowDetail {
  /** The declaration's establishment (its SIRET), whose connection carries it; null: the default one. */
  siret: string | null;
  /** `10.1` to `10.4`: what the deposit's `processingRule` says. */
  flow: string;
  /** The request that queued it, named by `ereporting.submitted` as when the route confirmed it. */
  requestId: string | null;
  idempotencyKey: string | null;
  apiVersion: string;
}

const detailOf = (flow: OutgoingFlow) => flow.detail as unknown as DeclarationFlowDetail;

/** Unitary B2B international flows (10.1, 10.2) against the aggregated B2C ones (10.3, 10.4). */
const processingRuleOf = (flow: string): ProcessingRule => (flow === '10.1' || flow === '10.2' ? 'B2BInt' : 'B2C');

/** The flow of a claimed declaration's attempt, its file built and checked. */
export function declarationFlowInput(row: DeclarationRow, xml: string, ctx: CallContext): QueuedFlowInput {
  const detail: DeclarationFlowDetail = {
    siret: row.establishment,
    flow: row.flow,
    requestId: ctx.requestId,
    idempotencyKey: ctx.idempotencyKey,
    apiVersion: ctx.apiVersion,
  };
  return {
    kind: declarationFlow.kind,
    ownerId: row.id,
    trackingId: declarationTrackingId(row),
    establishmentId: null,
    file: Buffer.from(xml, 'utf8'),
    name: `${declarationTrackingId(row)}.xml`,
    syntax: 'FRR',
    detail: { ...detail },
  };
}

/** Records an event of the declaration once: under its identity (declaration, attempt, type). */
export async function recordOnce(
  tx: Tx,
  ctx: CallContext,
  row: DeclarationRow,
  type: string,
  data: Record<string, unknown>,
): Promise<void> {
  const key = { declarationId: row.id, attempt: row.attempt, type };
  if (!(await takeEventKey(tx, ctx.scope, key, ctx.now))) return;
  const event = await recordEvent(tx, ctx, type, data, ctx.now);
  await setEventKeyEvent(tx, ctx.scope, key, event.id);
}

/** The platform holds the attempt: `submitted` with its flow id, and its event once, whoever delivered it. */
async function declarationDeposited(tx: Tx, flow: OutgoingFlow, receipt: DepositedFlow, now: Date): Promise<void> {
  const detail = detailOf(flow);
  const scope: Scope = { companyId: flow.companyId, livemode: flow.livemode };
  const ctx: CallContext = {
    scope,
    requestId: detail.requestId ?? null,
    idempotencyKey: detail.idempotencyKey ?? null,
    apiVersion: detail.apiVersion ?? currentVersion,
    now,
  };
  const row = await findDeclaration(tx, scope, flow.ownerId);
  if (!row || declarationTrackingId(row) !== flow.trackingId) return;
  const confirmed =
    row.state === 'reserved'
      ? await updateDeclaration(
          tx,
          scope,
          row.id,
          { state: 'submitted', flowId: receipt.flowId, submittedAt: now, updated: now },
          { state: 'reserved' },
        )
      : row;
  const current = confirmed ?? (await findDeclaration(tx, scope, row.id))!;
  if (current.state !== 'reserved' && current.flowId === receipt.flowId)
    await recordOnce(tx, ctx, current, 'ereporting.submitted', submittedEventData(current));
}

export const declarationFlow: FlowKind = {
  kind: 'ereporting.declaration',
  // Nobody waits on a declaration whose holder died: the platform does not hold it, it is deposited.
  afterLapse: 'deposit',
  call: { retryBudgetMs: declarationRetryBudgetMs },
  processingRule: (flow) => processingRuleOf(detailOf(flow).flow),
  // Its establishment's connection while it allows e-reporting; a test one without has the sandbox's platform.
  connector: async (deps, scope, flow) => {
    const channel = await reportingChannel(deps, deps.db, scope, detailOf(flow).siret ?? null);
    return channel.enabled ? channel.connector : null;
  },
  deposited: (_deps, tx, flow, receipt, now) => declarationDeposited(tx, flow, receipt, now),
  // Not taken this time: the declaration stays `reserved`, queued again by the next pass or submit.
  failed: async () => undefined,
};
