import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { sealContext, sealedColumns } from '../db/sealed-columns.js';
import { encryptionKeyOf, openSecret, sealSecret } from '../kernel/sealed-secret.js';

/** Signing secrets: `whsec_` and 32 base64url characters (192 bits). */
export function generateEndpointSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** What later reads show: enough to recognise the secret, never enough to use it. */
export function maskSecret(hint: string): string {
  return `whsec_…${hint}`;
}

/** The last characters of a secret that its mask shows. */
export const secretHintOf = (secret: string) => secret.slice(-4);

type KeyConfig = Pick<Config, 'encryptionKey' | 'dataDir'>;
type EndpointKey = { companyId: string; id: string };
type Slot = 'secret' | 'previousSecret';

const columnOf = (slot: Slot) =>
  slot === 'secret' ? sealedColumns.webhookSecret : sealedColumns.webhookPreviousSecret;

/** A secret sealed for one endpoint's current or previous slot: moved to another row or slot, it does not open. */
export function sealEndpointSecret(config: KeyConfig, endpoint: EndpointKey, slot: Slot, secret: string): string {
  return sealSecret(encryptionKeyOf(config), secret, sealContext(columnOf(slot), [endpoint.companyId, endpoint.id]));
}

/**
 * A stored secret in clear. A `whsec_` value is a row written in clear before migration 0025 that
 * the start has not sealed yet (db/sealed-columns.ts): used as it is.
 */
export function openEndpointSecret(config: KeyConfig, endpoint: EndpointKey, slot: Slot, stored: string): string {
  if (stored.startsWith('whsec_')) return stored;
  return openSecret(encryptionKeyOf(config), stored, sealContext(columnOf(slot), [endpoint.companyId, endpoint.id]));
}

/** The secrets that sign a delivery now: the current one, and the previous one during the day after a rotation. */
export function signingSecretsOf(
  config: KeyConfig,
  endpoint: EndpointKey & { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const current = openEndpointSecret(config, endpoint, 'secret', endpoint.secret);
  return endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now
    ? [current, openEndpointSecret(config, endpoint, 'previousSecret', endpoint.previousSecret)]
    : [current];
}
