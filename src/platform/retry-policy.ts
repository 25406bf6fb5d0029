/**
 * When a platform call is tried again (contract, "Retry strategy"), as a pure table: the answer
 * of the attempt just made, how many attempts there were and when the first one left, give the
 * wait before the next attempt, or no retry.
 *
 * - 4xx other than 409 and 429: permanent, no retry.
 * - 409: no retry; the platform holds something already (the caller searches for it).
 * - 429: wait exactly `Retry-After` (seconds or an HTTP date); at most 5 attempts.
 * - 500, 502, and the other 5xx but 503, a time-out or a connection failure: 1 s, 2 s, 4 s, 8 s;
 *   at most 5 attempts in all.
 * - 503: 30 s, 60 s, 120 s, every attempt within 5 minutes of the first.
 *
 * A 401 is not here: the connector renews its token once and tries again at once.
 */

export type RetryRule = 'permanent' | 'conflict' | 'retry_after' | 'server_error' | 'unavailable';

export interface FailedAttempt {
  /** The HTTP status, or null when no answer came (time-out, connection failure). */
  httpStatus: number | null;
  /** The `Retry-After` header of a 429 or 503, as received. */
  retryAfter?: string | null;
}

export interface RetryState {
  /** Attempts made so far, the failed one included (1 after the first). */
  attempts: number;
  /** When the first attempt left (ms since the epoch). */
  firstAttemptAt: number;
}

export type RetryDecision = { retry: true; delayMs: number; rule: RetryRule } | { retry: false; rule: RetryRule };

export const serverErrorDelaysMs = [1_000, 2_000, 4_000, 8_000] as const;
export const unavailableDelaysMs = [30_000, 60_000, 120_000] as const;
export const unavailableWindowMs = 5 * 60_000;
export const maxAttempts = 5;

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function ruleOf(attempt: FailedAttempt): RetryRule {
  const status = attempt.httpStatus;
  if (status === null) return 'server_error';
  if (status === 429) return 'retry_after';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'server_error';
  if (status === 409) return 'conflict';
  return 'permanent';
}

export function retryDecision(attempt: FailedAttempt, state: RetryState, now: number): RetryDecision {
  const rule = ruleOf(attempt);
  switch (rule) {
    case 'permanent':
    case 'conflict':
      return { retry: false, rule };
    case 'retry_after': {
      if (state.attempts >= maxAttempts) return { retry: false, rule };
      // Exactly what the platform asked; without a readable header, the server-error schedule.
      const asked = retryAfterMs(attempt.retryAfter, now);
      const delayMs = asked ?? serverErrorDelaysMs[Math.min(state.attempts - 1, serverErrorDelaysMs.length - 1)]!;
      return { retry: true, delayMs, rule };
    }
    case 'server_error': {
      const delayMs = serverErrorDelaysMs[state.attempts - 1];
      return state.attempts < maxAttempts && delayMs !== undefined
        ? { retry: true, delayMs, rule }
        : { retry: false, rule };
    }
    case 'unavailable': {
      const delayMs = unavailableDelaysMs[state.attempts - 1];
      if (delayMs === undefined) return { retry: false, rule };
      if (now + delayMs - state.firstAttemptAt > unavailableWindowMs) return { retry: false, rule };
      return { retry: true, delayMs, rule };
    }
  }
}
