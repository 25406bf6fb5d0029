import { alertIntervalMs, deactivationAfterMs } from './retry-schedule.js';

export interface EndpointHealth {
  status: string;
  failingSince: Date | null;
  lastAlertAt: Date | null;
}

export interface HealthChange {
  failingSince: Date | null;
  disable: boolean;
  /** The e-mail to send the endpoint's administrator, if any. */
  alert: 'deactivated' | 'delivery_failed' | null;
  lastAlertAt: Date | null;
}

/** After a successful attempt: the run of failures is over. */
export function afterSuccess(health: EndpointHealth): HealthChange {
  return { failingSince: null, disable: false, alert: null, lastAlertAt: health.lastAlertAt };
}

/**
 * After a failed attempt at `at`: an endpoint failing without a break for three days is
 * deactivated (always with an e-mail); a delivery that used its last attempt alerts too, but
 * alerts about one endpoint stay at least 24 hours apart. Pure.
 */
export function afterFailure(health: EndpointHealth, at: Date, exhausted: boolean): HealthChange {
  const failingSince = health.failingSince ?? at;
  const disable = health.status === 'enabled' && at.getTime() - failingSince.getTime() >= deactivationAfterMs;
  const alertDue = health.lastAlertAt === null || at.getTime() - health.lastAlertAt.getTime() >= alertIntervalMs;
  const alert = disable ? 'deactivated' : exhausted && alertDue ? 'delivery_failed' : null;
  return { failingSince, disable, alert, lastAlertAt: alert ? at : health.lastAlertAt };
}
