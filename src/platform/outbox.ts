import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import type { Tx } from '../db/database.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import type { PeriodicPass } from '../workers/periodic-passes.js';
import type { PlatformConnector, PlatformFailure } from './connector.js';
import type { DepositedFlow, FlowFailure, FlowKind, OutgoingFlow } from './flows.js';
import { claimDueFlows, settleFlow } from './flow-store.js';

/**
 * The outbox's one way to the platform, for every kind of flow (flows.ts): a flow held under a
 * lease is tried once, outside any transaction, and its outcome recorded in one transaction with
 * what its owner makes of it:
 *
 * 1. no connection → `failed` (`pa_not_configured`); the kind's `prepare` may then give the file
 *    (made after the flow was queued), hold the flow back until its file is ready, or refuse it;
 * 2. a try after the first may follow a deposit whose answer was lost, or a holder that died:
 *    the platform is searched for the tracking id first, and a flow it holds is `deposited`
 *    (reconciled); a lapsed flow of a kind that does not deposit on its own is `abandoned`;
 * 3. the deposit; answered `duplicate`, the proof of reception is searched for once more;
 * 4. the platform's refusal or unavailability → `failed`, the owner deciding what follows (or
 *    pending again at the kind's `retryAt`: a backoff the kind runs without queueing anew).
 *
 * A route that must answer with the platform's word holds the lease it queued the flow with and
 * calls `deliverFlow` itself; the outbox pass (`outboxPass`) takes every other due flow, and the
 * flows whose holder died once their lease lapses.
 */

/** Longer than one try (the connector's own attempts bounded by the kind's budget). */
export const flowLeaseMs = 60_000;

export type FlowOutcome =
  | { state: 'deposited'; receipt: DepositedFlow }
  /** `retryAt`: the kind tries it again then (the flow stays pending); null: it ended `failed`. */
  | { state: 'failed'; failure: FlowFailure; retryAt: Date | null }
  | { state: 'abandoned' }
  /** The kind's `prepare` held it back: pending until `at`, no platform call made. */
  | { state: 'later'; at: Date }
  /** Another holder took the flow (this one's lease lapsed): nothing of this try was recorded. */
  | { state: 'lost' };

type Attempt =
  | { state: 'deposited'; receipt: DepositedFlow }
  | { state: 'failed'; failure: FlowFailure }
  | { state: 'abandoned' }
  | { state: 'later'; at: Date; reason: string }
  | { state: 'lost' };

const platformFailure = (failure: PlatformFailure): FlowFailure => ({
  code: failure.paErrorCode,
  message: failure.message,
  platform: failure,
});

/** The platform's proof that it holds the flow (an accepted acknowledgement or one pending), else null. */
async function heldByPlatform(
  connector: PlatformConnector,
  flow: OutgoingFlow,
  kind: FlowKind,
): Promise<{ ok: true; receipt: DepositedFlow | null } | { ok: false; failure: FlowFailure }> {
  const found = await connector.findDeposit(flow.trackingId, kind.call ?? {});
  if (!found.ok) return { ok: false, failure: platformFailure(found) };
  const held = found.value && found.value.ackStatus !== 'Error' ? found.value : null;
  return { ok: true, receipt: held ? { flowId: held.flowId, reconciled: true } : null };
}

/** The flow ready to go (its lazily made file in it), or why this try ends before the platform. */
async function prepared(
  deps: Deps,
  kind: FlowKind,
  flow: OutgoingFlow,
  connector: PlatformConnector,
): Promise<{ flow: OutgoingFlow } | { attempt: Attempt }> {
  if (!kind.prepare) return { flow };
  const preparation = await kind.prepare(deps, flow, connector);
  if (preparation.state === 'later') return { attempt: preparation };
  if (preparation.state === 'refused') return { attempt: { state: 'failed', failure: preparation.failure } };
  return { flow: preparation.file ? { ...flow, ...preparation.file } : flow };
}

