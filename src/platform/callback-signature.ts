import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of the flows a platform pushes (AFNOR Flow Service, `createWebhook`): HMAC-SHA256
 * with the webhook's signing key over `<raw JSON body>@<epoch seconds>`, base64, in the header
 * `Afnor-Signature`, the seconds in `Afnor-Signature-Timestamp`. The document describes a
 * "SHA-256 fingerprint" of that concatenation signed by an HMAC; HMAC-SHA256 over the
 * concatenation is that, in one step, and is what both sides here compute. The signing key is the
 * base64 text the platform returned; its decoded bytes are the HMAC key.
 */

export const signatureHeader = 'afnor-signature';
export const signatureTimestampHeader = 'afnor-signature-timestamp';
/** Callbacks older or newer than this (seconds) are refused: a replay, or a clock far off. */
export const signatureToleranceSeconds = 300;

export function signCallback(body: string | Buffer, signingKey: string, timestamp: number): string {
  return createHmac('sha256', Buffer.from(signingKey, 'base64'))
    .update(Buffer.concat([Buffer.isBuffer(body) ? body : Buffer.from(body), Buffer.from(`@${timestamp}`)]))
    .digest('base64');
}

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: string };

/** Checks a pushed callback against the raw body exactly as received, in constant time. */
export function checkCallbackSignature(
  body: string | Buffer,
  headers: Record<string, string | string[] | undefined>,
  signingKey: string,
  nowSeconds: number,
  toleranceSeconds = signatureToleranceSeconds,
): SignatureCheck {
  const one = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const signature = one(signatureHeader);
  const stamp = one(signatureTimestampHeader);
  if (!signature || !stamp) return { ok: false, reason: 'the callback is not signed' };
  if (!/^\d{1,15}$/.test(stamp)) return { ok: false, reason: 'the signature timestamp is not epoch seconds' };
  const timestamp = Number(stamp);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    return { ok: false, reason: 'the signature timestamp is outside the tolerance' };
  const expected = Buffer.from(signCallback(body, signingKey, timestamp), 'base64');
  const given = Buffer.from(signature, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'the signature does not match' };
  return { ok: true, timestamp };
}
