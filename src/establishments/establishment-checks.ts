import countries from 'i18n-iso-countries';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { refuse } from '../kernel/errors.js';
import { isValidSiret } from '../identifiers/siren.js';
import type { EstablishmentAddress } from './schema.js';

/** The rules of an establishment's fields, pure: each refusal names its field. */

export interface AddressInput {
  line1: string;
  line2?: string | null | undefined;
  postalCode: string;
  city: string;
  country: string;
}

/** 14 digits with the Luhn key, of the company's own SIREN. */
export function checkSiret(raw: string, companySiren: string): string {
  const siret = raw.replace(/\s+/g, '');
  if (!isValidSiret(siret))
    throw refuse('invalid_field_value', '`siret` must be 14 digits with a valid check digit.', { param: 'siret' });
  if (!siret.startsWith(companySiren))
    throw refuse(
      'invalid_field_value',
      `\`siret\` ${siret} is an establishment of SIREN ${siret.slice(0, 9)}, not of this company (SIREN ${companySiren}).`,
      { param: 'siret' },
    );
  return siret;
}

const text = (value: string | null | undefined) => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/** A full postal address (BG-5): line, postal code valid for its country, city, ISO country. */
export function checkAddress(input: AddressInput): EstablishmentAddress {
  const country = input.country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country) || !countries.isValid(country))
    throw refuse('invalid_field_value', '`address.country` must be an ISO 3166-1 alpha-2 code such as `FR`.', {
      param: 'address.country',
    });
  const line1 = text(input.line1);
  if (line1 === null) throw refuse('invalid_field_value', '`address.line1` is empty.', { param: 'address.line1' });
  const city = text(input.city);
  if (city === null) throw refuse('invalid_field_value', '`address.city` is empty.', { param: 'address.city' });
  const postalCode = input.postalCode.replace(/\s+/g, '');
  if (postalCode === '' || (postcodeValidatorExistsForCountry(country) && !postcodeValidator(postalCode, country)))
    throw refuse('invalid_field_value', `\`address.postalCode\` is not a postal code of ${country}.`, {
      param: 'address.postalCode',
    });
  return { line1, line2: text(input.line2), postalCode, city, country };
}

/** BT-34, scheme 0225: letters, digits and + - _ . (BR-FR-23), at most 125 characters (BR-FR-25). */
export function checkElectronicAddress(raw: string): string {
  const value = raw.trim();
  if (!/^[A-Za-z0-9+\-_.]{1,125}$/.test(value))
    throw refuse(
      'invalid_field_value',
      '`electronicAddress` has 1 to 125 letters, digits and + - _ . (a 0225 electronic address).',
      { param: 'electronicAddress' },
    );
  return value;
}
