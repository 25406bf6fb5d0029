import type pg from 'pg';
import type { FastifyInstance } from 'fastify';

/**
 * Whether this node should receive traffic (`GET /readyz`, what a load balancer checks), apart
 * from whether it runs (`GET /healthz`, what a supervisor checks): a node whose database does not
 * answer, or that was asked to stop, is taken out of the rotation while it still serves.
 */
export interface Readiness {
  readonly draining: boolean;
  /** From now on the node answers 503 `draining` (a stop signal came); it keeps serving meanwhile. */
  drain(): void;
}

export function createReadiness(): Readiness {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
  };
}

/** How long the database has to answer `select 1` before the node counts as not ready. */
export const databaseCheckMs = 1000;

type NotReadyReason = 'database_unreachable' | 'draining';

/** True when the pool answers `select 1` within `timeoutMs` (a pool that cannot connect fails at once). */
async function databaseAnswers(pool: pg.Pool, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = pool.query('select 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/readyz` and `/healthz`, outside /v1: internal calls, no key, no rate limit (Limits, rule 2),
 * hidden from the OpenAPI document. Liveness never touches the database: a node that lost it is
 * taken out by readiness, not restarted.
 */
export function registerHealthRoutes(app: FastifyInstance, pool: pg.Pool, readiness: Readiness): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    let reason: NotReadyReason | null = readiness.draining ? 'draining' : null;
    if (!reason && !(await databaseAnswers(pool, databaseCheckMs))) reason = 'database_unreachable';
    // Draining may have begun while the database was asked.
    if (readiness.draining) reason = 'draining';
    if (!reason) return { status: 'ready' };
    return reply.code(503).header('cache-control', 'no-store').send({ status: 'not_ready', reason });
  });
  // While draining, each answer closes its connection: a client's keep-alive socket moves to another node.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (readiness.draining) reply.header('connection', 'close');
    return payload;
  });
}
