import type { Capability } from '../capability.js';
import { metricsRoutes } from './routes.js';

/** Metrics for the operator: `GET /metrics` in the Prometheus text format, behind its own token. */
export const metricsCapability: Capability = { name: 'metrics', pages: { routes: metricsRoutes } };
