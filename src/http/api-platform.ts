import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { ApiError } from '../kernel/errors.js';
import { authenticateSecret } from '../api-keys/service.js';
import { grants } from '../kernel/scopes.js';
import { countRequest, isRateLimited, registerAuthFailure } from '../limits/service.js';
import { unixSeconds, windowOf } from '../limits/fixed-window.js';
import { beginIdempotent, finishIdempotent, fingerprintOf, markEffect, maxKeyLength } from '../idempotency/service.js';
import { currentVersion, servedVersions } from '../kernel/api-version.js';
import { refuse } from '../kernel/errors.js';
import { scopeTime } from '../kernel/sandbox-clock.js';
import { checkWritesAllowed } from '../subscriptions/subscription-rules.js';

/**
 * The rules every /v1 request obeys, in the contract's order: version, authentication and
 * scope, rate limit, content type, then (after schema validation) idempotency. Each stage
 * throws an ApiError; only the error handler writes the envelope.
 */
export const apiPlatform = fp(
  async (app: FastifyInstance, options: { deps: Deps }) => {
    const { deps } = options;

    app.decorateRequest('auth', null);
    app.decorateRequest('idempotency', null);

    app.addHook('onRequest', async (request, reply) => {
      resolveVersion(request, reply);
      if (request.routeOptions.config.public) return;
      await authenticate(deps, request);
      checkSubscription(request);
      await limitRate(deps, request, reply);
      checkContentType(request);
    });

    // No body is an empty object: a route whose fields are all optional accepts it, and one with
    // required fields names the first missing one rather than refusing "the body".
    app.addHook('preValidation', async (request) => {
      if (request.body === undefined && methodsWithBody.has(request.method)) request.body = {};
    });

    app.addHook('preHandler', async (request, reply) => {
      if (request.method !== 'POST' || !request.auth) return;
      return startIdempotent(deps, request, reply);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const claim = request.idempotency;
      if (!claim || !request.auth) return payload;
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      if (body === null) return payload;
      const contentType = reply.getHeader('content-type');
      try {
        await finishIdempotent(deps, request.auth.scope, claim.key, claim.token, {
          status: reply.statusCode,
          headers: contentType ? { 'content-type': String(contentType) } : {},
          body,
        });
      } catch (error) {
        request.log.error({ err: error }, 'could not store the idempotent response');
      }
      return payload;
    });
  },
  { name: 'facteur-api-platform', fastify: '5.x' },
);

function resolveVersion(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('Service-Version', currentVersion);
  request.apiVersion = currentVersion;
  const asked = [request.headers['service-version'], request.headers['api-version']]
    .flatMap((value) => (Array.isArray(value) ? value : value === undefined ? [] : [value]))
    .map((value) => value.trim());
  if (asked.length === 0) return;
  const unknown = asked.find((value) => !(servedVersions as readonly string[]).includes(value));
  if (unknown !== undefined || new Set(asked).size > 1) {
    const shown = unknown ?? asked.join(', ');
    throw refuse(
      'invalid_field_value',
      `API version "${shown}" is not served. Served versions: ${servedVersions.join(', ')}.`,
      {
        param: 'Service-Version',
        hint: `Send Service-Version: ${currentVersion}, or omit the header to use the current version.`,
      },
    );
  }
  request.apiVersion = asked[0]!;
  reply.header('Service-Version', request.apiVersion);
}

const bearer = /^Bearer +(\S+)$/i;

async function authenticate(deps: Deps, request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization;
  const match = header ? bearer.exec(header.trim()) : null;
  if (!match) throw new ApiError('missing_api_key');
  const now = deps.clock.now();
  const result = await authenticateSecret(deps, match[1]!, now);
  if (!result.ok) {
    // A valid key is never blocked: the address only loses the right to keep guessing.
    const wait = await registerAuthFailure(deps, request.ip, now);
    if (wait !== null) {
      throw new ApiError('rate_limit_exceeded', {
        values: { detail: 'Too many invalid API keys from this address; the block lifts by itself.' },
        headers: { 'Retry-After': String(wait) },
      });
    }
    throw result.error;
  }
  const { key, company } = result;
  const access = request.routeOptions.config.access;
  if (access && !grants(key.scopes, access)) {
    throw new ApiError('scope_insufficient', {
      values: { scope: access === 'full_access' ? 'full access (a key without scopes)' : access },
    });
  }
  request.auth = {
    key,
    company,
    scope: { companyId: company.id, livemode: key.livemode },
    now: scopeTime(now, key.livemode, company.sandboxClockOffsetMs),
  };
}

