import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
// The outbox: an event and its webhook deliveries are written together.
import { enqueueDeliveries } from '../webhooks/fan-out.js';
import {
  deleteScopeEvents,
  findEvent,
  insertEvents,
  insertEventSql,
  pageEvents,
  type EventFilters,
  type EventRow,
} from './store.js';

/** Events are kept 90 days, or 90 days after their last successful delivery when later. */
export const retentionMs = 90 * 86_400_000;

/** The contract's event envelope. */
export interface Event {
  id: string;
  object: 'event';
  type: string;
  livemode: boolean;
  apiVersion: string;
  created: string;
  data: Record<string, unknown>;
  request: { id: string | null; idempotency_key: string | null } | null;
}

export function toEvent(row: EventRow): Event {
  return {
    id: row.id,
    object: 'event',
    type: row.type,
    livemode: row.livemode,
    apiVersion: row.apiVersion,
    created: row.created.toISOString(),
    data: row.data,
    request: row.request ?? null,
  };
}

/**
 * Records an event inside the caller's transaction (the outbox): the change and its event
 * commit together or not at all. `apiVersion` is the caller's and never changes afterwards.
 */
export async function recordEvent(
  tx: Executor,
  ctx: CallContext,
  type: string,
  data: Record<string, unknown>,
  at: Date,
  options: { onlyEndpoints?: string[] } = {},
): Promise<Event> {
  const row = eventRow(ctx, type, data, at);
  // The event and its deliveries in one statement: most changes record one event, on hot paths.
  await enqueueDeliveries(tx, ctx.scope, type, [row], {
    onlyEndpoints: options.onlyEndpoints,
    alongside: insertEventSql(tx, row),
  });
  return toEvent(row);
}

/**
 * Many events of one type at once (a CSV import's `customer.created`), in a few statements
 * whatever their number: one insert per thousand events, one statement for all their deliveries.
 */
export async function recordEvents(
  tx: Executor,
  ctx: CallContext,
  type: string,
  datas: Record<string, unknown>[],
  at: Date,
): Promise<void> {
  const rows = datas.map((data) => eventRow(ctx, type, data, at));
  for (let start = 0; start < rows.length; start += 1000) {
    const chunk = rows.slice(start, start + 1000);
    await insertEvents(tx, chunk);
    await enqueueDeliveries(tx, ctx.scope, type, chunk);
  }
}

function eventRow(ctx: CallContext, type: string, data: Record<string, unknown>, at: Date): EventRow {
  return {
    id: newId('event', at),
    companyId: ctx.scope.companyId,
    livemode: ctx.scope.livemode,
    type,
    apiVersion: ctx.apiVersion,
    created: at,
    data,
    retainedUntil: new Date(at.getTime() + retentionMs),
    request: ctx.requestId ? { id: ctx.requestId, idempotency_key: ctx.idempotencyKey } : null,
  };
}

export async function getEvent(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<Event> {
  const row = await findEvent(deps.db, scope, id);
  if (!row) throw refuse('not_found', `No event ${id}.`, { param: 'id' });
  return toEvent(row);
}

export async function listEvents(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  filters: EventFilters,
  url: string,
): Promise<ListEnvelope<Event>> {
  const rows = await pageEvents(deps.db, scope, page, filters);
  return toListEnvelope(rows, page, url, (row) => row.id, toEvent);
}

/** Sandbox reset: every test event of the company goes. */
export async function purgeTestEvents(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live events');
  return deleteScopeEvents(tx, scope);
}
