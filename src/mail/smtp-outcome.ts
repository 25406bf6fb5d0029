/**
 * What an SMTP failure means for the e-mail. Pure. A 5xx reply is a permanent refusal (RFC 5321
 * §4.2.1: do not repeat the same request): the e-mail is bounced. A 4xx reply, a refused or
 * dropped connection, a time-out or a TLS failure is transient: the e-mail is tried again later.
 */

export type SmtpFailure = { kind: 'retry' | 'bounce'; message: string };

export function smtpFailureOf(error: unknown): SmtpFailure {
  const failure = error as { responseCode?: unknown; response?: unknown; message?: unknown; code?: unknown };
  const text = String(failure.response ?? failure.message ?? error).slice(0, 500);
  const code = typeof failure.responseCode === 'number' ? failure.responseCode : null;
  if (code !== null && code >= 500 && code < 600) return { kind: 'bounce', message: text };
  return { kind: 'retry', message: failure.code ? `${String(failure.code)}: ${text}` : text };
}

/** Minutes before a transient failure is retried: 1, 5, 15, 60, then every 4 hours. */
export function mailRetryDelayMs(attempts: number): number {
  const minutes = [1, 5, 15, 60, 240];
  return minutes[Math.min(Math.max(attempts, 1), minutes.length) - 1]! * 60_000;
}

/** Attempts before a transiently failing e-mail is given up (about ten hours of retries). */
export const maxMailAttempts = 8;
