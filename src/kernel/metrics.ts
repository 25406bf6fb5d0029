import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The service's Prometheus metrics, defined once (prom-client): what every part records, and
 * what `GET /metrics` exposes (src/metrics). One registry per process.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'facteur_' });

export const httpRequestDuration = new Histogram({
  name: 'facteur_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route (its template) and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const rateLimitRefusals = new Counter({
  name: 'facteur_rate_limit_refusals_total',
  help: 'Requests refused with rate_limit_exceeded, by the limit that refused them (key minute or route window).',
  labelNames: ['limit'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveryAttempts = new Counter({
  name: 'facteur_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts recorded, by outcome: delivered, retry (planned again), failed (given up).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const numberingStatementDuration = new Histogram({
  name: 'facteur_numbering_statement_seconds',
  help: "Duration of a finalization's numbering statement, waiting on its series' counter included.",
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  registers: [metricsRegistry],
});

export const documentFileGenerations = new Counter({
  name: 'facteur_document_file_generations_total',
  help: "Generations of a document's files, by outcome: ready, failed (validation or given up: an alert is sent), retry (planned again).",
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const documentFileGenerationDuration = new Histogram({
  name: 'facteur_document_file_generation_seconds',
  help: "Time to build a document's files: CII, official validation, readable PDF and Factur-X.",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});
