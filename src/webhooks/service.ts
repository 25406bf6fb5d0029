import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { plans, type PlanName } from '../kernel/plans.js';
// The outbox: an event and its webhook deliveries are written together.
import { enqueueDeliveries, insertEventWithDeliveries } from './fan-out.js';
import {
  deleteScopeEvents,
  findEvent,
  insertEvents,
  insertEventSql,
  pageEvents,
  type EventFilters,
  type EventRow,
} from './event-store.js';
import { isEventType } from './event-types.js';
import { checkEndpointUrl } from './endpoint-url.js';
import {
  generateEndpointSecret,
  maskSecret,
  openEndpointSecret,
  sealEndpointSecret,
  secretHintOf,
} from './endpoint-secret.js';
import { summarizeDeliveries, type DeliverySummary } from './delivery-summary.js';
import {
  attemptsOfEvent,
  countEndpoints,
  deliveriesOfEvent,
  findEndpoint,
  insertDeliveries,
  insertEndpoint,
  latestDeliveries,
  deleteExpiredEvents,
  deleteScopeDeliveries,
  deliveredFilter,
  deliveryChannel,
  dueDeliveryStats,
  pageEndpoints,
  updateEndpoint,
  type EndpointRow,
} from './store.js';
import type { Executor } from '../db/database.js';

// Events: the outbox every capability writes in its own transaction.

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
  if (options.onlyEndpoints)
    await enqueueDeliveries(tx, ctx.scope, type, [row], {
      onlyEndpoints: options.onlyEndpoints,
      alongside: insertEventSql(tx, row),
    });
  else await insertEventWithDeliveries(tx, row);
  return toEvent(row);
}

/**
 * Sets `data.<field>` of an event recorded earlier in the transaction, as a statement to embed
 * (a data-modifying CTE returning the event's id): a value computed by the same statement (a
 * document's number) enters its event without another round trip.
 */
export function setEventDataStatement(scope: Scope, eventId: string, field: string, value: SQL): SQL {
  return sql`update events set data = jsonb_set(events.data, ${`{${field}}`}, to_jsonb(${value}))
      where events.company_id = ${scope.companyId} and events.livemode = ${scope.livemode} and events.id = ${eventId}
      returning events.id`;
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

// Endpoints and deliveries.

/** A secret rotation keeps the old secret signing this long. */
const rotationOverlapMs = 24 * 3_600_000;
const maxEvents = 100;

export interface WebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  livemode: boolean;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  secret: string;
  created: string;
  updated: string;
}

/** The secret is in clear only in the answers to creation and rotation (`revealedSecret`); else masked. */
export function toEndpoint(row: EndpointRow, revealedSecret?: string): WebhookEndpoint {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    livemode: row.livemode,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status as WebhookEndpoint['status'],
    disabledReason: row.disabledReason,
    secret: revealedSecret ?? maskSecret(row.secretHint),
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

function checkEvents(types: string[]): string[] {
  if (types.length === 0)
    throw refuse('validation_error', 'Subscribe to at least one event type, or to "*" for all.', { param: 'events' });
  if (types.length > maxEvents)
    throw refuse('validation_error', `At most ${maxEvents} event types.`, { param: 'events' });
  types.forEach((type, index) => {
    if (type !== '*' && !isEventType(type))
      throw refuse('validation_error', `"${type}" is not an event type.`, { param: `events[${index}]` });
  });
  return [...new Set(types)];
}

function urlPolicy(deps: Pick<Deps, 'resolveHost' | 'config'>) {
  return { resolve: deps.resolveHost, allowPrivate: deps.config.allowPrivateWebhooks };
}

export interface NewEndpoint {
  url: string;
  events?: string[];
  description?: string;
}

export async function createEndpoint(
  deps: Deps,
  ctx: CallContext,
  plan: PlanName,
  input: NewEndpoint,
): Promise<WebhookEndpoint> {
  const url = await checkEndpointUrl(input.url, urlPolicy(deps));
  const types = checkEvents(input.events ?? ['*']);
  return inTransaction(deps.db, ctx, async (tx) => {
    // Serializes creations of one company so two concurrent ones cannot pass the plan limit together.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`webhook_endpoints:${ctx.scope.companyId}:${ctx.scope.livemode}`}))`,
    );
    const limit = plans[plan].webhookEndpoints;
    if ((await countEndpoints(tx, ctx.scope)) >= limit) {
      throw new ApiError('plan_limit_error', {
        values: { plan },
        hint: `The ${plan} plan allows ${limit} webhook endpoint(s) per environment; delete one or upgrade.`,
      });
    }
    const id = newId('webhookEndpoint', ctx.now);
    const secret = generateEndpointSecret();
    const row: EndpointRow = {
      ...ctx.scope,
      id,
      url,
      description: input.description ?? null,
      events: types,
      secret: sealEndpointSecret(deps.config, { companyId: ctx.scope.companyId, id }, 'secret', secret),
      secretHint: secretHintOf(secret),
      previousSecret: null,
      previousSecretExpiresAt: null,
      status: 'enabled',
      disabledReason: null,
      failingSince: null,
      lastAlertAt: null,
      created: ctx.now,
      updated: ctx.now,
      deletedAt: null,
    };
    await insertEndpoint(tx, row);
    return toEndpoint(row, secret);
  });
}

