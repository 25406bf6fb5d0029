import type { Capability } from '../capability.js';
import { endpointRecords, eventRecords } from './data-export.js';
import { createDeliveryWorker } from './delivery-worker.js';
import { eventRoutes, eventSchema, eventWithDeliveriesSchema } from './event-routes.js';
import { endpointSchema, webhookRoutes } from './routes.js';
import { purgeExpiredEvents, purgeTestDeliveries, purgeTestEvents, wakeDeliveryWorkers } from './service.js';

/**
 * Webhooks: the outbox of events every capability writes in its own transaction, the endpoints,
 * and the signed, retried, recorded delivery of each event to each endpoint.
 */
export const webhooksCapability: Capability = {
  name: 'webhooks',
  routes: async (app, options) => {
    await eventRoutes(app, options);
    await webhookRoutes(app, options);
  },
  schemas: [eventSchema, eventWithDeliveriesSchema, endpointSchema],
  published: ['event-types.ts', 'signature.ts', 'endpoint-url.ts'],
  purgeTestData: async (tx, ctx) => ({
    webhookDeliveries: await purgeTestDeliveries(tx, ctx.scope),
    events: await purgeTestEvents(tx, ctx.scope),
  }),
  passes: [
    {
      name: 'webhooks.purge-expired-events',
      everyMs: 10 * 60_000,
      run: (deps) => purgeExpiredEvents(deps, deps.clock.now()),
    },
  ],
  workers: [(deps) => createDeliveryWorker(deps)],
  // Retries planned on the sandbox clock fall due now.
  onSandboxClockMoved: (deps) => wakeDeliveryWorkers(deps),
  dataExport: [
    { name: 'webhook_endpoints', page: endpointRecords },
    { name: 'events', page: eventRecords },
  ],
};
