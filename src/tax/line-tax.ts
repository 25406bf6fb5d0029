import type { Issue } from '../kernel/errors.js';
import {
  canonicalRate,
  destinationStandardRate,
  frenchAreas,
  nationalStandardRate,
  type RateCategory,
} from './rates.js';
import type { Treatment } from './treatments.js';

/**
 * The VAT of one line from its treatment: decided (`taxSource: service`) or checked
 * (`taxSource: integration`). UNCL5305 categories and VATEX pairings: research/eu-vat-domain.md
 * section 5 (BR-CL-17/18/22, BR-x-05..10); French categories BR-FR-15, rates BR-FR-16
 * (research/fr-einvoicing-domain.md section 5); franchise en base, reverse charge, intra-EU supply
 * and export: research/eu-vat-domain.md section 6.
 */

export interface LineTax {
  vatCode: string;
  /** Canonical (`20`, `5.5`); null for category O. */
  vatRate: string | null;
  vatexCode: string | null;
  /** Which legal mention the line calls for. */
  mention: MentionCode | null;
}

export type MentionCode =
  | 'franchise_en_base'
  | 'reverse_charge'
  | 'intra_eu_supply'
  | 'export'
  | 'outside_scope_services'
  | 'outside_scope_electronic_services'
  | 'guyane_mayotte';

export interface SellerRegime {
  regime: 'normal' | 'simplified' | 'franchise';
}

/** A line's outcome: its tax, a refusal reason (an issue of `lines[i]`), or a rate the engine cannot confirm. */
export type LineOutcome =
  | { kind: 'tax'; tax: LineTax }
  | {
      kind: 'refused';
      code: 'invalid_field_value' | 'destination_regional_regime_not_sourced' | 'integration_vat_incoherent';
      param: string;
      message: string;
    }
  | { kind: 'unconfirmed'; message: string };

const fixed = (
  vatCode: string,
  vatRate: string | null,
  vatexCode: string | null,
  mention: MentionCode | null,
): LineTax => ({ vatCode, vatRate, vatexCode, mention });

const franchise = fixed('E', '0', 'VATEX-FR-FRANCHISE', 'franchise_en_base');

/** The category, rate and VATEX the law gives a treatment that does not depend on a rate. */
function fixedTax(treatment: Treatment): LineTax | null {
  switch (treatment.kind) {
    case 'intra_eu_supply':
      return fixed('K', '0', 'VATEX-EU-IC', 'intra_eu_supply');
    case 'reverse_charge':
      return fixed('AE', '0', 'VATEX-EU-AE', 'reverse_charge');
    case 'export':
      return fixed('G', '0', 'VATEX-EU-G', 'export');
    case 'outside_scope':
      return fixed(
        'O',
        null,
        'VATEX-EU-O',
        treatment.basis === 'guyane_mayotte'
          ? 'guyane_mayotte'
          : treatment.basis === 'services_abroad'
            ? 'outside_scope_services'
            : 'outside_scope_electronic_services',
      );
    default:
      return null;
  }
}

/** The destination's standard rate, or why there is none (regional regime not sourced, date not held). */
function destinationRate(
  treatment: Extract<Treatment, { kind: 'destination' }>,
  date: string,
  index: number,
): { rate: string } | LineOutcome {
  const found = destinationStandardRate(treatment.destination.id, treatment.destination.id.slice(0, 2), date);
  if (found.ok) return { rate: found.rate };
  if (found.reason === 'regional_not_sourced') {
    if (treatment.goods) {
      return {
        kind: 'refused',
        code: 'destination_regional_regime_not_sourced',
        param: `lines[${index}]`,
        message: `Line ${index}: the regional regime of ${treatment.destination.id} is not mapped; a distance sale of goods there is refused, never taxed by default.`,
      };
    }
    const national = nationalStandardRate(treatment.destination.id.slice(0, 2), date);
    if (national.ok) return { rate: national.rate };
  }
  return {
    kind: 'refused',
    code: 'invalid_field_value',
    param: 'date',
    message: `No rate of ${treatment.destination.id} is held for ${date} (rates are held from 2024-01-01).`,
  };
}