/** One try on the platform: no database work here (the caller records it). */
async function attempt(
  deps: Deps,
  kind: FlowKind,
  queued: OutgoingFlow,
  lapsed: boolean,
  lease?: AbortSignal,
): Promise<Attempt> {
  const scope: Scope = { companyId: queued.companyId, livemode: queued.livemode };
  const connector = await kind.connector(deps, scope, queued);
  if (!connector)
    return {
      state: 'failed',
      failure: {
        code: 'pa_not_configured',
        message: 'The establishment has no platform connection: the flow waits for one.',
        platform: null,
      },
    };
  const ready = await prepared(deps, kind, queued, connector);
  if ('attempt' in ready) return ready.attempt;
  const flow = ready.flow;
  if (flow.tries > 1 || lapsed) {
    const earlier = await heldByPlatform(connector, flow, kind);
    if (!earlier.ok) return { state: 'failed', failure: earlier.failure };
    if (earlier.receipt) return { state: 'deposited', receipt: earlier.receipt };
    if (lapsed && kind.afterLapse === 'abandon') return { state: 'abandoned' };
  }
  // The lease lost meanwhile (its renewal found another holder): that holder deposits it.
  if (lease?.aborted) return { state: 'lost' };
  const processingRule = kind.processingRule?.(flow);
  const profile = kind.flowProfile?.(flow);
  const result = await connector.deposit(
    {
      file: flow.file,
      name: flow.name,
      syntax: flow.syntax,
      trackingId: flow.trackingId,
      ...(processingRule ? { processingRule } : {}),
      ...(profile ? { profile } : {}),
    },
    kind.call ?? {},
  );
  if (result.ok)
    return { state: 'deposited', receipt: { flowId: result.value.flowId, reconciled: result.value.reconciled } };
  if (result.category === 'duplicate') {
    const proof = await heldByPlatform(connector, flow, kind);
    if (proof.ok && proof.receipt) return { state: 'deposited', receipt: proof.receipt };
  }
  return { state: 'failed', failure: platformFailure(result) };
}

/** The flow's row after a try: deposited, ended, or pending again (a backoff, a file not ready). */
function flowChanges(kind: FlowKind, flow: OutgoingFlow, tried: Exclude<Attempt, { state: 'lost' }>, now: Date) {
  if (tried.state === 'deposited')
    return { state: 'deposited' as const, flowId: tried.receipt.flowId, lastError: null };
  if (tried.state === 'abandoned') return { state: 'abandoned' as const };
  if (tried.state === 'later')
    // No platform call was made: the try is not counted (the next one need not search first).
    return { state: 'pending' as const, nextAttemptAt: tried.at, lastError: tried.reason, tries: flow.tries - 1 };
  const lastError = `${tried.failure.code}: ${tried.failure.message}`.slice(0, 500);
  const retryAt = kind.retryAt?.(flow, tried.failure, now) ?? null;
  return retryAt
    ? { state: 'pending' as const, nextAttemptAt: retryAt, lastError }
    : { state: 'failed' as const, lastError };
}

/** A try made and not yet recorded: what its record writes, and on which clock. */
export interface FlowTry {
  kind: FlowKind;
  flow: OutgoingFlow;
  tried: Exclude<Attempt, { state: 'lost' }>;
  changes: ReturnType<typeof flowChanges>;
  now: Date;
}

/** A try's record in the caller's transaction, with its owner's; false when the lease was lost. */
async function recordTry(deps: Deps, tx: Tx, done: FlowTry): Promise<boolean> {
  const { kind, flow, tried, changes, now } = done;
  if (!(await settleFlow(tx, flow, changes, now))) return false;
  if (tried.state === 'deposited') await kind.deposited(deps, tx, flow, tried.receipt, now);
  else if (tried.state === 'failed') await kind.failed(deps, tx, flow, tried.failure, now);
  return true;
}

function outcomeOf(done: FlowTry, recorded: boolean): FlowOutcome {
  const { tried, changes } = done;
  if (!recorded) return { state: 'lost' };
  if (tried.state === 'failed')
    return { ...tried, retryAt: changes.state === 'pending' ? (changes.nextAttemptAt ?? null) : null };
  if (tried.state === 'later') return { state: 'later', at: tried.at };
  return tried;
}

/** Tries a flow its caller holds, on the platform only (nothing recorded): see `deliverFlow`. */
export async function tryFlow(
  deps: Deps,
  kind: FlowKind,
  flow: OutgoingFlow,
  options: { lapsed?: boolean; now?: Date; lease?: AbortSignal } = {},
): Promise<FlowTry | null> {
  const tried = await attempt(deps, kind, flow, options.lapsed ?? false, options.lease);
  if (tried.state === 'lost') return null;
  const now = options.now ?? new Date(deps.clock.now().getTime() + flow.clockOffsetMs);
  return { kind, flow, tried, changes: flowChanges(kind, flow, tried, now), now };
}

