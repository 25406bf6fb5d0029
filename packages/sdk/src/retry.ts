/**
 * The contract's retry strategy (Errors, "Retry strategy"): 429 waits exactly `Retry-After`;
 * 500 and 502 (and no answer at all) back off 1, 2, 4, 8 s, five attempts in all; 503 backs off
 * 30, 60, 120 s (3.5 minutes, within the five); every other status is final (409 included:
 * another payload under the same key).
 */
const serverErrorDelays = [1000, 2000, 4000, 8000];
const unavailableDelays = [30_000, 60_000, 120_000];
/** How many 429s in a row are waited out before the error is given. */
export const maxRateLimitWaits = 3;

/** The wait before the next attempt, or null when the answer is final. `retries`: how many of this kind so far. */
export function retryDelay(
  status: number | null,
  retries: number,
  retryAfterSeconds: number | undefined,
): number | null {
  if (status === 429)
    return retries < maxRateLimitWaits && retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : null;
  if (status === null || status === 500 || status === 502) return serverErrorDelays[retries] ?? null;
  if (status === 503) return unavailableDelays[retries] ?? null;
  return null;
}

/** `Retry-After` in seconds (the service sends seconds; an HTTP date is read too). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
