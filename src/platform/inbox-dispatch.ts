import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { currentVersion } from '../kernel/api-version.js';
import { later } from '../kernel/clock.js';
import {
  failureSummary,
  isUnreadableFlowFailure,
  unreadableFlow,
  type LifecycleEvent,
  type LifecyclePage,
  type PlatformConnector,
  type PlatformFlow,
  type UnreadableFlow,
} from './connector.js';
import type { EventReference, Inbox, StatusHandler } from './inbox.js';
import { eventReceived, receiveEvent, scopeClock } from './inbox-store.js';

/**
 * The inbox's one way from an event to its owner, whether a poll page or a callback brought it:
 * the event's receipt (its stable key) decides whether it is new, then it goes to exactly one
 * owner: an incoming flow to the incoming kind, a status to the capability that owns the flow
 * it reports on (found by its tracking id, else the invoice it names), in the transaction that
 * writes its receipt. A repeat (a poll and a push, a page read again) finds its receipt and stops.
 */

/** The connection an event came by. */
export interface InboxSource {
  scope: Scope;
  establishmentId: string;
  connector: PlatformConnector;
}

type InboxDeps = Pick<Deps, 'db' | 'config' | 'clock' | 'log'>;

const contextOf = (scope: Scope, now: Date): CallContext => ({
  scope,
  requestId: null,
  idempotencyKey: null,
  apiVersion: currentVersion,
  now,
});

const referenceOf = (event: LifecycleEvent): EventReference =>
  event.kind === 'acknowledgement'
    ? { trackingId: event.flow.trackingId, invoiceNumber: null }
    : { trackingId: event.trackingId, invoiceNumber: event.status.invoiceNumber ?? null };

/** The one owner of the flow a reference names: the first capability (list order) that owns it. */
async function ownerOf(
  inbox: Inbox,
  db: Executor,
  scope: Scope,
  reference: EventReference,
): Promise<{ handler: StatusHandler; ownerId: string } | null> {
  for (const handler of inbox.statuses) {
    const ownerId = await handler.ownerOf(db, scope, reference);
    if (ownerId) return { handler, ownerId };
  }
  return null;
}

/** A status applied once to its owner (its receipt in the same transaction); whether it changed anything. */
export async function applyStatusEvent(
  deps: Pick<Deps, 'db'>,
  inbox: Inbox,
  scope: Scope,
  event: LifecycleEvent,
  now: Date,
): Promise<boolean> {
  // An acknowledgement that is no refusal says nothing its deposit's answer did not.
  if (event.kind === 'acknowledgement' && event.flow.ackStatus !== 'Error') return false;
  const ctx = contextOf(scope, now);
  return inTransaction(deps.db, ctx, async (tx) => {
    const owner = await ownerOf(inbox, tx, scope, referenceOf(event));
    if (!(await receiveEvent(tx, scope, event.key, owner?.ownerId ?? null, now))) return false;
    return owner ? owner.handler.apply(tx, ctx, owner.ownerId, event) : false;
  });
}

/**
 * A life-cycle flow the platform gives unreadable for good (a hostile or broken CDAR, a file over
 * the bound, a flow gone): recorded once under its own `unreadable:` key (with its owner when the
 * flow names one), and logged. The reader then moves past it: one such flow never holds back the
 * statuses after it.
 */
export async function recordUnreadableFlow(
  deps: Pick<Deps, 'db' | 'log'>,
  inbox: Inbox,
  source: InboxSource,
  unreadable: UnreadableFlow,
  now: Date,
): Promise<void> {
  const { scope } = source;
  const { flow, failure } = unreadable;
  const recorded = await inTransaction(deps.db, contextOf(scope, now), async (tx) => {
    const owner = await ownerOf(inbox, tx, scope, { trackingId: flow.trackingId, invoiceNumber: null });
    return (await receiveEvent(tx, scope, unreadable.key, owner?.ownerId ?? null, now))
      ? { ownerId: owner?.ownerId ?? null }
      : null;
  });
  if (recorded)
    deps.log.warn(
      {
        companyId: scope.companyId,
        establishmentId: source.establishmentId,
        flowId: flow.flowId,
        ownerId: recorded.ownerId,
        failure: failureSummary(failure),
        errorCode: failure.errorCode?.slice(0, 64) ?? null,
      },
      'platform life-cycle flow unreadable: recorded and skipped',
    );
}

