import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { newId } from '../kernel/ids.js';
import { insertDeliveries, subscribedEndpointIds } from './store.js';

/**
 * Creates, in the event's own transaction, one pending delivery per enabled endpoint of the
 * scope subscribed to the event type (or only for `onlyEndpoints`, as a ping does). The rows are
 * the jobs: nothing is lost if the process dies right after the commit.
 */
export async function enqueueDeliveries(tx: Executor, scope: Scope, event: { id: string; type: string; created: Date }, onlyEndpoints?: string[]): Promise<number> {
  const endpointIds = onlyEndpoints ?? (await subscribedEndpointIds(tx, scope, event.type));
  await insertDeliveries(tx, endpointIds.map((endpointId) => ({
    ...scope,
    id: newId('delivery', event.created),
    eventId: event.id,
    endpointId,
    generation: 1,
    state: 'pending',
    attemptCount: 0,
    nextAttemptAt: event.created,
    lockedUntil: null,
    lockToken: null,
    created: event.created,
    updated: event.created,
  })));
  return endpointIds.length;
}
