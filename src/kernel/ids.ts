import { randomBytes } from 'node:crypto';

/**
 * Identifiers are a prefix plus a sortable body: 10 characters of creation time (milliseconds,
 * Crockford base32) then 16 random characters (80 bits). Sorting ids sorts by creation time, so
 * lists ordered "newest first" need a single keyset column and cursors stay cheap.
 */
export const idPrefixes = {
  event: 'evt_',
  request: 'req_',
  invoice: 'inv_',
  creditNote: 'cn_',
  quote: 'qt_',
  customer: 'cus_',
  payment: 'pay_',
  webhookEndpoint: 'we_',
  receivedInvoice: 'rec_',
  ereporting: 'rep_',
  job: 'job_',
  platformInvoice: 'pa_',
  product: 'prod_',
  recurringInvoice: 'rinv_',
  taxDecision: 'txd_',
  ledgerEntry: 'ledg_',
  euThresholdLedger: 'eul_',
  taxProfile: 'txp_',
  establishment: 'est_',
  refund: 'ref_',
  apiKey: 'key_',
  company: 'co_',
  user: 'usr_',
  export: 'exp_',
  delivery: 'del_',
  email: 'em_',
  attachment: 'att_',
} as const;

export type IdKind = keyof typeof idPrefixes;

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
const timeLength = 10;
const randomLength = 16;

function encodeTime(ms: number): string {
  let out = '';
  let rest = Math.max(0, Math.floor(ms));
  for (let i = 0; i < timeLength; i++) {
    out = alphabet[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

// Random bytes drawn 4 KiB at a time: one `randomBytes` call per id costs more than the rest of it.
const poolSize = 4096;
let pool = randomBytes(poolSize);
let poolOffset = 0;

function encodeRandom(): string {
  if (poolOffset + randomLength > poolSize) {
    pool = randomBytes(poolSize);
    poolOffset = 0;
  }
  let out = '';
  for (let i = 0; i < randomLength; i++) out += alphabet[pool[poolOffset + i]! & 31];
  poolOffset += randomLength;
  return out;
}

export function newId(kind: IdKind, at: Date = new Date()): string {
  return idPrefixes[kind] + encodeTime(at.getTime()) + encodeRandom();
}

const bodyPattern = new RegExp(`^[${alphabet}]{${timeLength + randomLength}}$`);

/** True when `value` has the shape of an id of this kind (not that it exists). */
export function isIdOf(kind: IdKind, value: string): boolean {
  const prefix = idPrefixes[kind];
  return value.startsWith(prefix) && bodyPattern.test(value.slice(prefix.length));
}

/** The creation time written into an id, or null when the id is not one of ours. */
export function timeOfId(value: string): Date | null {
  const body = value.slice(value.indexOf('_') + 1);
  if (!bodyPattern.test(body)) return null;
  let ms = 0;
  for (const char of body.slice(0, timeLength)) ms = ms * 32 + alphabet.indexOf(char);
  return new Date(ms);
}
