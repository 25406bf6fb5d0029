import { createHash, randomBytes } from 'node:crypto';

/** An unguessable token for a cookie or a link: 256 bits, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored hashed, so a database read does not yield a usable session or link. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const tokenShape = /^[A-Za-z0-9_-]{43}$/;

export function looksLikeToken(value: string | undefined): value is string {
  return value !== undefined && tokenShape.test(value);
}

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A readable generated password (the demo user's): 20 base62 characters, about 119 bits. */
export function generatePassword(length = 20): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += base62[byte % 62];
    }
  }
  return out;
}