/**
 * A paused or cancelled subscription blocks writing operations, here and only here. The status
 * comes with the authentication (the key cache, forgotten on every node when it changes).
 */
function checkSubscription(request: FastifyRequest): void {
  if (request.routeOptions.config.openWhenPaused) return;
  checkWritesAllowed(request.auth!.company.subscriptionStatus, request.method);
}

async function limitRate(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const auth = request.auth!;
  const routeLimit = request.routeOptions.config.routeLimit ?? null;
  const livemode = auth.scope.livemode;
  if (!isRateLimited(livemode, request.method) && !(livemode && routeLimit)) return;
  const state = await countRequest(
    deps,
    {
      keyId: auth.key.id,
      livemode,
      plan: auth.company.plan,
      method: request.method,
      routeLimit,
    },
    deps.clock.now(),
  );
  reply.header('X-RateLimit-Limit', String(state.limit));
  reply.header('X-RateLimit-Remaining', String(state.remaining));
  reply.header('X-RateLimit-Reset', String(state.reset));
}

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function checkContentType(request: FastifyRequest): void {
  if (!methodsWithBody.has(request.method)) return;
  const length = Number(request.headers['content-length'] ?? 0);
  if (length === 0 && request.headers['transfer-encoding'] === undefined) return;
  const accepted = request.routeOptions.config.contentTypes ?? ['application/json'];
  const received = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!accepted.includes(received)) {
    const others = accepted.filter((type) => type !== 'application/json');
    throw new ApiError('invalid_content_type', {
      values: { received: received || 'none', accepted: others.length > 0 ? ` (or ${others.join(', ')} here)` : '' },
    });
  }
}

const visibleAscii = /^[\x21-\x7e]+$/;

async function startIdempotent(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? (header[0] ?? '') : header;
  if (key.length === 0 || key.length > maxKeyLength || !visibleAscii.test(key)) {
    throw refuse(
      'invalid_field_value',
      `Idempotency-Key must be 1 to ${maxKeyLength} visible ASCII characters (a UUID v4 is recommended).`,
      { param: 'Idempotency-Key' },
    );
  }
  const scope = request.auth!.scope;
  const begin = await beginIdempotent(
    deps,
    scope,
    key,
    fingerprintOf(request.method, request.url, request.body),
    deps.clock.now(),
  );
  if (begin.kind === 'replay') {
    const { status, headers, body } = begin.response;
    return reply.code(status).headers(headers).header('Idempotent-Replayed', 'true').send(body);
  }
  const token = begin.token;
  request.idempotency = {
    key,
    token,
    markEffect: async (tx) => {
      if (!(await markEffect(tx, scope, key, token))) {
        throw refuse(
          'conflict',
          `Another request took over Idempotency-Key "${key}" while this one ran; this one was rolled back.`,
          { param: 'Idempotency-Key' },
        );
      }
    },
  };
  return undefined;
}

/** The headers every /v1 response carries even when no stage set them. */
export function defaultV1Headers(request: FastifyRequest, reply: FastifyReply, now: Date): void {
  if (!request.url.startsWith('/v1')) return;
  if (!reply.hasHeader('X-RateLimit-Limit')) reply.header('X-RateLimit-Limit', 'not_applied');
  if (!reply.hasHeader('X-RateLimit-Remaining')) reply.header('X-RateLimit-Remaining', 'not_applied');
  if (!reply.hasHeader('X-RateLimit-Reset'))
    reply.header('X-RateLimit-Reset', String(unixSeconds(windowOf(now, 'minute').end)));
}
