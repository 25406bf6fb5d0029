import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { inScope, type Scope } from '../db/scope.js';
import { cardPaymentEvents, cardPaymentProviders } from './schema.js';

export type CardPaymentProviderRow = typeof cardPaymentProviders.$inferSelect;
export type CardPaymentEventRow = typeof cardPaymentEvents.$inferSelect;

export async function upsertProvider(db: Executor, row: CardPaymentProviderRow): Promise<void> {
  await db
    .insert(cardPaymentProviders)
    .values(row)
    .onConflictDoUpdate({
      target: [cardPaymentProviders.companyId, cardPaymentProviders.livemode],
      set: {
        provider: row.provider,
        secretKey: row.secretKey,
        secretKeyLast4: row.secretKeyLast4,
        webhookSecret: row.webhookSecret,
        secretKeyVerifiedAt: row.secretKeyVerifiedAt,
        lastExchangeAt: row.lastExchangeAt,
        lastFailure: row.lastFailure,
        updated: row.updated,
      },
    });
}

/** Notes how the last exchange with the provider went (`failure` null: it went through). */
export async function recordExchange(db: Executor, scope: Scope, at: Date, failure: string | null): Promise<void> {
  await db
    .update(cardPaymentProviders)
    .set({ lastExchangeAt: at, lastFailure: failure })
    .where(inScope(cardPaymentProviders, scope));
}

export async function findProvider(db: Executor, scope: Scope): Promise<CardPaymentProviderRow | undefined> {
  const [row] = await db.select().from(cardPaymentProviders).where(inScope(cardPaymentProviders, scope)).limit(1);
  return row;
}

export async function deleteProvider(db: Executor, scope: Scope): Promise<boolean> {
  const rows = await db
    .delete(cardPaymentProviders)
    .where(inScope(cardPaymentProviders, scope))
    .returning({ companyId: cardPaymentProviders.companyId });
  return rows.length > 0;
}

/** Records an event as applied; false when it already was (the primary key is the event's id). */
export async function insertEvent(db: Executor, row: CardPaymentEventRow): Promise<boolean> {
  const rows = await db
    .insert(cardPaymentEvents)
    .values(row)
    .onConflictDoNothing()
    .returning({ eventId: cardPaymentEvents.eventId });
  return rows.length > 0;
}

export async function findEvent(
  db: Executor,
  scope: Scope,
  provider: string,
  eventId: string,
): Promise<CardPaymentEventRow | undefined> {
  const [row] = await db
    .select()
    .from(cardPaymentEvents)
    .where(
      and(
        inScope(cardPaymentEvents, scope),
        eq(cardPaymentEvents.provider, provider),
        eq(cardPaymentEvents.eventId, eventId),
      ),
    )
    .limit(1);
  return row;
}

/** The scope's newest events, newest first. */
export async function latestEvents(db: Executor, scope: Scope, limit: number): Promise<CardPaymentEventRow[]> {
  return db
    .select()
    .from(cardPaymentEvents)
    .where(inScope(cardPaymentEvents, scope))
    .orderBy(desc(cardPaymentEvents.received))
    .limit(limit);
}
