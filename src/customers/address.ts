import countries from 'i18n-iso-countries';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { refuse } from '../kernel/errors.js';
import { frenchTerritoryConflict, vatTerritoryOf } from '../tax/vat-territory.js';

/** A postal address as stored and shown; `territory` is derived, never sent. */
export interface Address {
  line1: string | null;
  line2: string | null;
  postalCode: string | null;
  city: string | null;
  country: string;
}

export interface AddressInput {
  line1?: string | null | undefined;
  line2?: string | null | undefined;
  postalCode?: string | null | undefined;
  city?: string | null | undefined;
  country: string;
}

const blankToNull = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/** An ISO 3166-1 alpha-2 code in upper case, or null when it is not one. */
export function isoCountry(value: string): string | null {
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code) ? code : null;
}

/**
 * Checks an address named `field` (`address`, `deliveryAddress`) and returns it normalized:
 * an ISO country (`invalid_field_value`), a postal code of that country's syntax, and for the
 * countries using French postal codes, one that designates a known VAT territory of that country
 * (`validation_error`). A French code of another territory than the country (`GP` + `75002`) is
 * refused on `country` first, before the country's pattern would call the code invalid.
 */
export function checkAddress(input: AddressInput, field: string): Address {
  const country = isoCountry(input.country);
  if (!country) {
    throw refuse(
      'invalid_field_value',
      `\`${field}.country\` must be an ISO 3166-1 alpha-2 country code such as \`FR\`; got "${input.country}".`,
      { param: `${field}.country` },
    );
  }
  const postalCode = blankToNull(input.postalCode);
  if (postalCode !== null) {
    const conflict = frenchTerritoryConflict(country, postalCode);
    if (conflict) {
      throw refuse('validation_error', `${conflict.message} Check \`${field}.country\`.`, {
        param: `${field}.country`,
      });
    }
    if (postcodeValidatorExistsForCountry(country) && !postcodeValidator(postalCode, country)) {
      throw refuse('validation_error', `\`${field}.postalCode\` "${postalCode}" is not a postal code of ${country}.`, {
        param: `${field}.postalCode`,
      });
    }
    const territory = vatTerritoryOf(country, postalCode);
    if (!territory.ok) {
      throw refuse('validation_error', `${territory.message} Check \`${field}.${territory.param}\`.`, {
        param: `${field}.${territory.param}`,
      });
    }
  }
  return {
    line1: blankToNull(input.line1),
    line2: blankToNull(input.line2),
    postalCode,
    city: blankToNull(input.city),
    country,
  };
}

/** The VAT territory id of a stored address (`FR`, `FR-COR`, `FR-GP`, `ES-CN`, `DE`...), or null when it needs a postal code it lacks. */
export function territoryOf(address: Address): string | null {
  const result = vatTerritoryOf(address.country, address.postalCode);
  return result.ok ? result.territory.id : null;
}
