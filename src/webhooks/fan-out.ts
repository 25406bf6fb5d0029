import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { statementTemplate } from '../db/prepared-statement.js';
import { notifyOnCommit } from '../db/commit-notice.js';
import type { Scope } from '../db/scope.js';
import { deliveryChannel } from './store.js';
import { events, webhookDeliveries, webhookEndpoints } from './schema.js';
import type { EventRow } from './event-store.js';

/**
 * A delivery id in SQL, in the format of `newId('delivery')`: `del_`, the event's ten characters
 * of creation time (ids sort by time), then sixteen random characters (hex digits belong to the
 * ids' base32 alphabet).
 */
function deliveryIdSql(eventId: SQL, endpointId: SQLWrapper): SQL {
  return sql`'del_' || substr(${eventId}, 5, 10) || substr(md5(random()::text || ${endpointId} || ${eventId}), 1, 16)`;
}

/**
 * The insert of a pending delivery of each event (`ids` and their creation `times`, SQL arrays)
 * for each enabled endpoint of the scope that `targets` selects, after `alongside` (the events'
 * own insert, one round trip for both); returns how many were created.
 */
function deliveriesStatement(
  scope: { companyId: SQLWrapper | string; livemode: SQLWrapper | boolean },
  targets: SQL,
  ids: SQL,
  times: SQL,
  alongside: SQL | undefined,
): SQL {
  const e = webhookEndpoints;
  return sql`
    with ${alongside ? sql`alongside as (${alongside}), ` : sql``}created as (
      insert into ${webhookDeliveries} (company_id, livemode, id, event_id, endpoint_id, generation, state, attempt_count, next_attempt_at, created, updated)
      select ${e.companyId}, ${e.livemode}, ${deliveryIdSql(sql`ev.id`, e.id)}, ev.id, ${e.id}, 1, 'pending', 0, ev.at, ev.at, ev.at
      from ${e} cross join unnest(${ids}, ${times}) as ev(id, at)
      where ${e.companyId} = ${scope.companyId} and ${e.livemode} = ${scope.livemode} and ${e.deletedAt} is null and ${e.status} = 'enabled' and ${targets}
      returning 1)
    select count(*)::int as created from created`;
}

const subscribedTo = (type: SQLWrapper | string) =>
  sql`(${webhookEndpoints.events} @> array[${type}]::text[] or ${webhookEndpoints.events} @> array['*']::text[])`;

/**
 * Creates, in the events' own transaction and in one statement, a pending delivery of each event
 * (all of one type) for each enabled endpoint of the scope subscribed to that type (or for
 * `onlyEndpoints`, as a ping does), and wakes the workers after the commit when there is any. The rows are the
 * jobs: nothing is lost if the process dies right after the commit. `alongside`, a data-modifying
 * statement (the events' own insert), runs in the same statement: one round trip for both.
 */
export async function enqueueDeliveries(
  tx: Executor,
  scope: Scope,
  type: string,
  events: { id: string; created: Date }[],
  options: { onlyEndpoints?: string[] | undefined; alongside?: SQL } = {},
): Promise<void> {
  const { onlyEndpoints, alongside } = options;
  if (events.length === 0) return;
  const targets = onlyEndpoints
    ? sql`${webhookEndpoints.id} = any(${sql`array[${sql.join(
        onlyEndpoints.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]`})`
    : subscribedTo(type);
  const ids = sql`array[${sql.join(
    events.map((event) => sql`${event.id}`),
    sql`, `,
  )}]::text[]`;
  const times = sql`array[${sql.join(
    events.map((event) => sql`${event.created.toISOString()}`),
    sql`, `,
  )}]::timestamptz[]`;
  const result = await tx.execute(deliveriesStatement(scope, targets, ids, times, alongside));
  if (Number(result.rows[0]?.created) > 0) await notifyOnCommit(tx, deliveryChannel);
}

const value = sql.placeholder;

/**
 * One event inserted and its deliveries created, for every subscribed endpoint: what a use case
 * records on its hot path, built once (`statementTemplate`), prepared.
 */
const oneEventStatement = statementTemplate<{
  companyId: string;
  livemode: boolean;
  id: string;
  type: string;
  apiVersion: string;
  created: Date;
  at: string;
  data: Record<string, unknown>;
  retainedUntil: Date;
  request: EventRow['request'];
}>((db) =>
  deliveriesStatement(
    { companyId: value('companyId'), livemode: value('livemode') },
    subscribedTo(value('type')),
    sql`array[${value('id')}]::text[]`,
    sql`array[${value('at')}]::timestamptz[]`,
    db
      .insert(events)
      .values({
        companyId: value('companyId'),
        livemode: value('livemode'),
        id: value('id'),
        type: value('type'),
        apiVersion: value('apiVersion'),
        created: value('created'),
        data: value('data'),
        retainedUntil: value('retainedUntil'),
        request: value('request'),
      })
      .getSQL(),
  ),
);

/** Inserts `row` and creates its pending deliveries in one statement; wakes the workers after the commit when there is any. */
export async function insertEventWithDeliveries(tx: Executor, row: EventRow): Promise<void> {
  const result = await oneEventStatement(tx, {
    companyId: row.companyId,
    livemode: row.livemode,
    id: row.id,
    type: row.type,
    apiVersion: row.apiVersion,
    created: row.created,
    at: row.created.toISOString(),
    data: row.data,
    retainedUntil: row.retainedUntil,
    request: row.request,
  });
  if (Number(result.rows[0]?.created) > 0) await notifyOnCommit(tx, deliveryChannel);
}
