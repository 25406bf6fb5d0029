import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { OutgoingFlow } from './flows.js';
import { pendingFlowOf, queueFlow, type QueuedFlowInput } from './flow-store.js';
import { receiveEvent } from './inbox-store.js';

/**
 * What the capabilities do with the exchange (their flows' kinds are in their descriptors):
 * queue a flow in the transaction of the change that needs it, see whether one is under way,
 * and deliver flows through the outbox's one way to the platform.
 */

export { deliverFlow, deliverDueFlows, flowLeaseMs, outboxPass, type FlowOutcome } from './outbox.js';
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
