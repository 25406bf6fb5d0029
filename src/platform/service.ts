import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { OutgoingFlow } from './flows.js';
import {
  endFlow,
  flowOfTracking,
  latestFlowOf,
  pendingFlowOf,
  queueFlow,
  rescheduleFlow,
  withdrawOwnerFlows,
  type QueuedFlowInput,
} from './flow-store.js';
import { receiveEvent } from './inbox-store.js';

/**
 * What the capabilities do with the exchange (their flows' kinds are in their descriptors):
 * queue a flow in the transaction of the change that needs it, see whether one is under way,
 * and deliver flows through the outbox's one way to the platform.
 */

export { deliverFlow, deliverDueFlows, flowLeaseMs, outboxPass, type FlowOutcome } from './outbox.js';
export {
  createOutboxWorker,
  outboxWorkerLeaseMs,
  type OutboxWorker,
  type OutboxWorkerOptions,
} from './outbox-worker.js';
export type { QueuedFlowInput } from './flow-store.js';
// The inbox: one reader, one subscription, one cursor and one callback per connection (inbox.ts).
export { inboxPass, pollInbox, inboxCallbackUrl, type InboxPollOptions } from './inbox-reader.js';

/**
 * A flow to send, queued in the caller's transaction (due at once); with `lease`, the caller
 * makes its first try itself, outside the transaction (`deliverFlow`). Null when the tracking id
 * is already queued and under way, or deposited.
 */
export function queuePlatformFlow(
  tx: Executor,
  scope: Scope,
  input: QueuedFlowInput,
  now: Date,
  lease: { token: string; until: Date } | null = null,
): Promise<OutgoingFlow | null> {
  return queueFlow(tx, scope, input, now, lease);
}

/**
 * The owner's pending flows of this kind taken back, in the caller's transaction (a newer one
 * replaces them): a holder still trying one records nothing. Returns their tracking ids.
 */
export function withdrawPlatformFlows(
  tx: Executor,
  scope: Scope,
  kind: string,
  ownerId: string,
  now: Date,
): Promise<string[]> {
  return withdrawOwnerFlows(tx, scope, kind, ownerId, now);
}

/** The flow of a tracking id, whatever its state (an event of the inbox names it). */
export function platformFlowOf(db: Executor, scope: Scope, trackingId: string): Promise<OutgoingFlow | undefined> {
  return flowOfTracking(db, scope, trackingId);
}

/** The owner's latest flow of this kind, whatever its state (its current attempt). */
export function latestPlatformFlow(
  db: Executor,
  scope: Scope,
  kind: string,
  ownerId: string,
): Promise<OutgoingFlow | undefined> {
  return latestFlowOf(db, scope, kind, ownerId);
}

/**
 * A flow due again at `at`, in the caller's transaction (the platform's word read by the inbox
 * leaves its owner more to do with it); a holder trying it meanwhile records nothing.
 */
export function reschedulePlatformFlow(
  tx: Executor,
  scope: Scope,
  trackingId: string,
  at: Date,
  now: Date,
  /** The platform's id of the flow, when its word names it (an acknowledgement). */
  flowId?: string,
): Promise<boolean> {
  return rescheduleFlow(tx, scope, trackingId, at, now, flowId);
}

/**
 * A flow ended by the platform's word read by the inbox (an acknowledgement `Error`: `failed`;
 * its receipt: `deposited`), in the caller's transaction; a holder trying it records nothing.
 */
export function endPlatformFlow(
  tx: Executor,
  scope: Scope,
  trackingId: string,
  end: { state: 'failed'; lastError: string; flowId?: string } | { state: 'deposited'; flowId: string },
  now: Date,
): Promise<boolean> {
  return endFlow(tx, scope, trackingId, end, now);
}

/** The owner's flow of this kind on its way to the platform (queued, not yet recorded), if any. */
export function flowUnderWay(
  db: Executor,
  scope: Scope,
  kind: string,
  ownerId: string,
): Promise<OutgoingFlow | undefined> {
  return pendingFlowOf(db, scope, kind, ownerId);
}

/**
 * An event's receipt, in the caller's transaction: true the first time its key is seen in the
 * scope (to be applied now, by the caller), false for a repeat. The inbox writes its own; the
 * sandbox's statuses, applied in the simulate route's transaction, write theirs here.
 */
export function receiveInboxEvent(
  tx: Executor,
  scope: Scope,
  eventKey: string,
  ownerId: string | null,
  now: Date,
): Promise<boolean> {
  return receiveEvent(tx, scope, eventKey, ownerId, now);
}
