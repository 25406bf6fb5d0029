import { createHash, randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { refuse } from '../kernel/errors.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import {
  claimKey,
  completeKey,
  deleteKeysCreatedBefore,
  deleteCompletedScopeKeys,
  findRecord,
  markEffectCommitted,
  releaseKey,
  type StoredResponse,
} from './store.js';
import type { Executor } from '../db/database.js';

export type { StoredResponse } from './store.js';

/** The contract's idempotency key retention. */
export const retentionSeconds = 24 * 3600;
export const maxKeyLength = 255;

/** Same method, path, query and JSON content (key order aside) give the same fingerprint. */
export function fingerprintOf(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body)}`)
    .digest('hex');
}

export type Begin = { kind: 'claimed'; token: string } | { kind: 'replay'; response: StoredResponse };

/**
 * Starts an idempotent request: claims the key, or returns the stored response to replay, or
 * refuses with `conflict` (other content, still running, or an effect awaiting reconciliation).
 */
export async function beginIdempotent(
  deps: Pick<Deps, 'fast' | 'config'>,
  scope: Scope,
  key: string,
  fingerprint: string,
  now: Date,
): Promise<Begin> {
  // A record can vanish between the failed claim and the read (released after a 5xx): claim again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomUUID();
    // The claim needs no flush of its own: the effect's durable commit flushes it, and without an effect losing it is harmless.
    const claimed = await claimKey(deps.fast.db, {
      scope,
      key,
      fingerprint,
      token,
      now,
      retentionSeconds,
      lockSeconds: deps.config.idempotencyLockSeconds,
    });
    if (claimed) return { kind: 'claimed', token };
    const record = await findRecord(deps.fast.db, scope, key);
    if (!record) continue;
    if (record.fingerprint !== fingerprint) {
      throw refuse(
        'conflict',
        `Idempotency-Key "${key}" was already used with other content in the last 24 hours; a different request needs a new key.`,
        { param: 'Idempotency-Key' },
      );
    }
    if (record.state === 'completed' && record.responseStatus !== null && record.responseBody !== null) {
      return {
        kind: 'replay',
        response: { status: record.responseStatus, headers: record.responseHeaders ?? {}, body: record.responseBody },
      };
    }
    if (record.effectCommitted) {
      throw refuse(
        'conflict',
        `The request with Idempotency-Key "${key}" took effect but its response was not recorded; verify the effect (read the resource) before any new operation.`,
        { param: 'Idempotency-Key' },
      );
    }
    throw refuse(
      'conflict',
      `A request with Idempotency-Key "${key}" is still in progress; retry once it has completed.`,
      { param: 'Idempotency-Key' },
    );
  }
  throw refuse('conflict', `Idempotency-Key "${key}" is contended; retry.`, { param: 'Idempotency-Key' });
}

/**
 * Stores the response to replay. A server error with no committed effect gives the key back,
 * so the retry runs again (nothing happened); with an effect committed, the response is kept.
 */
export async function finishIdempotent(
  deps: Pick<Deps, 'fast'>,
  scope: Scope,
  key: string,
  token: string,
  response: StoredResponse,
): Promise<void> {
  if (response.status >= 500) {
    await releaseKey(deps.fast.db, scope, key, token);
  }
  // Lost in a crash, the stored response leaves the key `started` with its effect marked: a retry gets
  // `conflict` (verify the effect), never a second effect.
  await completeKey(deps.fast.db, scope, key, token, response);
}

/** Sandbox reset: completed test keys go, except `keep` (the reset's own). */
export async function purgeTestIdempotencyKeys(tx: Executor, scope: Scope, keep: string | null): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live idempotency keys');
  return deleteCompletedScopeKeys(tx, scope, keep);
}

export async function purgeExpiredIdempotencyKeys(deps: Pick<Deps, 'db'>, now: Date): Promise<number> {
  return deleteKeysCreatedBefore(deps.db, new Date(now.getTime() - retentionSeconds * 1000));
}

/**
 * Marks, in the transaction of the effect, that the request holding `key` took effect: a crash
 * after that commit answers `conflict` (verify) rather than running the request again. False when
 * another request took the key over meanwhile.
 */
export async function markEffect(tx: Executor, scope: Scope, key: string, token: string): Promise<boolean> {
  return markEffectCommitted(tx, scope, key, token);
}
