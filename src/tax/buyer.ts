import countries from 'i18n-iso-countries';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { ApiError, type Issue } from '../kernel/errors.js';
import { checkVatNumber, normalizeVatNumber } from '../identifiers/vat-number.js';
import {
  countriesWithRegionalTerritories,
  frenchPostalCountries,
  frenchTerritoryConflict,
  vatTerritoryOf,
  type VatTerritory,
} from './vat-territory.js';

/**
 * The buyer of an operation as the engine sees it: a business or a consumer, its VAT number, and
 * the VAT territory of its addresses. Issues follow the contract's table (Errors, `issues` rules):
 * codes and `param` paths under `customer.`, and messages that never quote the address itself.
 */

export interface BuyerAddress {
  postalCode: string | null;
  country: string;
}

export interface BuyerInput {
  type: 'company' | 'individual';
  vatNumber: string | null;
  address: BuyerAddress | null;
  deliveryAddress: BuyerAddress | null;
}

export interface Buyer {
  type: 'company' | 'individual';
  vatNumber: string | null;
  /** The country of the VAT number (`GR` for `EL`, `GB` for `XI`), null without one. */
  vatCountry: string | null;
  billing: VatTerritory | null;
  billingCountry: string | null;
  billingPostalCode: string | null;
  /** Where goods are delivered: the delivery address, else the billing address. */
  delivery: VatTerritory | null;
}

// Spanish provinces are numbered 01 to 52, Portuguese codes run from 1000 to 9999: a code outside is no territory there.
const knownRegionalPostalCodes: Record<string, RegExp> = {
  ES: /^(0[1-9]|[1-4]\d|5[0-2])\d{3}$/,
  PT: /^[1-9]\d{3}(-\d{3})?$/,
};

function territoryIssues(address: BuyerAddress, field: string, issues: Issue[]): VatTerritory | null {
  const country = address.country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country) || !countries.isValid(country)) {
    issues.push({
      code: 'unknown_country_code',
      param: `${field}.country`,
      message: `\`${field}.country\` is not an ISO 3166-1 alpha-2 country code.`,
    });
    return null;
  }
  const postalCode = address.postalCode?.replace(/\s+/g, '') ?? '';
  const param = `${field}.postalCode`;
  if (postalCode === '') {
    if ((frenchPostalCountries as readonly string[]).includes(country)) {
      issues.push({
        code: 'french_postal_code_required',
        param,
        message: `An address in ${country} needs its postal code: several VAT territories share that country code (mainland, Corsica, the overseas departments and collectivities).`,
      });
      return null;
    }
    if (countriesWithRegionalTerritories.includes(country)) {
      issues.push({
        code: 'postal_code_required_for_territory_check',
        param,
        message: `An address in ${country} needs its postal code: part of ${country} lies outside the EU VAT area or has its own rates.`,
      });
      return null;
    }
  } else {
    // The territory rule first: a Paris code under `GP` is a conflict of territories, not a bad Guadeloupe code.
    if (frenchTerritoryConflict(country, postalCode)) {
      issues.push({
        code: 'territory_conflict',
        param: `${field}.country`,
        message: `The postal code of \`${field}\` designates another territory than the country ${country}.`,
      });
      return null;
    }
    if (postcodeValidatorExistsForCountry(country) && !postcodeValidator(postalCode, country)) {
      issues.push({
        code: 'invalid_postal_code',
        param,
        message: `The postal code of \`${field}\` is not valid for ${country}.`,
      });
      return null;
    }
    const known = knownRegionalPostalCodes[country];
    if (known && !known.test(postalCode)) {
      issues.push({
        code: 'unknown_regional_postal_territory',
        param,
        message: `The postal code of \`${field}\` designates no known territory of ${country}.`,
      });
      return null;
    }
  }
  const result = vatTerritoryOf(country, postalCode === '' ? null : postalCode);
  if (!result.ok) {
    const message =
      result.code === 'territory_conflict'
        ? `The postal code of \`${field}\` designates another territory than the country ${country}.`
        : `The postal code of \`${field}\` designates no known French territory.`;
    issues.push({ code: result.code, param: `${field}.${result.param}`, message });
    return null;
  }
  return result.territory;
}

/** Resolves the buyer, or throws the refusal with its issues (`invalid_field_value` for a country, `validation_error` otherwise). */
export function resolveBuyer(input: BuyerInput): Buyer {
  const issues: Issue[] = [];
  const billing = input.address ? territoryIssues(input.address, 'customer.address', issues) : null;
  const delivery = input.deliveryAddress
    ? territoryIssues(input.deliveryAddress, 'customer.deliveryAddress', issues)
    : billing;
  let vatNumber: string | null = null;
  let vatCountry: string | null = null;
  if (input.vatNumber) {
    const checked = checkVatNumber(input.vatNumber);
    if (!checked.ok) {
      issues.push({
        code: 'invalid_field_value',
        param: 'customer.vatNumber',
        message: `\`customer.vatNumber\` is not a valid VAT number: its format or check digits are wrong.`,
      });
    } else {
      vatNumber = normalizeVatNumber(input.vatNumber);
      vatCountry = vatNumber.startsWith('XI') ? 'GB' : checked.country;
    }
  }
  if (issues.length > 0) {
    const first = issues[0]!;
    const code =
      first.code === 'unknown_country_code' || first.code === 'invalid_field_value'
        ? 'invalid_field_value'
        : 'validation_error';
    throw new ApiError(code, {
      param: first.param ?? undefined,
      values: {
        detail:
          issues.length === 1
            ? first.message
            : `The buyer has ${issues.length} problems: ${issues.map((issue) => issue.param).join(', ')}.`,
      },
      issues,
    });
  }
  return {
    type: input.type,
    vatNumber,
    vatCountry,
    billing,
    billingCountry: input.address ? input.address.country.trim().toUpperCase() : null,
    billingPostalCode: input.address?.postalCode?.replace(/\s+/g, '') || null,
    delivery,
  };
}

/** The territory of a country named by evidence, with the billing postal code when it is in that country. */
export function evidenceTerritory(buyer: Buyer, country: string): VatTerritory | { issue: Issue } {
  if (buyer.billing && buyer.billingCountry === country) return buyer.billing;
  if (
    (frenchPostalCountries as readonly string[]).includes(country) ||
    countriesWithRegionalTerritories.includes(country)
  ) {
    return {
      issue: {
        code: 'postal_code_required_for_territory_check',
        param: 'customer.address.postalCode',
        message: `The evidence places the consumer in ${country}, where the postal code decides the VAT territory; give the consumer's address in ${country}.`,
      },
    };
  }
  const result = vatTerritoryOf(country, null);
  if (!result.ok)
    return {
      issue: {
        code: result.code,
        param: 'customer.address.postalCode',
        message: `The evidence places the consumer in ${country}, whose VAT territory needs a postal code.`,
      },
    };
  return result.territory;
}
