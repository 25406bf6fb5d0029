import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Secrets the service must use in clear (a platform's OAuth2 client secret, a platform's callback
 * signing key, a webhook endpoint's signing secret), kept encrypted at rest: AES-256-GCM with a
 * key from `FACTEUR_ENCRYPTION_KEY` or `FACTEUR_ENCRYPTION_KEY_FILE` (32 bytes, base64 or hex),
 * else from `<dataDir>/encryption.key`, created once with mode 0600.
 *
 * The sealed form is `v2.<iv>.<tag>.<ciphertext>` in base64url, the `context` (the table, column
 * and row it is stored in, `webhook_endpoints.secret:co_…/we_…`) bound as associated data: a value
 * copied to another row or column does not open. `v1.` values (no associated data, written before)
 * still open; the start and the key rotation re-seal them as v2 (db/sealed-columns.ts).
 */

const keys = new Map<string, Buffer>();

export class SealedSecretError extends Error {}

/** Reads a 32-byte key written as 64 hex digits or as base64. */
export function parseEncryptionKey(raw: string): Buffer | null {
  const text = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === 32 ? key : null;
}

/** The key held by a file (a key file of the data directory, a mounted secret). */
export function readEncryptionKeyFile(path: string): Buffer {
  const key = parseEncryptionKey(readFileSync(path, 'utf8'));
  if (!key) throw new SealedSecretError(`${path} does not hold a 32-byte key (64 hex digits or base64).`);
  return key;
}

/** Where the key of an installation without a configured one lives. */
export const dataDirKeyPath = (dataDir: string) => join(dataDir, 'encryption.key');

/** The key of this installation: the configured one, else the data directory's (created on first use). */
export function encryptionKeyOf(config: { encryptionKey: Buffer | null; dataDir: string }): Buffer {
  if (config.encryptionKey) return config.encryptionKey;
  const path = dataDirKeyPath(config.dataDir);
  let key = keys.get(path);
  if (key) return key;
  if (existsSync(path)) key = readEncryptionKeyFile(path);
  else {
    key = randomBytes(32);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  }
  keys.set(path, key);
  return key;
}

/**
 * What the start says in production when the key is the data directory's: whoever copies the
 * data directory (a backup, a volume snapshot) then holds the key with what it protects.
 */
export function encryptionKeyWarning(config: { encryptionKey: Buffer | null; production: boolean }): string | null {
  if (config.encryptionKey || !config.production) return null;
  return (
    'the encryption key of the stored secrets is read from the data directory (encryption.key), beside the ' +
    'data it protects: give it with FACTEUR_ENCRYPTION_KEY or FACTEUR_ENCRYPTION_KEY_FILE, kept apart from the data.'
  );
}

/** True for a value in a sealed form (of any version). */
export function isSealed(value: string): boolean {
  return /^v[12]\./.test(value);
}

export function sealSecret(key: Buffer, secret: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v2', ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))].join('.');
}

/**
 * The secret, or an error when the sealed form was altered, sealed with another key, or (v2)
 * sealed for another row or column than `context`.
 */
export function openSecret(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, ciphertext, extra] = sealed.split('.');
  if ((version !== 'v1' && version !== 'v2') || ciphertext === undefined || extra !== undefined)
    throw new SealedSecretError('not a sealed secret');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
    if (version === 'v2') decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedSecretError(
      'the secret cannot be opened with this installation key (altered, another key, or sealed for another row)',
    );
  }
}
