import { and, asc, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { executePrepared } from '../db/prepared-statement.js';
import { keysetPage, rowsAfter } from '../db/keyset.js';
import { inScope, type Scope } from '../db/scope.js';
import type { PageRequest } from '../kernel/pagination.js';
import { claimLeased } from '../db/leased-claim.js';
import { rawRow } from '../db/raw-row.js';
import { dueOnScopeClock, sandboxOffsetMs } from '../db/sandbox-clock.js';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from './schema.js';
import { notifyOnCommit } from '../db/commit-notice.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** Wakes the delivery workers of every node once the transaction commits. */
export const deliveryChannel = 'facteur_webhook_deliveries';

const live = isNull(webhookEndpoints.deletedAt);
const ofEndpoint = (scope: Scope, id: string) =>
  and(inScope(webhookEndpoints, scope), eq(webhookEndpoints.id, id), live);

// Endpoints

export async function insertEndpoint(db: Executor, row: EndpointRow): Promise<void> {
  await db.insert(webhookEndpoints).values(row);
}

export async function findEndpoint(
  db: Executor,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<EndpointRow | undefined> {
  const query = db.select().from(webhookEndpoints).where(ofEndpoint(scope, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function countEndpoints(db: Executor, scope: Scope): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(and(inScope(webhookEndpoints, scope), live));
  return row?.n ?? 0;
}

export async function pageEndpoints(db: Executor, scope: Scope, page: PageRequest): Promise<EndpointRow[]> {
  return keysetPage(db, webhookEndpoints, scope, page, { visible: live });
}

export async function updateEndpoint(
  db: Executor,
  scope: Scope,
  id: string,
  changes: Partial<EndpointRow>,
): Promise<EndpointRow | undefined> {
  const [row] = await db.update(webhookEndpoints).set(changes).where(ofEndpoint(scope, id)).returning();
  return row;
}

// Deliveries

export async function insertDeliveries(db: Executor, rows: DeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(webhookDeliveries).values(rows);
  await notifyOnCommit(db, deliveryChannel);
}

export async function deliveriesOfEvent(db: Executor, scope: Scope, eventId: string): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(inScope(webhookDeliveries, scope), eq(webhookDeliveries.eventId, eventId)))
    .orderBy(asc(webhookDeliveries.endpointId), asc(webhookDeliveries.generation));
}

export async function attemptsOfEvent(db: Executor, scope: Scope, eventId: string): Promise<AttemptRow[]> {
  return db
    .select()
    .from(webhookAttempts)
    .where(and(inScope(webhookAttempts, scope), eq(webhookAttempts.eventId, eventId)))
    .orderBy(asc(webhookAttempts.startedAt), asc(webhookAttempts.attempt));
}

export interface DeliveryTarget {
  endpoint: EndpointRow | null;
  event: typeof events.$inferSelect | null;
}

export interface ClaimedDelivery {
  delivery: DeliveryRow;
  sandboxClockOffsetMs: number;
  /** The endpoint and the event, read in the claim's statement (null: gone since). */
  target: DeliveryTarget;
}

const endpointOfClaim = rawRow(webhookEndpoints, 'endpoint.');
const eventOfClaim = rawRow(events, 'event.');

/**
 * Claims due deliveries for one worker, each with its endpoint and event, in one statement.
 * Test-mode deliveries are due on their company's sandbox clock. A claim lasts past the delivery
 * time-out, so a worker that dies mid-attempt releases its deliveries to the others: delivery is
 * at least once.
 */
export async function claimDueDeliveries(
  db: Executor,
  now: Date,
  limit: number,
  lockMs: number,
  token: string,
  companyIds?: string[],
): Promise<ClaimedDelivery[]> {
  const row = { companyId: sql.raw('t.company_id'), livemode: sql.raw('t.livemode') };
  const rows = await claimLeased(
    db,
    {
      table: 'webhook_deliveries',
      key: ['company_id', 'id'],
      due: sql`t.state = 'pending' and ${dueOnScopeClock(sql.raw('t.next_attempt_at'), row, now)}`,
      order: sql`t.next_attempt_at`,
      returning: sql`t.company_id, t.livemode, t.id, t.event_id, t.endpoint_id, t.generation, t.state, t.attempt_count,
        t.next_attempt_at, t.locked_until, t.lock_token, t.created, t.updated, ${sandboxOffsetMs(row)} as offset_ms`,
      companyIds,
      joined: {
        columns: sql`${endpointOfClaim.columns('e')}, ${eventOfClaim.columns('v')}`,
        joins: sql`left join ${webhookEndpoints} e on e.company_id = c.company_id and e.id = c.endpoint_id
          left join ${events} v on v.company_id = c.company_id and v.id = c.event_id`,
      },
    },
    { now, limit, leaseMs: lockMs, token },
  );
  return rows.map((row) => ({
    delivery: {
      companyId: String(row.company_id),
      livemode: Boolean(row.livemode),
      id: String(row.id),
      eventId: String(row.event_id),
      endpointId: String(row.endpoint_id),
      generation: Number(row.generation),
      state: String(row.state),
      attemptCount: Number(row.attempt_count),
      nextAttemptAt: row.next_attempt_at ? new Date(String(row.next_attempt_at)) : null,
      lockedUntil: row.locked_until ? new Date(String(row.locked_until)) : null,
      lockToken: row.lock_token ? String(row.lock_token) : null,
      created: new Date(String(row.created)),
      updated: new Date(String(row.updated)),
    },
    sandboxClockOffsetMs: Number(row.offset_ms),
    target: { endpoint: endpointOfClaim.read(row), event: eventOfClaim.read(row) },
  }));
}

export interface Settlement {
  delivery: DeliveryRow;
  token: string;
  state: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
  at: Date;
  /** The attempt made (null: nothing was sent, the endpoint or event being gone). */
  attempt: {
    number: number;
    startedAt: Date;
    durationMs: number;
    statusCode: number | null;
    error: string | null;
  } | null;
  /** After a success: the event is kept until then (90 days), unless already kept within a day of it. */
  retainUntil: Date | null;
}

/**
 * Settles claimed deliveries, records their attempts and extends their events' retention, all in
 * one statement whose size does not grow with the batch (one array per field, spread by
 * `unnest`); returns the ids still held by their claim. A delivery taken over by another worker
 * after its claim lapsed is left to that worker: neither settled nor its attempt recorded here.
 */
export async function settleDeliveries(db: Executor, settlements: Settlement[]): Promise<Set<string>> {
  if (settlements.length === 0) return new Set();
  const column = <T>(value: (s: Settlement) => T) => sql.param(settlements.map(value));
  const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
  const result = await executePrepared(
    db,
    sql`
    with v as (
      select * from unnest(${column((s) => s.delivery.companyId)}::text[], ${column((s) => s.delivery.id)}::text[],
        ${column((s) => s.token)}::text[], ${column((s) => s.state)}::text[], ${column((s) => s.attemptCount)}::int[],
        ${column((s) => iso(s.nextAttemptAt))}::timestamptz[], ${column((s) => iso(s.at))}::timestamptz[],
        ${column((s) => s.attempt?.number ?? null)}::int[], ${column((s) => iso(s.attempt?.startedAt))}::timestamptz[],
        ${column((s) => s.attempt?.durationMs ?? null)}::int[], ${column((s) => s.attempt?.statusCode ?? null)}::int[],
        ${column((s) => s.attempt?.error ?? null)}::text[], ${column((s) => iso(s.retainUntil))}::timestamptz[])
        as v(company_id, id, token, state, attempt_count, next_attempt_at, at, attempt, started_at, duration_ms,
          status_code, error, retain_until)
    ),
    settled as (
      update ${webhookDeliveries} d set state = v.state, attempt_count = v.attempt_count, next_attempt_at = v.next_attempt_at,
        updated = v.at, locked_until = null, lock_token = null
      from v where d.company_id = v.company_id and d.id = v.id and d.lock_token = v.token
      returning d.company_id, d.livemode, d.id, d.event_id, d.endpoint_id, d.generation
    ),
    attempts as (
      insert into ${webhookAttempts} (company_id, livemode, delivery_id, attempt, event_id, endpoint_id, generation,
        started_at, duration_ms, status_code, error)
      select s.company_id, s.livemode, s.id, v.attempt, s.event_id, s.endpoint_id, s.generation, v.started_at,
        v.duration_ms, v.status_code, v.error
      from settled s join v on v.company_id = s.company_id and v.id = s.id
      where v.attempt is not null
    ),
    retained as (
      update ${events} e set retained_until = v.retain_until
      from settled s join v on v.company_id = s.company_id and v.id = s.id
      where e.company_id = s.company_id and e.id = s.event_id and v.retain_until is not null
        and e.retained_until < v.retain_until - interval '1 day'
    )
    select id from settled`,
  );
  return new Set(result.rows.map((row) => row.id as string));
}

/** The endpoints of a batch, locked until the batch commits: health changes apply to fresh rows. */
export async function lockEndpoints(db: Executor, keys: { companyId: string; id: string }[]): Promise<EndpointRow[]> {
  if (keys.length === 0) return [];
  const pairs = sql.join(
    keys.map((k) => sql`(${k.companyId}, ${k.id})`),
    sql`, `,
  );
  return db
    .select()
    .from(webhookEndpoints)
    .where(sql`(${webhookEndpoints.companyId}, ${webhookEndpoints.id}) in (${pairs})`)
    .orderBy(webhookEndpoints.companyId, webhookEndpoints.id)
    .for('update');
}

export async function updateEndpointHealth(
  db: Executor,
  endpoint: EndpointRow,
  changes: Partial<EndpointRow>,
): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set(changes)
    .where(and(eq(webhookEndpoints.companyId, endpoint.companyId), eq(webhookEndpoints.id, endpoint.id)));
}

export async function latestDeliveries(db: Executor, scope: Scope, eventId: string): Promise<DeliveryRow[]> {
  return db
    .selectDistinctOn([webhookDeliveries.endpointId])
    .from(webhookDeliveries)
    .where(and(inScope(webhookDeliveries, scope), eq(webhookDeliveries.eventId, eventId)))
    .orderBy(webhookDeliveries.endpointId, desc(webhookDeliveries.generation));
}

/** Event ids of the scope whose latest deliveries are all delivered (`true`) or not (`false`). */
export function deliveredFilter(delivered: boolean) {
  const undelivered = sql`exists (select 1 from ${webhookDeliveries} d where d.company_id = ${events.companyId} and d.event_id = ${events.id}
    and d.state <> 'delivered' and d.generation = (select max(d2.generation) from ${webhookDeliveries} d2
      where d2.company_id = d.company_id and d2.event_id = d.event_id and d2.endpoint_id = d.endpoint_id))`;
  const any = sql`exists (select 1 from ${webhookDeliveries} d where d.company_id = ${events.companyId} and d.event_id = ${events.id})`;
  return delivered ? and(any, sql`not ${undelivered}`) : or(sql`not ${any}`, undelivered);
}

/** Sandbox reset: deliveries and attempts go with the events; endpoints are configuration and stay. */
export async function deleteScopeDeliveries(db: Executor, scope: Scope): Promise<number> {
  await db.delete(webhookAttempts).where(inScope(webhookAttempts, scope));
  const deliveries = await db
    .delete(webhookDeliveries)
    .where(inScope(webhookDeliveries, scope))
    .returning({ id: webhookDeliveries.id });
  return deliveries.length;
}

/**
 * Deletes up to `limit` events past their retention, with their deliveries and attempts, in one
 * statement; returns how many events went.
 */
export async function deleteExpiredEvents(db: Executor, now: Date, limit: number): Promise<number> {
  const result = await db.execute(sql`
    with expired as (
      delete from ${events} where (company_id, id) in (
        select company_id, id from ${events} where retained_until < ${now.toISOString()}::timestamptz limit ${limit})
      returning company_id, id),
    gone_deliveries as (
      delete from ${webhookDeliveries} d using expired e where d.company_id = e.company_id and d.event_id = e.id returning 1),
    gone_attempts as (
      delete from ${webhookAttempts} a using expired e where a.company_id = e.company_id and a.event_id = e.id returning 1)
    select (select count(*) from expired)::int as events, (select count(*) from gone_deliveries)::int as deliveries, (select count(*) from gone_attempts)::int as attempts`);
  return Number((result.rows[0] as { events: number }).events);
}

/** Deliveries due now (test ones on their sandbox clock) and how long the oldest has waited. */
export async function dueDeliveryStats(db: Executor, now: Date): Promise<{ due: number; oldestSeconds: number }> {
  const row = { companyId: sql.raw('t.company_id'), livemode: sql.raw('t.livemode') };
  const result = await db.execute(sql`
    select count(*)::int as due,
      coalesce(extract(epoch from ${now.toISOString()}::timestamptz - min(t.next_attempt_at)), 0)::float8 as oldest
    from webhook_deliveries t
    where t.state = 'pending' and ${dueOnScopeClock(sql.raw('t.next_attempt_at'), row, now)}`);
  const stats = result.rows[0] as { due: number; oldest: number };
  return { due: stats.due, oldestSeconds: Math.max(0, stats.oldest) };
}

/** The scope's endpoints in id order after `after`: the data-protection export. */
export async function endpointRowsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return rowsAfter(db, webhookEndpoints, scope, after, limit);
}
