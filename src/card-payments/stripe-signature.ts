import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stripe's webhook signature (`Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "t.<raw body>">`, several v1 while a secret rolls): valid when one v1 matches under the
 * endpoint's signing secret and the timestamp is within the tolerance of now, Stripe's own
 * default of five minutes, so a captured delivery cannot be replayed later. Pure.
 */
export const signatureToleranceSeconds = 300;

export type SignatureVerdict = { valid: true } | { valid: false; reason: 'malformed' | 'mismatch' | 'stale' };

export function verifyStripeSignature(
  raw: Buffer,
  header: string | undefined,
  secret: string,
  now: Date,
): SignatureVerdict {
  if (!header) return { valid: false, reason: 'malformed' };
  const pairs = header.split(',').map((part) => part.trim().split('=') as [string, string | undefined]);
  const timestamp = pairs.find(([name]) => name === 't')?.[1];
  const signatures = pairs.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value!);
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0)
    return { valid: false, reason: 'malformed' };
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest();
  const matches = signatures.some((signature) => {
    if (!/^[0-9a-f]{64}$/.test(signature)) return false;
    return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
  });
  if (!matches) return { valid: false, reason: 'mismatch' };
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > signatureToleranceSeconds)
    return { valid: false, reason: 'stale' };
  return { valid: true };
}
