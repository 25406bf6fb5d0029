import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import type { Deps } from '../deps.js';
import { metricsRegistry } from '../kernel/metrics.js';
import { deliveryQueueStats } from '../webhooks/service.js';
import { jobQueueStats } from '../jobs/service.js';

/**
 * `GET /metrics`: the Prometheus text format, outside `/v1` and without an API key: a scraper
 * sends `Authorization: Bearer <FACTEUR_METRICS_TOKEN>`. Without that setting the endpoint is off
 * (404, as any unknown path). The queues are measured in the database at each scrape.
 */
export async function metricsRoutes(app: FastifyInstance, { deps }: { deps: Deps }): Promise<void> {
  const token = deps.config.metricsToken;
  if (!token) return;
  const expected = createHash('sha256').update(`Bearer ${token}`).digest();
  const queues = { deliveries: () => deliveryQueueStats(deps), jobs: () => jobQueueStats(deps) };
  const queueRegistry = new Registry();
  const depth = new Gauge({
    name: 'facteur_queue_due_items',
    help: 'Items due now and not taken, by queue (webhook deliveries, jobs).',
    labelNames: ['queue'] as const,
    registers: [queueRegistry],
  });
  const age = new Gauge({
    name: 'facteur_queue_oldest_due_seconds',
    help: 'How long the oldest due item has waited, by queue.',
    labelNames: ['queue'] as const,
    registers: [queueRegistry],
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    // Compared as digests: constant time whatever the length given.
    const given = createHash('sha256')
      .update(request.headers.authorization ?? '')
      .digest();
    if (!timingSafeEqual(given, expected)) {
      reply.header('WWW-Authenticate', 'Bearer realm="facteur-metrics"');
      return reply.code(401).type('text/plain; charset=utf-8').send('A metrics token is required.\n');
    }
    for (const [queue, stats] of Object.entries(queues)) {
      const { due, oldestSeconds } = await stats();
      depth.labels(queue).set(due);
      age.labels(queue).set(oldestSeconds);
    }
    const text = (await metricsRegistry.metrics()) + (await queueRegistry.metrics());
    return reply.type(metricsRegistry.contentType).send(text);
  });
}