/**
 * Tries a flow its caller holds (queued with a lease, or claimed) and records the outcome with
 * the owner's. `lapsed`: the flow was claimed after its holder's lease lapsed; `ctx`: the request
 * that waits on it (its scope and time, its idempotency mark committed with a deposit); `lease`:
 * aborted once the holder's lease is found lost (an outbox worker's renewal).
 */
export async function deliverFlow(
  deps: Deps,
  kind: FlowKind,
  flow: OutgoingFlow,
  options: { lapsed?: boolean; ctx?: CallContext; lease?: AbortSignal } = {},
): Promise<FlowOutcome> {
  const done = await tryFlow(deps, kind, flow, {
    ...(options.lapsed ? { lapsed: true } : {}),
    ...(options.ctx ? { now: options.ctx.now } : {}),
    ...(options.lease ? { lease: options.lease } : {}),
  });
  if (!done) return { state: 'lost' };
  // A request's effect (its idempotency mark) commits with the deposit's record, not with a failure's.
  const ctx = options.ctx && done.tried.state !== 'deposited' ? { ...options.ctx, markEffect: undefined } : options.ctx;
  return outcomeOf(done, await inTransaction(deps.db, ctx ?? null, (tx) => recordTry(deps, tx, done)));
}

/**
 * Tries made together (an outbox worker's flows the platform took within a few milliseconds),
 * recorded in one transaction: one commit for them all. Should that transaction fail (one owner's
 * record refused), each is recorded alone, so one record's failure loses none of the others; a
 * record that fails alone leaves its flow to its lease's lapse and the search by tracking id.
 */
export async function recordTries(deps: Deps, tries: readonly FlowTry[]): Promise<(FlowOutcome | Error)[]> {
  try {
    const recorded = await inTransaction(deps.db, null, async (tx) => {
      const each: boolean[] = [];
      for (const done of tries) each.push(await recordTry(deps, tx, done));
      return each;
    });
    return tries.map((done, index) => outcomeOf(done, recorded[index]!));
  } catch (error) {
    if (tries.length === 1) return [error instanceof Error ? error : new Error(String(error))];
    return Promise.all(
      tries.map(async (done) => {
        try {
          return outcomeOf(done, await inTransaction(deps.db, null, (tx) => recordTry(deps, tx, done)));
        } catch (alone) {
          return alone instanceof Error ? alone : new Error(String(alone));
        }
      }),
    );
  }
}

/** The due flows of these kinds (those whose holder died among them), each tried; how many the platform took. */
export async function deliverDueFlows(
  deps: Deps,
  kinds: readonly FlowKind[],
  options: { companyIds?: readonly string[]; limit?: number } = {},
): Promise<number> {
  const byKind = new Map(kinds.map((kind) => [kind.kind, kind]));
  let deposited = 0;
  for (;;) {
    const flows = await claimDueFlows(
      deps.fast.db,
      { now: deps.clock.now(), limit: options.limit ?? 20, leaseMs: flowLeaseMs, token: randomUUID() },
      [...byKind.keys()],
      options.companyIds,
    );
    if (flows.length === 0) return deposited;
    const outcomes = await Promise.all(
      flows.map((flow) =>
        // Claimed here, a flow tried before was left by a holder that died (or failed and was queued again).
        deliverFlow(deps, byKind.get(flow.kind)!, flow, { lapsed: flow.tries > 1 }).catch((error: unknown) => {
          deps.log.warn(
            { err: error, trackingId: flow.trackingId, kind: flow.kind },
            'platform flow not delivered yet',
          );
          return null;
        }),
      ),
    );
    deposited += outcomes.filter((outcome) => outcome?.state === 'deposited').length;
    if (flows.length < (options.limit ?? 20)) return deposited;
  }
}

/** The pass that takes every due flow of the capabilities' kinds (a node's restart takes back a dead one's). */
export function outboxPass(all: readonly FlowKind[]): PeriodicPass {
  // A kind with a worker of its own (outbox-worker.ts) is delivered by it, woken on commit.
  const kinds = all.filter((kind) => !kind.worker);
  return {
    name: 'platform.outbox',
    everyMs: 15_000,
    followsSandboxClock: true,
    run: (deps, companyIds) => deliverDueFlows(deps, kinds, companyIds ? { companyIds } : {}),
  };
}
