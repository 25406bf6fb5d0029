import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { claimReaders, renewReaders, type ClaimedReader } from '../db/reader-claim.js';
import { inScope, type Scope } from '../db/scope.js';
import { sandboxOffsetMs } from '../db/sandbox-clock.js';
import { inboxReceipts, platformReaders } from './schema.js';

/** The inbox's readers (one per connection: cursor, subscription) and the receipts of the events handed on. */
export type InboxReaderRow = typeof platformReaders.$inferSelect;

/** Makes the readers of these establishments that have none yet (a new connection is read from the start). */
export async function ensureInboxReaders(
  db: Executor,
  establishments: readonly { companyId: string; livemode: boolean; id: string }[],
  now: Date,
): Promise<void> {
  if (establishments.length === 0) return;
  await db
    .insert(platformReaders)
    .values(
      establishments.map((row) => ({
        companyId: row.companyId,
        livemode: row.livemode,
        establishmentId: row.id,
        created: now,
      })),
    )
    .onConflictDoNothing();
}

/** The readers to poll (see db/reader-claim.ts). */
export const claimInboxReaders = (
  db: Executor,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
  done: readonly string[],
  companyIds?: readonly string[],
) => claimReaders(db, 'platform_readers', lease, done, companyIds);

/** The leases of readers in hand, renewed (see db/reader-claim.ts). */
export const renewInboxReaders = (
  db: Executor,
  readers: readonly ClaimedReader[],
  lease: { now: Date; leaseMs: number },
) => renewReaders(db, 'platform_readers', readers, lease);

/** Moves a claimed reader; false when its lease was lost (another poll took it over). */
export async function updateInboxReader(
  db: Executor,
  reader: ClaimedReader,
  changes: Partial<
    Pick<InboxReaderRow, 'connectionKey' | 'cursor' | 'webhookId' | 'signingKey' | 'lastPolledAt' | 'lastError'>
  >,
  release = false,
): Promise<boolean> {
  const rows = await db
    .update(platformReaders)
    .set({ ...changes, ...(release ? { lockedUntil: null, lockToken: null } : {}) })
    .where(
      and(
        eq(platformReaders.companyId, reader.companyId),
        eq(platformReaders.livemode, reader.livemode),
        eq(platformReaders.establishmentId, reader.establishmentId),
        eq(platformReaders.lockToken, reader.token),
      ),
    )
    .returning({ id: platformReaders.establishmentId });
  return rows.length > 0;
}

/** A connection's reader (its callback reads the signing key). */
export async function inboxReaderOf(
  db: Executor,
  scope: Scope,
  establishmentId: string,
): Promise<InboxReaderRow | undefined> {
  const [found] = await db
    .select()
    .from(platformReaders)
    .where(and(inScope(platformReaders, scope), eq(platformReaders.establishmentId, establishmentId)));
  return found;
}

/** True the first time this event is seen in the scope (its receipt written now); false for a repeat. */
export async function receiveEvent(
  db: Executor,
  scope: Scope,
  eventKey: string,
  ownerId: string | null,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .insert(inboxReceipts)
    .values({ ...scope, eventKey, ownerId, created: now })
    .onConflictDoNothing()
    .returning({ key: inboxReceipts.eventKey });
  return rows.length > 0;
}

/** Whether the event already has its receipt. */
export async function eventReceived(db: Executor, scope: Scope, eventKey: string): Promise<boolean> {
  const [found] = await db
    .select({ key: inboxReceipts.eventKey })
    .from(inboxReceipts)
    .where(and(inScope(inboxReceipts, scope), eq(inboxReceipts.eventKey, eventKey)));
  return found !== undefined;
}

/** The receipts of a scope in the order of their key (the data-protection export). */
export async function receiptsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  return db
    .select()
    .from(inboxReceipts)
    .where(and(inScope(inboxReceipts, scope), after === null ? undefined : gt(inboxReceipts.eventKey, after)))
    .orderBy(asc(inboxReceipts.eventKey))
    .limit(limit);
}

/** Sandbox reset: the scope's readers and receipts go with its test data. */
export async function deleteScopeInbox(db: Executor, scope: Scope): Promise<{ readers: number; receipts: number }> {
  const readers = await db
    .delete(platformReaders)
    .where(inScope(platformReaders, scope))
    .returning({ id: platformReaders.establishmentId });
  const receipts = await db
    .delete(inboxReceipts)
    .where(inScope(inboxReceipts, scope))
    .returning({ key: inboxReceipts.eventKey });
  return { readers: readers.length, receipts: receipts.length };
}

/** The scope's clock: real time plus its company's sandbox offset (0 in live). */
export async function scopeClock(db: Executor, scope: Scope, now: Date): Promise<Date> {
  if (scope.livemode) return now;
  const result = await db.execute<{ offset_ms: string | number }>(
    sql`select ${sandboxOffsetMs({ companyId: sql`${scope.companyId}`, livemode: sql`${scope.livemode}` })} as offset_ms`,
  );
  return new Date(now.getTime() + Number(result.rows[0]?.offset_ms ?? 0));
}
