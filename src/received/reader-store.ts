import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { inScope, type Scope } from '../db/scope.js';
import { receivedReaders } from './schema.js';

/**
 * The received invoices' readers before the one inbox: what is left of each is its webhook
 * subscription (its callback path registered at the platform), kept until the connection changes.
 */
export type ReceivedReaderRow = typeof receivedReaders.$inferSelect;

/** An establishment's former reader (its callback path's signing key). */
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

/** The former subscription of a connection that changed: forgotten. */
export async function deleteReaderOf(db: Executor, scope: Scope, establishmentId: string): Promise<void> {
  await db
    .delete(receivedReaders)
    .where(and(inScope(receivedReaders, scope), eq(receivedReaders.establishmentId, establishmentId)));
}

/** Sandbox reset: the scope's former readers go with its received invoices. */
export async function deleteScopeReaders(db: Executor, scope: Scope): Promise<void> {
  await db.delete(receivedReaders).where(inScope(receivedReaders, scope));
}
