import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { executePrepared } from '../db/prepared-statement.js';
import { notifyOnCommit } from '../db/commit-notice.js';
import type { Scope } from '../db/scope.js';
import { deliveryChannel } from './store.js';
import { webhookDeliveries, webhookEndpoints } from './schema.js';

/**
 * A delivery id in SQL, in the format of `newId('delivery')`: `del_`, the event's ten characters
 * of creation time (ids sort by time), then sixteen random characters (hex digits belong to the
 * ids' base32 alphabet).
 */
function deliveryIdSql(eventId: SQL, endpointId: SQLWrapper): SQL {
  return sql`'del_' || substr(${eventId}, 5, 10) || substr(md5(random()::text || ${endpointId} || ${eventId}), 1, 16)`;
}

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
  const e = webhookEndpoints;
  const targets = onlyEndpoints
    ? sql`${e.id} = any(${sql`array[${sql.join(
        onlyEndpoints.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]`})`
    : sql`(${e.events} @> array[${type}]::text[] or ${e.events} @> array['*']::text[])`;
  const ids = sql`array[${sql.join(
    events.map((event) => sql`${event.id}`),
    sql`, `,
  )}]::text[]`;
  const times = sql`array[${sql.join(
    events.map((event) => sql`${event.created.toISOString()}`),
    sql`, `,
  )}]::timestamptz[]`;
  // One event (a use case's own) is the hot path: prepared, its text is always the same.
  const statement = sql`
    with ${alongside ? sql`alongside as (${alongside}), ` : sql``}created as (
      insert into ${webhookDeliveries} (company_id, livemode, id, event_id, endpoint_id, generation, state, attempt_count, next_attempt_at, created, updated)
      select ${e.companyId}, ${e.livemode}, ${deliveryIdSql(sql`ev.id`, e.id)}, ev.id, ${e.id}, 1, 'pending', 0, ev.at, ev.at, ev.at
      from ${e} cross join unnest(${ids}, ${times}) as ev(id, at)
      where ${e.companyId} = ${scope.companyId} and ${e.livemode} = ${scope.livemode} and ${e.deletedAt} is null and ${e.status} = 'enabled' and ${targets}
      returning 1)
    select count(*)::int as created from created`;
  const result = events.length === 1 ? await executePrepared(tx, statement) : await tx.execute(statement);
  if (Number(result.rows[0]?.created) > 0) await notifyOnCommit(tx, deliveryChannel);
}