function endpointNotFound(id: string): ApiError {
  return refuse('not_found', `No webhook endpoint ${id}.`, { param: 'id' });
}

/** The scope's webhook endpoints (deleted ones aside), against the plan's limit. */
export async function countWebhookEndpoints(deps: Pick<Deps, 'db'>, scope: Scope): Promise<number> {
  return countEndpoints(deps.db, scope);
}

export async function getEndpoint(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<WebhookEndpoint> {
  const row = await findEndpoint(deps.db, scope, id);
  if (!row) throw endpointNotFound(id);
  return toEndpoint(row);
}

export async function listEndpoints(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
): Promise<ListEnvelope<WebhookEndpoint>> {
  const rows = await pageEndpoints(deps.db, scope, page);
  return toListEnvelope(
    rows,
    page,
    '/v1/webhook-endpoints',
    (row) => row.id,
    (row) => toEndpoint(row),
  );
}

export interface EndpointUpdate {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: 'enabled' | 'disabled';
}

export async function updateEndpointSettings(
  deps: Deps,
  ctx: CallContext,
  id: string,
  input: EndpointUpdate,
): Promise<WebhookEndpoint> {
  const changes: Partial<EndpointRow> = { updated: ctx.now };
  if (input.url !== undefined) changes.url = await checkEndpointUrl(input.url, urlPolicy(deps));
  if (input.events !== undefined) changes.events = checkEvents(input.events);
  if (input.description !== undefined) changes.description = input.description;
  if (input.status !== undefined) {
    changes.status = input.status;
    // Enabling again starts a new run: the three-day count and the reason are cleared.
    if (input.status === 'enabled') Object.assign(changes, { disabledReason: null, failingSince: null });
    else changes.disabledReason = 'disabled by the account holder';
  }
  const row = await inTransaction(deps.db, ctx, (tx) => updateEndpoint(tx, ctx.scope, id, changes));
  if (!row) throw endpointNotFound(id);
  return toEndpoint(row);
}

/** Deletion keeps the row (its deliveries' history refers to it); pending deliveries to it end unsent. */
export async function deleteEndpoint(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
  const row = await inTransaction(deps.db, ctx, (tx) =>
    updateEndpoint(tx, ctx.scope, id, { deletedAt: ctx.now, status: 'disabled', updated: ctx.now }),
  );
  if (!row) throw endpointNotFound(id);
  return { id, object: 'webhook_endpoint', deleted: true };
}

export async function rotateSecret(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  ctx: CallContext,
  id: string,
): Promise<WebhookEndpoint> {
  const secret = generateEndpointSecret();
  const row = await inTransaction(deps.db, ctx, async (tx) => {
    const current = await findEndpoint(tx, ctx.scope, id, true);
    if (!current) throw endpointNotFound(id);
    // The old secret is sealed again for the previous slot: a sealed value opens only where it was sealed.
    const previous = openEndpointSecret(deps.config, current, 'secret', current.secret);
    return updateEndpoint(tx, ctx.scope, id, {
      secret: sealEndpointSecret(deps.config, current, 'secret', secret),
      secretHint: secretHintOf(secret),
      previousSecret: sealEndpointSecret(deps.config, current, 'previousSecret', previous),
      // Real time: signatures are checked against the receiver's clock, not the sandbox's.
      previousSecretExpiresAt: new Date(deps.clock.now().getTime() + rotationOverlapMs),
      updated: ctx.now,
    });
  });
  return toEndpoint(row!, secret);
}

/** A `ping` event, recorded and delivered like any other, to this endpoint alone. */
export async function pingEndpoint(deps: Pick<Deps, 'db'>, ctx: CallContext, id: string): Promise<EventWithDeliveries> {
  const event = await inTransaction(deps.db, ctx, async (tx) => {
    const endpoint = await findEndpoint(tx, ctx.scope, id);
    if (!endpoint) throw endpointNotFound(id);
    if (endpoint.status !== 'enabled')
      throw new ApiError('endpoint_not_subscribed', { values: { id, type: 'ping' }, param: 'id' });
    return recordEvent(tx, ctx, 'ping', { id: endpoint.id, object: 'webhook_endpoint', url: endpoint.url }, ctx.now, {
      onlyEndpoints: [endpoint.id],
    });
  });
  return withDeliveries(deps, ctx.scope, event);
}

export type EventWithDeliveries = Event & DeliverySummary;

export async function withDeliveries(deps: Pick<Deps, 'db'>, scope: Scope, event: Event): Promise<EventWithDeliveries> {
  const [deliveries, attempts] = await Promise.all([
    deliveriesOfEvent(deps.db, scope, event.id),
    attemptsOfEvent(deps.db, scope, event.id),
  ]);
  return { ...event, ...summarizeDeliveries(deliveries, attempts) };
}

export async function getEventWithDeliveries(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  id: string,
): Promise<EventWithDeliveries> {
  return withDeliveries(deps, scope, await getEvent(deps, scope, id));
}

/**
 * Replays an event. Without `endpointId`: to every enabled endpoint whose latest delivery failed
 * (attempts exhausted). With it: to that endpoint alone, even if delivered. Each replay is a new
 * generation with its own five attempts; earlier generations stay in the history.
 */
export async function retryEvent(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  eventId: string,
  endpointId: string | undefined,
): Promise<EventWithDeliveries> {
  const event = await getEvent(deps, ctx.scope, eventId);
  await inTransaction(deps.db, ctx, async (tx) => {
    // Replays of one event go one after the other: each reads the generations the one before made.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`event-replay:${ctx.scope.companyId}:${ctx.scope.livemode}:${eventId}`}))`,
    );
    const latest = await latestDeliveries(tx, ctx.scope, eventId);
    let targets: { endpointId: string; generation: number }[];
    if (endpointId !== undefined) {
      const endpoint = await findEndpoint(tx, ctx.scope, endpointId);
      const previous = latest.find((d) => d.endpointId === endpointId);
      const subscribed =
        endpoint && (endpoint.events.includes(event.type) || endpoint.events.includes('*') || previous !== undefined);
      if (!endpoint || endpoint.status !== 'enabled' || !subscribed) {
        throw new ApiError('endpoint_not_subscribed', {
          values: { id: endpointId, type: event.type },
          param: 'endpointId',
        });
      }
      targets = [{ endpointId, generation: (previous?.generation ?? 0) + 1 }];
    } else {
      const failed = latest.filter((d) => d.state === 'failed');
      const enabled = await Promise.all(
        failed.map(async (d) => ((await findEndpoint(tx, ctx.scope, d.endpointId))?.status === 'enabled' ? d : null)),
      );
      targets = enabled
        .filter((d) => d !== null)
        .map((d) => ({ endpointId: d.endpointId, generation: d.generation + 1 }));
    }
    await insertDeliveries(
      tx,
      targets.map((target) => ({
        ...ctx.scope,
        id: newId('delivery', ctx.now),
        eventId,
        endpointId: target.endpointId,
        generation: target.generation,
        state: 'pending',
        attemptCount: 0,
        nextAttemptAt: ctx.now,
        lockedUntil: null,
        lockToken: null,
        created: ctx.now,
        updated: ctx.now,
      })),
    );
  });
  return getEventWithDeliveries(deps, ctx.scope, eventId);
}

