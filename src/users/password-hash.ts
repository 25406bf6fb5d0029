import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are hashed with scrypt (memory-hard, in node:crypto): N = 2^15, r = 8, p = 1 uses
 * 32 MiB and about 50-100 ms per hash here. The parameters travel with the hash, so they can be
 * raised later without invalidating stored passwords.
 */
const defaults = { N: 2 ** 15, r: 8, p: 1 };
const keyLength = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, defaults);
  return `scrypt$${defaults.N}$${defaults.r}$${defaults.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const stored = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Constant-time check; a malformed or missing hash never matches. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const match = hash ? stored.exec(hash) : null;
  if (!match) {
    // Same work as a real check, so an unknown account is not told apart by timing.
    await derive(password, dummySalt, defaults);
    return false;
  }
  const [, n, r, p, salt, key] = match;
  const expected = Buffer.from(key!, 'base64url');
  const actual = await derive(password, Buffer.from(salt!, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const dummySalt = randomBytes(16);
