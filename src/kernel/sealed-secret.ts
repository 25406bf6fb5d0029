import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Secrets the service must give back to a third party (a platform's OAuth2 client secret), kept
 * encrypted at rest: AES-256-GCM with a key from `FACTEUR_ENCRYPTION_KEY` (32 bytes, base64 or
 * hex), else from `<dataDir>/encryption.key`, created once with mode 0600. The sealed form is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url, so a later key or algorithm can be told apart.
 */

const keys = new Map<string, Buffer>();

export class SealedSecretError extends Error {}

/** Reads a 32-byte key written as 64 hex digits or as base64. */
export function parseEncryptionKey(raw: string): Buffer | null {
  const text = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === 32 ? key : null;
}

/** The key of this installation: the configured one, else the data directory's (created on first use). */
export function encryptionKeyOf(config: { encryptionKey: Buffer | null; dataDir: string }): Buffer {
  if (config.encryptionKey) return config.encryptionKey;
  const path = join(config.dataDir, 'encryption.key');
  let key = keys.get(path);
  if (key) return key;
  if (existsSync(path)) {
    key = parseEncryptionKey(readFileSync(path, 'utf8')) ?? undefined;
    if (!key) throw new SealedSecretError(`${path} does not hold a 32-byte key (64 hex digits or base64).`);
  } else {
    key = randomBytes(32);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  }
  keys.set(path, key);
  return key;
}

export function sealSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The secret, or an error when the sealed form was altered or sealed with another key. */
export function openSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || tag === undefined || ciphertext === undefined)
    throw new SealedSecretError('not a sealed secret');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedSecretError('the secret cannot be opened with this installation key (altered, or another key)');
  }
}
