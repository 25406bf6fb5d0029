import { refuse } from '../kernel/errors.js';
import { checkVatNumber, normalizeVatNumber, sirenOfVatNumber } from '../identifiers/vat-number.js';

/**
 * The company's legal identity, as a French invoice names its issuer (CGI art. 242 nonies A, Code
 * de commerce R123-237): legal name, form and share capital, RCS or RM registration, VAT number,
 * bank details for transfers and a contact. The rules are pure: each refusal names its field.
 */

import type { LegalIdentity } from '../kernel/legal-identity.js';

export type { LegalIdentity, RegistrationKind } from '../kernel/legal-identity.js';

/** A partial update: a key left out keeps its value, null clears it. */
export type LegalIdentityChanges = {
  [K in keyof LegalIdentity]?: K extends 'registration'
    ? { kind: string; place: string } | null
    : K extends 'contact'
      ? { name?: string | null; email?: string | null; phone?: string | null } | null
      : string | null;
};

const invalid = (param: string, detail: string) => refuse('invalid_field_value', detail, { param });

function textOf(value: string | null | undefined, param: string, max: number): string | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text === '') return null;
  if (text.length > max) throw invalid(param, `\`${param}\` has at most ${max} characters.`);
  return text;
}

/** ISO 13616: the country and key, then the account; the key makes the whole number 1 mod 97. */
export function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

/** ISO 9362: bank, country, location and an optional branch. */
export const isValidBic = (bic: string) => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic);

/** The identity after `changes`, every field checked; `siren` is the company's. */
export function applyIdentityChanges(
  current: LegalIdentity,
  changes: LegalIdentityChanges,
  siren: string,
): LegalIdentity {
  const next: LegalIdentity = { ...current };
  if (changes.legalName !== undefined) {
    const name = textOf(changes.legalName, 'legalName', 200);
    // The legal name is what BR-06 wants on every document: it can change, not vanish.
    if (name === null) throw invalid('legalName', '`legalName` cannot be empty: an invoice names its issuer.');
    next.legalName = name;
  }
  if (changes.tradeName !== undefined) next.tradeName = textOf(changes.tradeName, 'tradeName', 200);
  if (changes.legalForm !== undefined) next.legalForm = textOf(changes.legalForm, 'legalForm', 100);
  if (changes.shareCapital !== undefined) {
    const capital = textOf(changes.shareCapital, 'shareCapital', 20);
    if (capital !== null && !/^\d{1,15}(\.\d{1,2})?$/.test(capital))
      throw invalid(
        'shareCapital',
        '`shareCapital` is an amount in euros as a decimal string, e.g. "10000" or "1500.50".',
      );
    next.shareCapital = capital;
  }
  if (changes.registration !== undefined) {
    const registration = changes.registration;
    if (registration === null) next.registration = null;
    else {
      if (registration.kind !== 'RCS' && registration.kind !== 'RM')
        throw invalid(
          'registration.kind',
          '`registration.kind` is `RCS` (registre du commerce) or `RM` (répertoire des métiers).',
        );
      const place = textOf(registration.place, 'registration.place', 100);
      if (place === null)
        throw invalid('registration.place', '`registration.place` names the city of the registry, e.g. "Paris".');
      next.registration = { kind: registration.kind, place };
    }
  }
  if (changes.vatNumber !== undefined) {
    const raw = textOf(changes.vatNumber, 'vatNumber', 30);
    if (raw === null) next.vatNumber = null;
    else {
      const checked = checkVatNumber(raw);
      if (!checked.ok) throw invalid('vatNumber', `\`vatNumber\`: ${checked.message}`);
      const vatNumber = normalizeVatNumber(raw);
      if (!vatNumber.startsWith('FR') || sirenOfVatNumber(vatNumber) !== siren)
        throw invalid(
          'vatNumber',
          `\`vatNumber\` is the company's French VAT number: \`FR\`, the key of SIREN ${siren}, then the SIREN.`,
        );
      next.vatNumber = vatNumber;
    }
  }
  if (changes.iban !== undefined) {
    const raw = textOf(changes.iban, 'iban', 50);
    const iban = raw === null ? null : raw.replace(/\s+/g, '').toUpperCase();
    if (iban !== null && !isValidIban(iban))
      throw invalid('iban', '`iban` is not an IBAN with a valid key (ISO 13616, mod 97).');
    next.iban = iban;
  }
  if (changes.bic !== undefined) {
    const raw = textOf(changes.bic, 'bic', 11);
    const bic = raw === null ? null : raw.toUpperCase();
    if (bic !== null && !isValidBic(bic)) throw invalid('bic', '`bic` is 8 or 11 characters (ISO 9362).');
    next.bic = bic;
  }
  if (changes.contact !== undefined) {
    const contact = changes.contact;
    if (contact === null) next.contact = null;
    else {
      const email = textOf(contact.email, 'contact.email', 254);
      if (email !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        throw invalid('contact.email', '`contact.email` is not an e-mail address.');
      const phone = textOf(contact.phone, 'contact.phone', 30);
      if (phone !== null && !/^\+?[0-9 ().-]{6,30}$/.test(phone))
        throw invalid('contact.phone', '`contact.phone` has digits, spaces and + ( ) . - only.');
      next.contact = { name: textOf(contact.name, 'contact.name', 200), email, phone };
    }
  }
  return next;
}