export interface EventListFilters {
  type?: string | undefined;
  /** true: every endpoint's latest delivery succeeded; false: some did not, or none was made. */
  delivered?: boolean | undefined;
}

export async function listEventsByDelivery(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  filters: EventListFilters,
): Promise<ListEnvelope<Event>> {
  return listEvents(
    deps,
    scope,
    page,
    { type: filters.type, where: filters.delivered === undefined ? undefined : deliveredFilter(filters.delivered) },
    '/v1/events',
  );
}

/** Sandbox reset: the deliveries of purged events go; endpoints are configuration and stay. */
export async function purgeTestDeliveries(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live deliveries');
  return deleteScopeDeliveries(tx, scope);
}

/** Wakes the delivery workers (after the sandbox clock moved, retries may be due). */
export async function wakeDeliveryWorkers(deps: Pick<Deps, 'db'>): Promise<void> {
  await deps.db.execute(sql`select pg_notify(${deliveryChannel}, '')`);
}

/**
 * Events are kept 90 days after creation, or after their last successful delivery when that is
 * later (`retained_until`, pushed at each success); then they go with their deliveries.
 */
export async function purgeExpiredEvents(deps: Pick<Deps, 'db'>, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteExpiredEvents(deps.db, now, 5000);
    total += deleted;
    if (deleted < 5000) return total;
  }
}

/** The signing secret in clear, for the dashboard once the user has entered the password again. */
export async function revealEndpointSecret(
  deps: Pick<Deps, 'db' | 'config'>,
  scope: Scope,
  id: string,
): Promise<string> {
  const row = await findEndpoint(deps.db, scope, id);
  if (!row) throw endpointNotFound(id);
  return openEndpointSecret(deps.config, row, 'secret', row.secret);
}

/** What waits in the delivery queue now: the count of due deliveries and the oldest one's wait (metrics). */
export async function deliveryQueueStats(
  deps: Pick<Deps, 'db' | 'clock'>,
): Promise<{ due: number; oldestSeconds: number }> {
  return dueDeliveryStats(deps.db, deps.clock.now());
}
