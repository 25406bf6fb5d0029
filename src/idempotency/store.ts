import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { executePrepared } from '../db/prepared-statement.js';
import { inScope, type Scope } from '../db/scope.js';
import { idempotencyKeys } from './schema.js';

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect;

const ofKey = (scope: Scope, key: string) => and(inScope(idempotencyKeys, scope), eq(idempotencyKeys.key, key));

export interface ClaimRequest {
  scope: Scope;
  key: string;
  fingerprint: string;
  token: string;
  now: Date;
  retentionSeconds: number;
  lockSeconds: number;
}

// The statements every request with an Idempotency-Key runs are prepared (one text each).

/**
 * Claims a key for a request, atomically. Succeeds for a new key, for an expired record (past
 * retention), and for a record whose first request died before committing any effect (its lock
 * is stale). Returns false when another record holds the key; read it with `findRecord`.
 */
export async function claimKey(db: Executor, claim: ClaimRequest): Promise<boolean> {
  const t = idempotencyKeys;
  const at = sql`${claim.now.toISOString()}::timestamptz`;
  const statement = db
    .insert(t)
    .values({
      companyId: claim.scope.companyId,
      livemode: claim.scope.livemode,
      key: claim.key,
      fingerprint: claim.fingerprint,
      lockToken: claim.token,
      state: 'started',
      lockedAt: claim.now,
      effectCommitted: false,
      created: claim.now,
    })
    .onConflictDoUpdate({
      target: [t.companyId, t.livemode, t.key],
      set: {
        fingerprint: sql`excluded.fingerprint`,
        lockToken: sql`excluded.lock_token`,
        state: 'started',
        lockedAt: sql`excluded.locked_at`,
        effectCommitted: false,
        responseStatus: null,
        responseHeaders: null,
        responseBody: null,
        created: sql`excluded.created`,
      },
      setWhere: sql`${t.created} <= ${at} - make_interval(secs => ${claim.retentionSeconds}::int)
        or (${t.state} = 'started' and not ${t.effectCommitted} and ${t.fingerprint} = excluded.fingerprint
            and ${t.lockedAt} <= ${at} - make_interval(secs => ${claim.lockSeconds}::int))`,
    })
    .returning({ key: t.key });
  return (await executePrepared(db, statement.getSQL())).rows.length > 0;
}

export async function findRecord(db: Executor, scope: Scope, key: string): Promise<IdempotencyRecord | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(ofKey(scope, key)).limit(1);
  return row;
}

/**
 * Marks the effect as committed, in the effect's own transaction. False when this request no
 * longer holds the key (a slow request overtaken after its lock went stale): its work must roll back.
 */
export async function markEffectCommitted(db: Executor, scope: Scope, key: string, token: string): Promise<boolean> {
  const statement = db
    .update(idempotencyKeys)
    .set({ effectCommitted: true })
    .where(and(ofKey(scope, key), eq(idempotencyKeys.lockToken, token)))
    .returning({ key: idempotencyKeys.key });
  return (await executePrepared(db, statement.getSQL())).rows.length > 0;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export async function completeKey(
  db: Executor,
  scope: Scope,
  key: string,
  token: string,
  response: StoredResponse,
): Promise<void> {
  const statement = db
    .update(idempotencyKeys)
    .set({
      state: 'completed',
      responseStatus: response.status,
      responseHeaders: response.headers,
      responseBody: response.body,
    })
    .where(and(ofKey(scope, key), eq(idempotencyKeys.lockToken, token)));
  await executePrepared(db, statement.getSQL());
}

/** Gives the key back when the request failed without effect, so a retry runs it again. */
export async function releaseKey(db: Executor, scope: Scope, key: string, token: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(ofKey(scope, key), eq(idempotencyKeys.lockToken, token), eq(idempotencyKeys.effectCommitted, false)));
}

export async function deleteKeysCreatedBefore(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.created, before))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}

/** Completed keys of a scope go; keys of requests still running stay, they finish normally. */
export async function deleteCompletedScopeKeys(db: Executor, scope: Scope, exceptKey: string | null): Promise<number> {
  const keep = exceptKey ? sql`${idempotencyKeys.key} <> ${exceptKey}` : undefined;
  const rows = await db
    .delete(idempotencyKeys)
    .where(and(inScope(idempotencyKeys, scope), eq(idempotencyKeys.state, 'completed'), keep))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
