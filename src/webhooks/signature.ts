import { createHmac } from 'node:crypto';

/**
 * `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1=` per
 * active secret (two during the 24 hours after a rotation). The secret is used as its UTF-8 text,
 * as Stripe's verifier does, so `stripe.webhooks.constructEvent` accepts our deliveries.
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  const signed = `${timestamp}.${body}`;
  const signatures = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(signed, 'utf8').digest('hex')}`);
  return [`t=${timestamp}`, ...signatures].join(',');
}
