/**
 * The contract's delivery schedule: attempt 1 at once, then 1 min, 5 min, 30 min and 2 h after
 * each previous failure; five attempts in all (planned delays total 2 h 36 min).
 */
export const maxAttempts = 5;
export const retryDelaysMs = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000] as const;
/** A delivery succeeds on a 2xx within this time. */
export const deliveryTimeoutMs = 30_000;
/** An endpoint failing without a break this long is deactivated. */
export const deactivationAfterMs = 3 * 86_400_000;
/** Alerts about one endpoint are at least this far apart. */
export const alertIntervalMs = 86_400_000;

export type Outcome = { kind: 'delivered'; status: number } | { kind: 'failed'; status: number | null; error: string };

export interface AfterAttempt {
  state: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date | null;
}

/** What follows attempt number `attempt` (1-based), made at `at`, given its outcome. Pure. */
export function afterAttempt(attempt: number, outcome: Outcome, at: Date): AfterAttempt {
  if (outcome.kind === 'delivered') return { state: 'delivered', nextAttemptAt: null };
  if (attempt >= maxAttempts) return { state: 'failed', nextAttemptAt: null };
  return { state: 'pending', nextAttemptAt: new Date(at.getTime() + retryDelaysMs[attempt - 1]!) };
}

/** A 2xx is the only success: 3xx (never followed), 4xx and 5xx are failures. */
export function outcomeOfStatus(status: number): Outcome {
  return status >= 200 && status < 300
    ? { kind: 'delivered', status }
    : { kind: 'failed', status, error: `HTTP ${status}` };
}
