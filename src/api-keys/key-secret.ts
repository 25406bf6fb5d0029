import { createHash, randomBytes } from 'node:crypto';

/** API key secrets: `svc_test_` or `svc_live_` then 32 base62 characters (about 190 bits). */
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const secretPattern = /^svc_(test|live)_[0-9A-Za-z]{32}$/;

export function generateSecret(livemode: boolean): string {
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps the draw uniform.
  let body = '';
  while (body.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < 32) body += base62[byte % 62];
    }
  }
  return `svc_${livemode ? 'live' : 'test'}_${body}`;
}

/** The environment a secret's prefix fixes, or null when it is not a key of ours. */
export function livemodeOfSecret(secret: string): boolean | null {
  const match = secretPattern.exec(secret);
  return match ? match[1] === 'live' : null;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
