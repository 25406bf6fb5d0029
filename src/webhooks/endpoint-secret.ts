import { randomBytes } from 'node:crypto';

/** Signing secrets: `whsec_` and 32 base64url characters (192 bits). */
export function generateEndpointSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** What later reads show: enough to recognise the secret, never enough to use it. */
export function maskSecret(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}