/** `taxSource: service`: the engine decides. */
export function decideLineTax(
  treatment: Treatment,
  category: RateCategory,
  seller: SellerRegime,
  date: string,
  index: number,
): LineOutcome {
  const given = fixedTax(treatment);
  if (given) return { kind: 'tax', tax: given };
  if (treatment.kind === 'destination') {
    const rate = destinationRate(treatment, date, index);
    if ('kind' in rate) return rate;
    if (category !== 'standard') {
      return {
        kind: 'refused',
        code: 'invalid_field_value',
        param: `lines[${index}].rateCategory`,
        message: `Line ${index}: only the standard rate of ${treatment.destination.id} is held; for a ${category} rate there, use \`taxSource: integration\` with the rate.`,
      };
    }
    return { kind: 'tax', tax: fixed('S', rate.rate, null, null) };
  }
  if (treatment.kind !== 'french')
    return {
      kind: 'refused',
      code: 'invalid_field_value',
      param: `lines[${index}]`,
      message: `Line ${index} has no decided treatment.`,
    };
  if (seller.regime === 'franchise') return { kind: 'tax', tax: franchise };
  const area = frenchAreas[treatment.area];
  if (category === 'zero' || category === 'exempt') {
    return {
      kind: 'refused',
      code: 'invalid_field_value',
      param: `lines[${index}].rateCategory`,
      message: `Line ${index}: a ${category} French supply needs its legal basis (France has no zero rate; an exemption has its CGI article); use \`taxSource: integration\` with \`vatCode\` and \`vatexCode\`.`,
    };
  }
  const rate = area.byCategory[category];
  if (!rate) {
    return {
      kind: 'refused',
      code: 'invalid_field_value',
      param: `lines[${index}].rateCategory`,
      message: `Line ${index}: in ${area.name} the ${category} rate depends on the product (${area.allowed.join(', ')} %); use \`taxSource: integration\` with the rate.`,
    };
  }
  return { kind: 'tax', tax: fixed('S', rate, null, null) };
}

export interface SuppliedTax {
  vatRate: string | null;
  vatCode: string;
  vatexCode: string | null;
}

const categories = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'];
/** VATEX codes BR-CL-22 accepts (research/eu-vat-domain.md section 5), as patterns. */
const vatexCodes =
  /^VATEX-(EU-(79-C|132(-1[A-Q])?|135-1|143(-1([A-L]|FA))?|144|146-1E|148(-[A-G])?|151(-1(A|AA|[B-E]))?|153|159|309|AE|D|F|G|I|IC|J|O)|FR-(FRANCHISE|CNWVAT|AE|CGI261-[1-578]|CGI261[ABC]|CGI261C-[123]|CGI261D-(1|1BIS|[234])|CGI261E-[12]|CGI277A|CGI275|CGI295|298SEXDECIESA))$/;
const pairedVatex: Record<string, string[]> = {
  AE: ['VATEX-EU-AE'],
  K: ['VATEX-EU-IC'],
  G: ['VATEX-EU-G'],
  O: ['VATEX-EU-O'],
};

/** The detectable contradictions of a supplied VAT, whatever the operation (codes, pairings, BR-FR-15/16). */
function shapeProblem(
  supplied: SuppliedTax,
  index: number,
): { field: 'vatRate' | 'vatCode' | 'vatexCode'; message: string } | null {
  const code = (message: string) => ({ field: 'vatCode' as const, message });
  const rateProblem = (message: string) => ({ field: 'vatRate' as const, message });
  const vatex = (message: string) => ({ field: 'vatexCode' as const, message });
  if (!categories.includes(supplied.vatCode))
    return code(
      `Line ${index}: \`vatCode\` must be a UNCL5305 category a French invoice may carry (BR-FR-15: ${categories.join(', ')}).`,
    );
  if (supplied.vatCode === 'O') {
    if (supplied.vatRate !== null)
      return rateProblem(`Line ${index}: category O carries no rate at all (BR-O-05); send \`vatRate: null\`.`);
  } else if (supplied.vatRate === null) {
    return rateProblem(`Line ${index}: category ${supplied.vatCode} needs a \`vatRate\`.`);
  } else if (canonicalRate(supplied.vatRate) === null) {
    return rateProblem(`Line ${index}: \`vatRate\` is a decimal string of a percentage, e.g. "20" or "5.5".`);
  }
  const rate = supplied.vatRate === null ? null : canonicalRate(supplied.vatRate);
  if (supplied.vatCode === 'S' && rate === '0')
    return rateProblem(`Line ${index}: category S needs a rate above zero (BR-S-05).`);
  if (!['S', 'O'].includes(supplied.vatCode) && rate !== '0')
    return rateProblem(`Line ${index}: category ${supplied.vatCode} has a zero rate (BR-${supplied.vatCode}-05).`);
  if (supplied.vatexCode !== null && !vatexCodes.test(supplied.vatexCode))
    return vatex(`Line ${index}: \`vatexCode\` is not a VATEX code of the EN 16931 code list (BR-CL-22).`);
  if (['S', 'Z'].includes(supplied.vatCode) && supplied.vatexCode !== null)
    return vatex(
      `Line ${index}: category ${supplied.vatCode} carries no exemption reason (BR-${supplied.vatCode}-10).`,
    );
  if (supplied.vatCode === 'E' && supplied.vatexCode === null)
    return vatex(`Line ${index}: category E needs its exemption reason as \`vatexCode\` (BR-E-10).`);
  const paired = pairedVatex[supplied.vatCode];
  if (paired && !paired.includes(supplied.vatexCode ?? ''))
    return vatex(`Line ${index}: category ${supplied.vatCode} goes with ${paired.join(' or ')}.`);
  if (supplied.vatCode === 'E' && supplied.vatexCode && Object.values(pairedVatex).flat().includes(supplied.vatexCode))
    return vatex(`Line ${index}: ${supplied.vatexCode} belongs to another category than E.`);
  return null;
}

