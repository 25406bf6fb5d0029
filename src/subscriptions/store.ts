import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Lookup } from '../db/lookup.js';
import { inScope, type Scope } from '../db/scope.js';
import { billingEvents, storageUsage, subscriptions } from './schema.js';

export type BillingEventRow = typeof billingEvents.$inferSelect;

export type SubscriptionRow = typeof subscriptions.$inferSelect;

export async function insertSubscription(db: Executor, row: SubscriptionRow): Promise<void> {
  await db.insert(subscriptions).values(row);
}

/** The company's subscription; `lock` holds it until the commit (a change reads then writes it). */
export async function findSubscription(
  db: Executor,
  companyId: string,
  lock = false,
): Promise<SubscriptionRow | undefined> {
  const query = db.select().from(subscriptions).where(eq(subscriptions.companyId, companyId)).limit(1);
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/** The subscription that follows a Stripe subscription, locked until the commit. */
export async function findSubscriptionByProvider(
  db: Executor,
  providerSubscriptionId: string,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
    .limit(1)
    .for('update');
  return row;
}

/**
 * Claims a billing event by its id, first thing in its transaction: false when another delivery
 * has (a concurrent one waits here for the other's commit, then finds it).
 */
export async function claimBillingEvent(db: Executor, row: BillingEventRow): Promise<boolean> {
  const rows = await db
    .insert(billingEvents)
    .values(row)
    .onConflictDoNothing()
    .returning({ eventId: billingEvents.eventId });
  return rows.length > 0;
}

export async function settleBillingEvent(
  db: Executor,
  row: Pick<BillingEventRow, 'provider' | 'eventId' | 'companyId' | 'outcome' | 'reason'>,
): Promise<void> {
  await db
    .update(billingEvents)
    .set({ companyId: row.companyId, outcome: row.outcome, reason: row.reason })
    .where(and(eq(billingEvents.provider, row.provider), eq(billingEvents.eventId, row.eventId)));
}

export async function updateSubscription(
  db: Executor,
  companyId: string,
  changes: Partial<SubscriptionRow>,
): Promise<SubscriptionRow> {
  const [row] = await db.update(subscriptions).set(changes).where(eq(subscriptions.companyId, companyId)).returning();
  if (!row) throw new Error(`no subscription for ${companyId}`);
  return row;
}

/**
 * Subscriptions the periodic pass has to move, locked for it (another node skips them): not yet
 * announced, paused until a time that passed, or active past their period's end; those that follow
 * a Stripe subscription only to be announced (Stripe's events move them).
 */
export async function claimSubscriptionsDue(
  tx: Executor,
  now: Date,
  limit: number,
  companyIds?: string[],
): Promise<{ row: SubscriptionRow; work: 'announce' | 'resume' | 'renew' }[]> {
  if (companyIds && companyIds.length === 0) return [];
  const at = sql`${now.toISOString()}::timestamptz`;
  const s = subscriptions;
  const rows = await tx
    .select()
    .from(s)
    .where(
      and(
        sql`((not ${s.announced})
          or (${s.providerSubscriptionId} is null and ${s.status} = 'paused' and ${s.pausedUntil} is not null and ${s.pausedUntil} <= ${at})
          or (${s.providerSubscriptionId} is null and ${s.status} = 'active' and ${s.currentPeriodEnd} <= ${at}))`,
        companyIds ? inArray(s.companyId, companyIds) : undefined,
      ),
    )
    .orderBy(s.companyId)
    .limit(limit)
    .for('update', { skipLocked: true });
  return rows.map((row) => ({
    row,
    work: !row.announced
      ? 'announce'
      : row.status === 'paused' && row.pausedUntil !== null && row.pausedUntil.getTime() <= now.getTime()
        ? 'resume'
        : 'renew',
  }));
}

/**
 * Adds `bytes` to the scope's stored bytes unless that passes `limit`, in one statement (the row
 * is locked by the update, so two reservations never pass the limit together); false if refused.
 */
export async function addStoredBytes(db: Executor, scope: Scope, bytes: number, limit: number): Promise<boolean> {
  if (bytes > limit) return false;
  const u = storageUsage;
  const rows = await db
    .insert(u)
    .values({ ...scope, bytes })
    .onConflictDoUpdate({
      target: [u.companyId, u.livemode],
      set: { bytes: sql`${u.bytes} + excluded.bytes` },
      setWhere: sql`${u.bytes} + excluded.bytes <= ${limit}`,
    })
    .returning({ bytes: u.bytes });
  return rows.length > 0;
}

/** Gives bytes back, never below zero (a release after a sandbox reset finds nothing to take). */
export async function removeStoredBytes(db: Executor, scope: Scope, bytes: number): Promise<void> {
  await db
    .update(storageUsage)
    .set({ bytes: sql`greatest(0, ${storageUsage.bytes} - ${bytes})` })
    .where(inScope(storageUsage, scope));
}

export async function storedBytes(db: Executor, scope: Scope): Promise<number> {
  const [row] = await db
    .select({ bytes: storageUsage.bytes })
    .from(storageUsage)
    .where(and(inScope(storageUsage, scope)))
    .limit(1);
  return Number(row?.bytes ?? 0);
}

export async function deleteStoredBytes(db: Executor, scope: Scope): Promise<number> {
  const rows = await db
    .delete(storageUsage)
    .where(inScope(storageUsage, scope))
    .returning({ bytes: storageUsage.bytes });
  return rows.length;
}

/** `storedBytes` as a lookup of a bigger statement. */
export function storedBytesLookup(scope: Scope): Lookup<number> {
  return {
    query: sql`select bytes as storage_usage_bytes from storage_usage where company_id = ${scope.companyId} and livemode = ${scope.livemode} limit 1`,
    read: (raw) => Number(raw.storage_usage_bytes ?? 0),
  };
}
