import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignatureVerificationError } from './errors.js';
import type { components } from './openapi.js';

export type Event = components['schemas']['Event'];

/** The contract's recommended tolerance, consumer side: a timestamp more than 300 s from our clock is refused. */
export const defaultToleranceSeconds = 300;

/**
 * Checks a delivery's `Service-Signature` (`t=<unix seconds>,v1=<hex>`, one `v1` per active
 * secret) against the raw body exactly as received: HMAC-SHA256 of `<t>.<raw body>` with the
 * endpoint's secret, compared in constant time; then the timestamp against `toleranceSeconds`.
 * Returns the event; throws SignatureVerificationError otherwise.
 */
export function verify(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  toleranceSeconds = defaultToleranceSeconds,
  now: () => number = Date.now,
): Event {
  if (!header) throw new SignatureVerificationError('No Service-Signature header.');
  const pairs = header.split(',').map((part) => {
    const at = part.indexOf('=');
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
  });
  const timestamp = pairs.find(([name]) => name === 't')?.[1];
  const signatures = pairs.filter(([name]) => name === 'v1').map(([, value]) => value);
  if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0)
    throw new SignatureVerificationError('The Service-Signature header is not t=<seconds>,v1=<hex>.');
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), body]))
    .digest();
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new SignatureVerificationError('No signature matches this secret and body.');
  if (Math.abs(now() / 1000 - Number(timestamp)) > toleranceSeconds)
    throw new SignatureVerificationError(`The timestamp is more than ${toleranceSeconds} seconds from this clock.`);
  return JSON.parse(body.toString('utf8')) as Event;
}
