import type { Deps } from '../deps.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { parseIsoInstant } from '../kernel/iso-date.js';
import { getCompany } from '../companies/service.js';
import { generateSecret, hashSecret, livemodeOfSecret } from './key-secret.js';
import { allScopes, isKeyScope, type KeyScope } from '../kernel/scopes.js';
import {
  findKeyByHash,
  insertKey,
  listKeys,
  markRevoked,
  touchLastUsed,
  type ApiKey,
  type KeyWithCompany,
} from './store.js';
import { announceAuthChange, forgetInThisProcess } from './key-cache.js';
import { inTransaction } from '../db/transaction.js';

export type { ApiKey, KeyWithCompany } from './store.js';

/** The process's cache of keys, and how every node hears a key's revocation (a notification in the revoking transaction). */
export { KeyCache, announceAuthChange, forgetInThisProcess, listenForAuthChanges } from './key-cache.js';

export interface NewApiKey {
  companyId: string;
  env: string;
  scopes?: string[];
  expiresAt?: string;
}

/** The key as shown to its holder: never the secret nor its hash. */
export interface ApiKeyResource {
  id: string;
  object: 'api_key';
  company: string;
  livemode: boolean;
  secretHint: string;
  scopes: string[] | null;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  created: string;
}

export function toApiKeyResource(key: ApiKey): ApiKeyResource {
  return {
    id: key.id,
    object: 'api_key',
    company: key.companyId,
    livemode: key.livemode,
    secretHint: `svc_${key.livemode ? 'live' : 'test'}_…${key.secretLast4}`,
    scopes: key.scopes ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    created: key.created.toISOString(),
  };
}

function parseScopes(scopes: string[] | undefined): KeyScope[] | null {
  if (!scopes || scopes.length === 0) return null;
  const unknown = scopes.filter((scope) => !isKeyScope(scope));
  if (unknown.length > 0) {
    throw refuse('validation_error', `Unknown scope ${unknown.join(', ')}; scopes are ${allScopes.join(', ')}.`, {
      param: 'scopes',
    });
  }
  return [...new Set(scopes as KeyScope[])];
}

function parseExpiry(expiresAt: string | undefined, now: Date): Date | null {
  if (expiresAt === undefined) return null;
  const date = parseIsoInstant(expiresAt);
  if (!date) {
    throw refuse(
      'validation_error',
      `expiresAt must be an ISO 8601 date (2027-01-31) or date-time with a zone (2027-01-31T12:00:00Z); got "${expiresAt}".`,
      { param: 'expiresAt' },
    );
  }
  if (date.getTime() <= now.getTime())
    throw refuse('invalid_field_value', 'expiresAt must be in the future.', { param: 'expiresAt' });
  return date;
}

export async function createApiKey(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: NewApiKey,
): Promise<{ key: ApiKeyResource; secret: string }> {
  if (input.env !== 'test' && input.env !== 'live')
    throw refuse('validation_error', 'env must be test or live.', { param: 'env' });
  const company = await getCompany(deps, input.companyId);
  const now = deps.clock.now();
  const livemode = input.env === 'live';
  const secret = generateSecret(livemode);
  const key: ApiKey = {
    id: newId('apiKey', now),
    companyId: company.id,
    livemode,
    secretHash: hashSecret(secret),
    secretLast4: secret.slice(-4),
    scopes: parseScopes(input.scopes),
    expiresAt: parseExpiry(input.expiresAt, now),
    revokedAt: null,
    lastUsedAt: null,
    created: now,
  };
  await insertKey(deps.db, key);
  return { key: toApiKeyResource(key), secret };
}

/**
 * Revocation is immediate: the revoking node forgets the key before answering, and every other
 * node hears of it when the revocation commits (the key cache listens on PostgreSQL).
 */
export async function revokeApiKey(
  deps: Pick<Deps, 'db' | 'clock'>,
  id: string,
  options: { companyId?: string } = {},
): Promise<ApiKeyResource> {
  const key = await inTransaction(deps.db, null, async (tx) => {
    // From the dashboard, the key must be the company's: a key of another company is not found.
    const revoked = await markRevoked(tx, id, deps.clock.now(), options.companyId);
    if (revoked) await announceAuthChange(tx, `key:${id}`);
    return revoked;
  });
  if (!key) throw refuse('not_found', `No API key ${id}.`);
  // Again after the commit: a request of this node that read the key before it may have cached it.
  forgetInThisProcess(`key:${id}`);
  return toApiKeyResource(key);
}

export async function listApiKeys(deps: Pick<Deps, 'db'>, companyId: string): Promise<ApiKeyResource[]> {
  await getCompany(deps, companyId);
  return (await listKeys(deps.db, companyId)).map(toApiKeyResource);
}

export type Authentication =
  { ok: true; key: ApiKey; company: KeyWithCompany['company'] } | { ok: false; error: ApiError };

const lastUsedWrites = new Map<string, number>();
const lastUsedResolutionMs = 60_000;

/** Checks a presented secret: format, existence, revocation, expiry. Never throws for a bad key. */
export async function authenticateSecret(
  deps: Pick<Deps, 'pool' | 'fast' | 'log' | 'keyCache'>,
  secret: string,
  now: Date,
): Promise<Authentication> {
  if (livemodeOfSecret(secret) === null) return { ok: false, error: new ApiError('invalid_api_key') };
  const hash = hashSecret(secret);
  let found = deps.keyCache.get(hash, now.getTime());
  if (!found) {
    const epoch = deps.keyCache.epoch;
    found = await findKeyByHash(deps.pool, hash);
    // Only usable keys are kept: a revoked or expired one is read again, and refused, each time.
    if (found && !found.key.revokedAt) deps.keyCache.set(hash, found, now.getTime(), epoch);
  }
  if (!found) return { ok: false, error: new ApiError('invalid_api_key') };
  const { key, company } = found;
  if (key.revokedAt) return { ok: false, error: new ApiError('api_key_revoked') };
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) {
    return {
      ok: false,
      error: new ApiError('api_key_expired', { values: { expiresAt: key.expiresAt.toISOString() } }),
    };
  }
  // "Last used" is shown to the minute; writing it on every request would double the cost of a read.
  const lastWrite = lastUsedWrites.get(key.id) ?? key.lastUsedAt?.getTime() ?? 0;
  if (now.getTime() - lastWrite >= lastUsedResolutionMs) {
    lastUsedWrites.set(key.id, now.getTime());
    touchLastUsed(deps.fast.db, key.id, now).catch((error: unknown) =>
      deps.log.warn({ err: error }, 'could not record the key last use'),
    );
  }
  return { ok: true, key, company };
}
