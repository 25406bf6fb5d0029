import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { claimReaders, renewReaders, type ClaimedReader } from '../db/reader-claim.js';
import { inScope, type Scope } from '../db/scope.js';
import { receivedReaders } from './schema.js';

/** The received invoices' readers: one per connected establishment, its cursor and subscription. */
export type ReceivedReaderRow = typeof receivedReaders.$inferSelect;

/** Makes the readers of these establishments that have none yet (a new connection is read from the start). */
export async function ensureReceivedReaders(
  db: Executor,
  establishments: readonly { companyId: string; livemode: boolean; id: string }[],
  now: Date,
): Promise<void> {
  if (establishments.length === 0) return;
  await db
    .insert(receivedReaders)
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

/** The received invoices' readers to poll (see db/reader-claim.ts). */
export const claimReceivedReaders = (
  db: Executor,
  lease: { now: Date; limit: number; leaseMs: number; token: string },
  done: readonly string[],
  companyIds?: readonly string[],
) => claimReaders(db, 'received_readers', lease, done, companyIds);

/** The leases of received invoices' readers in hand, renewed (see db/reader-claim.ts). */
export const renewReceivedReaders = (
  db: Executor,
  readers: readonly ClaimedReader[],
  lease: { now: Date; leaseMs: number },
) => renewReaders(db, 'received_readers', readers, lease);

/** Moves a claimed reader; false when its lease was lost (another poll took it over). */
export async function updateReceivedReader(
  db: Executor,
  reader: ClaimedReader,
  changes: Partial<
    Pick<ReceivedReaderRow, 'connectionKey' | 'cursor' | 'webhookId' | 'signingKey' | 'lastPolledAt' | 'lastError'>
  >,
  release = false,
): Promise<boolean> {
  const rows = await db
    .update(receivedReaders)
    .set({ ...changes, ...(release ? { lockedUntil: null, lockToken: null } : {}) })
    .where(
      and(
        eq(receivedReaders.companyId, reader.companyId),
        eq(receivedReaders.livemode, reader.livemode),
        eq(receivedReaders.establishmentId, reader.establishmentId),
        eq(receivedReaders.lockToken, reader.token),
      ),
    )
    .returning({ id: receivedReaders.establishmentId });
  return rows.length > 0;
}

/** An establishment's reader (its callback reads the signing key). */
export async function receivedReaderOf(
  db: Executor,
  scope: Scope,
  establishmentId: string,
): Promise<ReceivedReaderRow | undefined> {
  const [found] = await db
    .select()
    .from(receivedReaders)
    .where(and(inScope(receivedReaders, scope), eq(receivedReaders.establishmentId, establishmentId)));
  return found;
}

/** Sandbox reset: the scope's readers go with its received invoices. */
export async function deleteScopeReaders(db: Executor, scope: Scope): Promise<void> {
  await db.delete(receivedReaders).where(inScope(receivedReaders, scope));
}
