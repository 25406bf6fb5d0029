import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { deliveryChannel } from './store.js';
import { webhookDeliveries, webhookEndpoints } from './schema.js';

/**
 * Creates, in the event's own transaction and in one statement, a pending delivery for each
 * enabled endpoint of the scope subscribed to the event type (or for `onlyEndpoints`, as a ping
 * does), and notifies the workers when there is any. The rows are the jobs: nothing is lost if
 * the process dies right after the commit.
 */
export async function enqueueDeliveries(tx: Executor, scope: Scope, event: { id: string; type: string; created: Date }, onlyEndpoints?: string[]): Promise<void> {
  const e = webhookEndpoints;
  const at = sql`${event.created.toISOString()}::timestamptz`;
  const targets = onlyEndpoints
    ? sql`${e.id} = any(${sql`array[${sql.join(onlyEndpoints.map((id) => sql`${id}`), sql`, `)}]::text[]`})`
    : sql`(${e.events} @> array[${event.type}]::text[] or ${e.events} @> array['*']::text[])`;
  await tx.execute(sql`
    with created as (
      insert into ${webhookDeliveries} (company_id, livemode, id, event_id, endpoint_id, generation, state, attempt_count, next_attempt_at, created, updated)
      select ${e.companyId}, ${e.livemode}, 'del_' || substr(md5(random()::text || ${e.id} || ${event.id}), 1, 26), ${event.id}, ${e.id}, 1, 'pending', 0, ${at}, ${at}, ${at}
      from ${e}
      where ${e.companyId} = ${scope.companyId} and ${e.livemode} = ${scope.livemode} and ${e.deletedAt} is null and ${e.status} = 'enabled' and ${targets}
      returning 1)
    select pg_notify(${deliveryChannel}, '') from (select count(*) as n from created) c where c.n > 0`);
}