const incoherent = (index: number, field: 'vatRate' | 'vatCode' | 'vatexCode', message: string): LineOutcome => ({
  kind: 'refused',
  code: 'integration_vat_incoherent',
  param: `lines[${index}].${field}`,
  message,
});

/** `taxSource: integration`: the supplied VAT checked against the same knowledge, never corrected. */
export function checkLineTax(
  treatment: Treatment,
  supplied: SuppliedTax,
  category: RateCategory | undefined,
  seller: SellerRegime,
  date: string,
  index: number,
): LineOutcome {
  const problem = shapeProblem(supplied, index);
  if (problem) return incoherent(index, problem.field, problem.message);
  const rate = supplied.vatRate === null ? null : canonicalRate(supplied.vatRate)!;
  const tax = (mention: MentionCode | null): LineOutcome => ({
    kind: 'tax',
    tax: { vatCode: supplied.vatCode, vatRate: rate, vatexCode: supplied.vatexCode, mention },
  });
  const expected = fixedTax(treatment);
  if (expected) {
    if (supplied.vatCode !== expected.vatCode) {
      return incoherent(
        index,
        'vatCode',
        `Line ${index}: this operation is ${treatment.kind.replace(/_/g, ' ')} (place of supply ${'place' in treatment ? treatment.place : ''}), category ${expected.vatCode} with ${expected.vatexCode}; got ${supplied.vatCode}.`,
      );
    }
    return tax(expected.mention);
  }
  if (treatment.kind === 'destination') {
    if (supplied.vatCode !== 'S')
      return incoherent(
        index,
        'vatCode',
        `Line ${index}: a distance sale taxed in ${treatment.destination.id} is in category S at the destination's rate; got ${supplied.vatCode}.`,
      );
    const found = destinationRate(treatment, date, index);
    if ('kind' in found) return found;
    if (rate !== found.rate)
      return {
        kind: 'unconfirmed',
        message: `Line ${index}: the rate ${rate} % is not the standard rate of ${treatment.destination.id} (${found.rate} %), the only destination rate the engine confirms.`,
      };
    return tax(null);
  }
  if (treatment.kind !== 'french') return incoherent(index, 'vatCode', `Line ${index} has no decided treatment.`);
  const area = frenchAreas[treatment.area];
  if (seller.regime === 'franchise') {
    if (supplied.vatCode !== 'E' || supplied.vatexCode !== 'VATEX-FR-FRANCHISE') {
      return incoherent(
        index,
        'vatCode',
        `Line ${index}: the seller's tax profile declares the franchise en base (art. 293 B du CGI): category E with VATEX-FR-FRANCHISE, rate 0.`,
      );
    }
    return tax('franchise_en_base');
  }
  if (supplied.vatexCode === 'VATEX-FR-FRANCHISE')
    return incoherent(
      index,
      'vatexCode',
      `Line ${index}: VATEX-FR-FRANCHISE needs a seller under the franchise en base; the tax profile declares the ${seller.regime} regime.`,
    );
  if (supplied.vatCode === 'E') return tax(null);
  if (supplied.vatCode !== 'S')
    return incoherent(
      index,
      'vatCode',
      `Line ${index}: a supply taxed in France (${area.name}) is in category S (or E with its exemption); got ${supplied.vatCode}.`,
    );
  if (!area.allowed.includes(rate!)) {
    if (treatment.origin)
      return {
        kind: 'unconfirmed',
        message: `Line ${index}: the rate ${rate} % is none of the seller territory's rates (${area.name}: ${area.allowed.join(', ')} %), and this distance sale is taxed in France.`,
      };
    return incoherent(
      index,
      'vatRate',
      `Line ${index}: ${rate} % is not a rate of ${area.name} (${area.allowed.join(', ')} %).`,
    );
  }
  const categoryRate = category ? area.byCategory[category] : undefined;
  if (categoryRate && categoryRate !== rate)
    return incoherent(
      index,
      'vatRate',
      `Line ${index}: the ${category} rate of ${area.name} is ${categoryRate} %; got ${rate} %.`,
    );
  return tax(null);
}

export type { Issue };
