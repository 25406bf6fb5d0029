import type { FastifyRequest } from 'fastify';
import type { ApiKey, KeyWithCompany } from '../api-keys/service.js';
import type { RequiredAccess } from '../kernel/scopes.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import type { Tx } from '../db/database.js';
import type { RouteLimit } from '../limits/service.js';

export interface Authenticated {
  key: ApiKey;
  company: KeyWithCompany['company'];
  scope: Scope;
  /** The time of the scope when the request arrived (the sandbox clock in test mode). */
  now: Date;
}

export interface IdempotencyClaim {
  key: string;
  token: string;
  /** Marks, inside the transaction that commits the effect, that the effect happened. */
  markEffect: (tx: Tx) => Promise<void>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No API key: the route answers anyone (the OpenAPI document). */
    public?: boolean;
    /** What the key must grant; absent means any valid key. */
    access?: RequiredAccess;
    /** A live-only per-route limit of the contract. */
    routeLimit?: RouteLimit;
    /** Media types the route accepts in a body; `application/json` when absent. */
    contentTypes?: string[];
    /**
     * A write that stays open while the subscription is paused or cancelled (the subscription's
     * own routes, exports); every other write then answers `subscription_paused`.
     */
    openWhenPaused?: boolean;
  }
  interface FastifyRequest {
    apiVersion: string;
    auth: Authenticated | null;
    idempotency: IdempotencyClaim | null;
  }
}

/** The authenticated caller, for routes that only run after authentication. */
export function authOf(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new Error('route reached without authentication');
  return request.auth;
}

/** What a service needs to know of the request that calls it. */
export function callContext(request: FastifyRequest): CallContext {
  const auth = authOf(request);
  const claim = request.idempotency;
  return {
    scope: auth.scope,
    requestId: request.id,
    idempotencyKey: claim?.key ?? null,
    apiVersion: request.apiVersion,
    now: auth.now,
    ...(claim ? { markEffect: claim.markEffect } : {}),
  };
}
