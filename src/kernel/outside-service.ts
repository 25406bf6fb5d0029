/**
 * What the account says of an outside service facteur reaches for a company (the directory, VIES,
 * the SMTP server): whether it is configured and how its last exchange went. Health is read from
 * the outcomes the service records anyway, not from a probe at every call: a status route that
 * called Sirene, VIES and SMTP would cost each a request per poll and answer as slowly as the
 * slowest.
 */
export type OutsideServiceStatus = 'operational' | 'failing' | 'unknown' | 'not_configured';

export interface OutsideServiceState {
  configured: boolean;
  /** Who answers: `sirene`, `platform`, `vies`, `smtp`, or `sandbox` (test mode simulates it). */
  provider: string | null;
  status: OutsideServiceStatus;
  /** The last exchange with it for this company and environment. */
  lastExchangeAt: string | null;
  /** Why the last exchange failed, when it did. */
  lastFailure: string | null;
}

export const notConfigured: OutsideServiceState = {
  configured: false,
  provider: null,
  status: 'not_configured',
  lastExchangeAt: null,
  lastFailure: null,
};

/** Test mode: the service is simulated in process, always there. */
export const simulated: OutsideServiceState = {
  configured: true,
  provider: 'sandbox',
  status: 'operational',
  lastExchangeAt: null,
  lastFailure: null,
};

/** A configured service's state from its last exchange (none yet: `unknown`). */
export function stateFromLastExchange(
  provider: string,
  last: { at: Date; failure: string | null } | null,
): OutsideServiceState {
  if (!last) return { configured: true, provider, status: 'unknown', lastExchangeAt: null, lastFailure: null };
  return {
    configured: true,
    provider,
    status: last.failure === null ? 'operational' : 'failing',
    lastExchangeAt: last.at.toISOString(),
    lastFailure: last.failure,
  };
}