/** The receipt key of an incoming flow: its flow id, however it came (listed, pushed, pushed again). */
export const incomingKey = (flowId: string) => `incoming:${flowId}`;

/**
 * An incoming flow handed to the incoming kind once: not downloaded again when its receipt (or
 * its owner's record) exists. A passing download failure throws (the next poll reads it again);
 * a permanent one (over the bound, gone) is handed on as not taken, for it would otherwise hold
 * the cursor forever. Whether it made a record now.
 */
export async function takeIncoming(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  inbox: Inbox,
  source: InboxSource,
  flow: PlatformFlow,
): Promise<boolean> {
  const incoming = inbox.incoming;
  if (!incoming) return false;
  const { scope } = source;
  const key = incomingKey(flow.flowId);
  if ((await eventReceived(deps.db, scope, key)) || (await incoming.known(deps, scope, flow.flowId))) return false;
  const download = await source.connector.downloadFlow(flow.flowId, { retryBudgetMs: 0 });
  if (!download.ok && !isUnreadableFlowFailure(download))
    throw new Error(`the platform did not give flow ${flow.flowId}: ${download.message}`);
  const taken = await incoming.take(
    deps,
    scope,
    source.establishmentId,
    flow,
    download.ok
      ? { bytes: download.value }
      : { notTaken: `the platform's file could not be taken: ${download.message}` },
  );
  await receiveEvent(deps.db, scope, key, taken.ownerId, await scopeClock(deps.db, scope, deps.clock.now()));
  return taken.created;
}

/** Whether an event is an incoming flow's (its acknowledgement carries the flow the incoming kind takes). */
const incomingFlowOf = (inbox: Inbox, event: LifecycleEvent): PlatformFlow | null =>
  event.kind === 'acknowledgement' && inbox.incoming?.takes(event.flow) ? event.flow : null;

/** A page the reader read, handed on event by event; how many made or changed something. */
export async function handlePage(
  deps: InboxDeps,
  inbox: Inbox,
  source: InboxSource,
  page: Pick<LifecyclePage, 'events' | 'unreadable'>,
): Promise<number> {
  const now = await scopeClock(deps.db, source.scope, deps.clock.now());
  let handled = 0;
  // Each event a millisecond after the one before: the events they emit keep the platform's order.
  for (const [index, event] of page.events.entries()) {
    const incoming = incomingFlowOf(inbox, event);
    const done = incoming
      ? await takeIncoming(deps, inbox, source, incoming)
      : await applyStatusEvent(deps, inbox, source.scope, event, later(now, index));
    if (done) handled += 1;
  }
  for (const unreadable of page.unreadable) await recordUnreadableFlow(deps, inbox, source, unreadable, now);
  return handled;
}

export interface PushedFlowOutcome {
  /** The statuses it carried that changed their owner. */
  applied: number;
  /** An incoming flow's taking, handed back unawaited: the platform gets its answer at once. */
  taken: Promise<boolean> | null;
}

/**
 * A flow the platform pushed (its callback checked): an incoming flow taken in the background (a
 * taking that fails is caught by the next poll), a life-cycle flow's statuses read and applied.
 */
export async function handlePushedFlow(
  deps: InboxDeps,
  inbox: Inbox,
  source: InboxSource,
  flow: PlatformFlow,
): Promise<PushedFlowOutcome> {
  if (inbox.incoming?.takes(flow)) {
    const taken = takeIncoming(deps, inbox, source, flow);
    taken.catch((error: unknown) =>
      deps.log.warn(
        { err: error, companyId: source.scope.companyId, establishmentId: source.establishmentId, flowId: flow.flowId },
        'incoming flow of a callback not taken; polling will',
      ),
    );
    return { applied: 0, taken };
  }
  const events = await source.connector.eventsOfFlow(flow, { retryBudgetMs: 0 });
  if (!events.ok && isUnreadableFlowFailure(events)) {
    // Pushed again, it would be as unreadable: recorded as the poll records it, and taken.
    const now = await scopeClock(deps.db, source.scope, deps.clock.now());
    await recordUnreadableFlow(deps, inbox, source, unreadableFlow(flow, events), now);
    return { applied: 0, taken: null };
  }
  if (!events.ok) throw new Error(`the platform did not give flow ${flow.flowId}: ${events.message}`);
  return { applied: await handlePage(deps, inbox, source, { events: events.value, unreadable: [] }), taken: null };
}
