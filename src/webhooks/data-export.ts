import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { eventRowsAfter } from './event-store.js';
import { toEndpoint, toEvent } from './service.js';
import { endpointRowsAfter } from './store.js';

/** What the data-protection export reads of this capability: endpoints (secrets masked) and events. */

export async function endpointRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await endpointRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toEndpoint(row) }));
}

export async function eventRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await eventRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toEvent(row) }));
}
