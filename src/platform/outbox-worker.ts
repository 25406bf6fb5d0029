import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import { createClaimLoop, type ClaimLoop } from '../workers/claim-loop.js';
import type { FlowKind, OutgoingFlow } from './flows.js';
import { recordTries, tryFlow, type FlowOutcome, type FlowTry } from './outbox.js';
import { claimDueFlows, flowsChannel, renewFlows } from './flow-store.js';

/**
 * The outbox's worker, for the kinds whose client waits to see the flow deposited (a kind's
 * `worker`): woken when a transaction that queued a flow commits (and every `pollMs`), it leases
 * due flows, keeps their leases short by renewing them while they are in hand (a dead node's
 * flows come back within `leaseMs`), and tries each through the outbox's one way (`deliverFlow`):
 * a flow tried before is searched by its tracking id first. The periodic pass leaves these kinds
 * to it.
 */

/** Renewed every third of it while held: a lapsed lease means its holder died. */
export const outboxWorkerLeaseMs = 30_000;

export interface OutboxWorkerOptions {
  /** Only these companies' flows (tests). */
  companyIds?: readonly string[];
  /** How long a flow is leased, and renewed (ms; tests shorten it). */
  leaseMs?: number;
  /** How often the worker looks without a notification (ms, default 1000). */
  pollMs?: number;
  /** How long a deposit the platform took waits for others to be recorded with (ms, default 15; 0: alone). */
  recordWindowMs?: number;
  /** Test seam: each try's outcome, once recorded. */
  onOutcome?: (flow: OutgoingFlow, outcome: FlowOutcome) => void;
}

export interface OutboxWorker extends ClaimLoop {
  /** Claims up to `limit` due flows now, leased to this worker (tests drive it to simulate a crash). */
  claim(limit?: number): Promise<OutgoingFlow[]>;
  /** Tries one claimed flow and records it (tests). */
  handle(flow: OutgoingFlow, lease?: AbortSignal): Promise<FlowOutcome | null>;
}

/** Default window in which deposits the platform took are recorded together (one commit). */
export const recordWindowMs = 15;

/**
 * The tries the platform took within a short window (or as many as the worker holds at once),
 * recorded in one transaction: a commit per deposit was most of a deposit's database time.
 */
function createRecordBatch(deps: Deps, windowMs: number, most: number) {
  let waiting: { done: FlowTry; settle: (outcome: FlowOutcome | Error) => void }[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    void recordTries(
      deps,
      batch.map((entry) => entry.done),
    ).then(
      (outcomes) => batch.forEach((entry, index) => entry.settle(outcomes[index]!)),
      (error: unknown) =>
        batch.forEach((entry) => entry.settle(error instanceof Error ? error : new Error(String(error)))),
    );
  };
  return {
    record(done: FlowTry): Promise<FlowOutcome | Error> {
      return new Promise((settle) => {
        waiting.push({ done, settle });
        if (waiting.length >= most || windowMs <= 0) flush();
        else timer ??= setTimeout(flush, windowMs);
      });
    },
  };
}

export function createOutboxWorker(
  deps: Deps,
  kinds: readonly FlowKind[],
  options: OutboxWorkerOptions = {},
): OutboxWorker {
  const byKind = new Map(kinds.map((kind) => [kind.kind, kind]));
  const leaseMs = options.leaseMs ?? outboxWorkerLeaseMs;
  const concurrency = Math.max(1, ...kinds.map((kind) => kind.worker?.concurrency ?? 1));
  const prefetch = Math.max(0, ...kinds.map((kind) => kind.worker?.prefetch ?? 0));
  const refills = kinds.flatMap((kind) => (kind.worker?.refillAt === undefined ? [] : [kind.worker.refillAt]));

  const batch = createRecordBatch(deps, options.recordWindowMs ?? recordWindowMs, concurrency);

  const claim = (limit = 10) =>
    // A lease, not a result (the fast pool): lost, the flow is merely free again.
    claimDueFlows(
      deps.fast.db,
      { now: deps.clock.now(), limit, leaseMs, token: randomUUID() },
      [...byKind.keys()],
      options.companyIds,
    );

  async function handle(flow: OutgoingFlow, lease?: AbortSignal): Promise<FlowOutcome | null> {
    const kind = byKind.get(flow.kind);
    if (!kind) return null;
    try {
      // Claimed here, a flow tried before was left by a holder that died (or backed off).
      const done = await tryFlow(deps, kind, flow, { lapsed: flow.tries > 1, ...(lease ? { lease } : {}) });
      if (!done) return { state: 'lost' };
      // Only the platform's acceptances wait for company: a failure is recorded at once.
      const outcome =
        done.tried.state === 'deposited' ? await batch.record(done) : (await recordTries(deps, [done]))[0]!;
      if (outcome instanceof Error) throw outcome;
      options.onOutcome?.(flow, outcome);
      return outcome;
    } catch (error) {
      // Nothing recorded: the lease lapses and the flow is tried again (searched first).
      deps.log.warn({ err: error, trackingId: flow.trackingId, kind: flow.kind }, 'platform flow not delivered yet');
      return null;
    }
  }

  const loop = createClaimLoop<OutgoingFlow>({
    pool: deps.pool,
    channel: flowsChannel,
    log: deps.log,
    concurrency,
    prefetch,
    ...(refills.length > 0 ? { refillAt: Math.max(...refills) } : {}),
    pollMs: options.pollMs ?? 1000,
    claim,
    handle: async (flow, lease) => void (await handle(flow, lease)),
    lease: { leaseMs, renew: (flows) => renewFlows(deps.fast.db, flows, { now: deps.clock.now(), leaseMs }) },
    describe: (flow) => ({ trackingId: flow.trackingId, kind: flow.kind }),
  });
  return { ...loop, claim, handle };
}
