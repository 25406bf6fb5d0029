import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { statementTemplate } from '../db/prepared-statement.js';
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

// The statements every request with an Idempotency-Key runs: built once, prepared (one text each).
const value = sql.placeholder;

const claimStatement = statementTemplate<{
  companyId: string;
  livemode: boolean;
  key: string;
  fingerprint: string;
  token: string;
  now: Date;
  at: string;
  retentionSeconds: number;
  lockSeconds: number;
}>((db) => {
  const t = idempotencyKeys;
  const at = sql`${value('at')}::timestamptz`;
  return db
    .insert(t)
    .values({
      companyId: value('companyId'),
      livemode: value('livemode'),
      key: value('key'),
      fingerprint: value('fingerprint'),
      lockToken: value('token'),
      state: 'started',
      lockedAt: value('now'),
      effectCommitted: false,
      created: value('now'),
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
      setWhere: sql`${t.created} <= ${at} - make_interval(secs => ${value('retentionSeconds')}::int)
        or (${t.state} = 'started' and not ${t.effectCommitted} and ${t.fingerprint} = excluded.fingerprint
            and ${t.lockedAt} <= ${at} - make_interval(secs => ${value('lockSeconds')}::int))`,
    })
    .returning({ key: t.key })
    .getSQL();
});

/**
 * Claims a key for a request, atomically. Succeeds for a new key, for an expired record (past
 * retention), and for a record whose first request died before committing any effect (its lock
 * is stale). Returns false when another record holds the key; read it with `findRecord`.
 */
export async function claimKey(db: Executor, claim: ClaimRequest): Promise<boolean> {
  const result = await claimStatement(db, {
    companyId: claim.scope.companyId,
    livemode: claim.scope.livemode,
    key: claim.key,
    fingerprint: claim.fingerprint,
    token: claim.token,
    now: claim.now,
    at: claim.now.toISOString(),
    retentionSeconds: claim.retentionSeconds,
    lockSeconds: claim.lockSeconds,
  });
  return result.rows.length > 0;
}

export async function findRecord(db: Executor, scope: Scope, key: string): Promise<IdempotencyRecord | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(ofKey(scope, key)).limit(1);
  return row;
}

/** The record of a key as long as this request's token holds it. */
const heldKey = () =>
  and(
    eq(idempotencyKeys.companyId, value('companyId')),
    eq(idempotencyKeys.livemode, value('livemode')),
    eq(idempotencyKeys.key, value('key')),
    eq(idempotencyKeys.lockToken, value('token')),
  );
type Held = { companyId: string; livemode: boolean; key: string; token: string };
const held = (scope: Scope, key: string, token: string): Held => ({ ...scope, key, token });

const markStatement = statementTemplate<Held>((db) =>
  db
    .update(idempotencyKeys)
    .set({ effectCommitted: true })
    .where(heldKey())
    .returning({ key: idempotencyKeys.key })
    .getSQL(),
);

/**
 * Marks the effect as committed, in the effect's own transaction. False when this request no
 * longer holds the key (a slow request overtaken after its lock went stale): its work must roll back.
 */
export async function markEffectCommitted(db: Executor, scope: Scope, key: string, token: string): Promise<boolean> {
  return (await markStatement(db, held(scope, key, token))).rows.length > 0;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const completeStatement = statementTemplate<Held & { status: number; headers: Record<string, string>; body: string }>(
  (db) =>
    db
      .update(idempotencyKeys)
      .set({
        state: 'completed',
        responseStatus: sql`${value('status')}`,
        // Encoded as the column encodes it (jsonb): a placeholder in the query builder's `set` is, but is not typed so.
        responseHeaders: sql`${sql.param(value('headers'), idempotencyKeys.responseHeaders)}`,
        responseBody: sql`${value('body')}`,
      })
      .where(heldKey())
      .getSQL(),
);

export async function completeKey(
  db: Executor,
  scope: Scope,
  key: string,
  token: string,
  response: StoredResponse,
): Promise<void> {
  await completeStatement(db, { ...held(scope, key, token), ...response });
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
