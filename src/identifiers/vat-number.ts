import { checkVAT, countries } from 'jsvat';
import { isValidSiren } from './siren.js';
import { euMemberStates } from './eu-member-states.js';

/**
 * VAT identification numbers: syntax and check digits per country, offline. Whether the number
 * is registered (VIES) is another question, answered by `vat_validation_failed` where it is asked.
 *
 * The French key is computed here (numeric keys and the old alphanumeric ones, as python-stdnum
 * does); the other countries use jsvat. Greece is written `EL`, Northern Ireland `XI` (checked as
 * a UK number), as in VIES and BR-CO-09. Sources: `research/eu-vat-domain.md` section 8.
 */

export type VatNumberCheck = { ok: true; value: string; country: string } | { ok: false; message: string };

/** VIES prefixes of the member states (Greece is EL) plus Northern Ireland. */
const euPrefixes = [...euMemberStates.map((country) => (country === 'GR' ? 'EL' : country)), 'XI'];
/** Other countries whose VAT numbers have a checkable format. */
const otherPrefixes = ['GB', 'CH', 'NO', 'RS', 'AD'];

export const vatNumberPrefixes: readonly string[] = [...euPrefixes, ...otherPrefixes];

const alphabet = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

function frenchKeyMatches(key: string, siren: string): boolean {
  if (/^\d\d$/.test(key)) return BigInt(`${siren}12`) % 97n === BigInt(key);
  // Old-style keys contain letters (never I or O).
  const first = alphabet.indexOf(key[0]!);
  const second = alphabet.indexOf(key[1]!);
  if (first < 0 || second < 0) return false;
  const check = /\d/.test(key[0]!) ? first * 24 + second - 10 : first * 34 + second - 100;
  return (Number(siren) + 1 + Math.floor(check / 11)) % 11 === check % 11;
}

function checkFrench(value: string): VatNumberCheck {
  const match = /^FR([0-9A-HJ-NP-Z]{2})(\d{9})$/.exec(value);
  if (!match)
    return {
      ok: false,
      message: 'A French VAT number is `FR`, a two-character key and the 9-digit SIREN (e.g. FR40303265045).',
    };
  const [, key, siren] = match as unknown as [string, string, string];
  // Monaco's numbers carry `000` where a SIREN would be; otherwise the SIREN has its own check digit.
  if (!siren.startsWith('000') && !isValidSiren(siren))
    return { ok: false, message: `The SIREN ${siren} inside the VAT number has a wrong check digit.` };
  if (!frenchKeyMatches(key, siren)) return { ok: false, message: `The key ${key} does not match the SIREN ${siren}.` };
  return { ok: true, value, country: 'FR' };
}

/** Upper case, without spaces, dots or dashes: `fr 40 303.265-045` is `FR40303265045`. */
export function normalizeVatNumber(raw: string): string {
  return raw.toUpperCase().replace(/[\s.\-]/g, '');
}

export function checkVatNumber(raw: string): VatNumberCheck {
  const value = normalizeVatNumber(raw);
  const prefix = value.slice(0, 2);
  if (prefix === 'GR') return { ok: false, message: 'Greek VAT numbers start with `EL`, not `GR`.' };
  if (!vatNumberPrefixes.includes(prefix)) {
    return {
      ok: false,
      message: `A VAT number starts with its country prefix (${euPrefixes.join(', ')}, or ${otherPrefixes.join(', ')}); got "${prefix}".`,
    };
  }
  if (prefix === 'FR') return checkFrench(value);
  const checked = checkVAT(prefix === 'XI' ? `GB${value.slice(2)}` : value, countries);
  if (!checked.isValidFormat) return { ok: false, message: `This is not the format of a ${prefix} VAT number.` };
  if (!checked.isValid) return { ok: false, message: `The check digits of this ${prefix} VAT number are wrong.` };
  return { ok: true, value, country: prefix === 'EL' ? 'GR' : prefix };
}

/** The SIREN written in a French VAT number (null for Monaco's and other countries' numbers). */
export function sirenOfVatNumber(value: string): string | null {
  const match = /^FR[0-9A-Z]{2}(\d{9})$/.exec(value);
  if (!match || match[1]!.startsWith('000')) return null;
  return match[1]!;
}
