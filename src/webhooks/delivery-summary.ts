import type { AttemptRow, DeliveryRow } from './store.js';

export interface AttemptView {
  endpointId: string;
  generation: number;
  attempt: number;
  created: string;
  status: number | null;
  durationMs: number;
  error: string | null;
}

export interface EndpointDeliveryView {
  endpointId: string;
  generation: number;
  state: string;
  attemptCount: number;
  nextRetry: string | null;
}

export interface DeliverySummary {
  deliveries: AttemptView[];
  attemptCount: number;
  generation: number;
  nextRetry: string | null;
  delivered: boolean;
  endpoints: EndpointDeliveryView[];
}

/**
 * The delivery counters of an event (contract: `deliveries`, `attemptCount`, `generation`,
 * `nextRetry`, `delivered`). Counters describe each endpoint's latest generation; `deliveries`
 * keeps every attempt of every generation. An event with no delivery is not delivered. Pure.
 */
export function summarizeDeliveries(deliveries: DeliveryRow[], attempts: AttemptRow[]): DeliverySummary {
  const latest = new Map<string, DeliveryRow>();
  for (const delivery of deliveries) {
    const current = latest.get(delivery.endpointId);
    if (!current || delivery.generation > current.generation) latest.set(delivery.endpointId, delivery);
  }
  const current = [...latest.values()];
  const pending = current
    .filter((d) => d.state === 'pending' && d.nextAttemptAt)
    .map((d) => d.nextAttemptAt!.getTime());
  return {
    deliveries: attempts.map((a) => ({
      endpointId: a.endpointId,
      generation: a.generation,
      attempt: a.attempt,
      created: a.startedAt.toISOString(),
      status: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
    })),
    attemptCount: current.reduce((sum, d) => sum + d.attemptCount, 0),
    generation: current.reduce((max, d) => Math.max(max, d.generation), 0),
    nextRetry: pending.length > 0 ? new Date(Math.min(...pending)).toISOString() : null,
    delivered: current.length > 0 && current.every((d) => d.state === 'delivered'),
    endpoints: current.map((d) => ({
      endpointId: d.endpointId,
      generation: d.generation,
      state: d.state,
      attemptCount: d.attemptCount,
      nextRetry: d.state === 'pending' && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
    })),
  };
}
