/**
 * The VAT rates the engine holds, each with its source. What is not written here is not known:
 * the engine refuses (or does not take the decision) rather than guessing a rate.
 *
 * Sources (all in `research/`):
 * - French rates: `fr-einvoicing-domain.md` section 7 and `eu-vat-domain.md` sections 1 and 2
 *   (mainland 20 / 10 / 5.5 / 2.1; Corsica CGI art. 297, Legifrance LEGIARTI000033469142: the
 *   mainland rates plus the particular rates 13, 10, 2.1 and 0.9 of listed products; DOM CGI art.
 *   296: 8.5 normal, 2.1 reduced, 1.75 and 1.05 special). BR-FR-16 lists the rates a French
 *   invoice may carry.
 * - Member states' standard rates: `eu-vat-domain.md` section 1 (TEDB via vatnode, dates from
 *   ibericode / sales-tax), regional ones section 2.
 */

/** The rate category a client requests for a line (the products' `vatCategory`). */
export const rateCategories = ['standard', 'intermediate', 'reduced', 'super_reduced', 'zero', 'exempt'] as const;
export type RateCategory = (typeof rateCategories)[number];

/** Where French VAT applies, the set of rates in force. */
export type FrenchRateArea = 'mainland' | 'corsica' | 'dom';

interface FrenchArea {
  name: string;
  /** The rate the engine decides for a requested category; absent: the rate depends on the product. */
  byCategory: Partial<Record<RateCategory, string>>;
  /** Every rate an invoice taxed in this area may carry (what an integration may supply). */
  allowed: readonly string[];
  source: string;
}

export const frenchAreas: Record<FrenchRateArea, FrenchArea> = {
  mainland: {
    name: 'mainland France',
    byCategory: { standard: '20', intermediate: '10', reduced: '5.5', super_reduced: '2.1' },
    allowed: ['20', '10', '5.5', '2.1'],
    source: 'research/fr-einvoicing-domain.md section 7; research/eu-vat-domain.md section 1 (FR)',
  },
  corsica: {
    name: 'Corsica',
    // CGI art. 297 sets particular rates by product (works, electricity, petroleum, medicines,
    // foodstuffs delivered in Corsica...): only the normal rate follows from a category alone.
    byCategory: { standard: '20' },
    allowed: ['20', '13', '10', '5.5', '2.1', '0.9'],
    source: 'research/eu-vat-domain.md section 2 (Corsica, CGI art. 297); research/fr-einvoicing-domain.md section 7',
  },
  dom: {
    name: 'Guadeloupe, Martinique and La Réunion',
    // CGI art. 296: 8.5 normal, 2.1 reduced; 1.75 and 1.05 are special rates of listed operations.
    byCategory: { standard: '8.5', reduced: '2.1' },
    allowed: ['8.5', '2.1', '1.75', '1.05'],
    source: 'research/eu-vat-domain.md section 2 (DOM, CGI art. 296); research/fr-einvoicing-domain.md section 7',
  },
};

/** Rates BR-FR-16 accepts on a French invoice (research/fr-einvoicing-domain.md section 5); every area's rates are among them. */
export const brFr16Rates: readonly string[] = [
  '0',
  '0.9',
  '1.05',
  '1.75',
  '2.1',
  '5.5',
  '8.5',
  '9.2',
  '9.6',
  '10',
  '13',
  '19.6',
  '20',
  '20.6',
  '7',
];

/** Standard rates of the member states, by period (research/eu-vat-domain.md section 1). */
const standardRates: Record<string, { rate: string; from: string }[]> = {
  AT: [{ rate: '20', from: heldFrom() }],
  BE: [{ rate: '21', from: heldFrom() }],
  BG: [{ rate: '20', from: heldFrom() }],
  CY: [{ rate: '19', from: heldFrom() }],
  CZ: [{ rate: '21', from: heldFrom() }],
  DE: [{ rate: '19', from: heldFrom() }],
  DK: [{ rate: '25', from: heldFrom() }],
  EE: [
    { rate: '22', from: heldFrom() },
    { rate: '24', from: '2025-07-01' },
  ],
  ES: [{ rate: '21', from: heldFrom() }],
  FI: [
    { rate: '24', from: heldFrom() },
    { rate: '25.5', from: '2024-09-01' },
  ],
  FR: [{ rate: '20', from: heldFrom() }],
  GR: [{ rate: '24', from: heldFrom() }],
  HR: [{ rate: '25', from: heldFrom() }],
  HU: [{ rate: '27', from: heldFrom() }],
  IE: [{ rate: '23', from: heldFrom() }],
  IT: [{ rate: '22', from: heldFrom() }],
  LT: [{ rate: '21', from: heldFrom() }],
  LU: [{ rate: '17', from: heldFrom() }],
  LV: [{ rate: '21', from: heldFrom() }],
  MT: [{ rate: '18', from: heldFrom() }],
  NL: [{ rate: '21', from: heldFrom() }],
  PL: [{ rate: '23', from: heldFrom() }],
  PT: [{ rate: '23', from: heldFrom() }],
  RO: [
    { rate: '19', from: heldFrom() },
    { rate: '21', from: '2025-08-01' },
  ],
  SE: [{ rate: '25', from: heldFrom() }],
  SI: [{ rate: '22', from: heldFrom() }],
  SK: [
    { rate: '20', from: heldFrom() },
    { rate: '23', from: '2025-01-01' },
  ],
};

/** The rate history is held from this date (the research covers 2024 to 2026). */
function heldFrom(): string {
  return '2024-01-01';
}
export const ratesHeldFrom = heldFrom();

/**
 * Regional regimes inside the EU VAT area (vat-territory.ts): the standard rate where the research
 * read it in a source, null where it did not (Jungholz and Mittelberg: the 19 % is stated without a
 * source; Northern Ireland for goods: a side note without a source). A null regime is "not sourced":
 * `destination_regional_regime_not_sourced`.
 */
export const regionalStandardRates: Record<string, { rate: string; source: string } | null> = {
  'PT-20': {
    rate: '16',
    source: 'research/eu-vat-domain.md section 2 (Azores 16 / 9 / 4 since 2021-07-01) [src pages]',
  },
  'PT-30': { rate: '22', source: 'research/eu-vat-domain.md section 2 (Madeira 22 / 12 / 5) [src pages]' },
  'AT-JM': null,
  'GB-NIR': null,
};

export type DestinationRate =
  { ok: true; rate: string } | { ok: false; reason: 'regional_not_sourced' | 'date_not_held' | 'unknown_country' };

/** The standard rate of a destination territory of the EU VAT area on a date. */
export function destinationStandardRate(territoryId: string, country: string, date: string): DestinationRate {
  if (date < ratesHeldFrom) return { ok: false, reason: 'date_not_held' };
  if (Object.hasOwn(regionalStandardRates, territoryId)) {
    const regional = regionalStandardRates[territoryId];
    return regional ? { ok: true, rate: regional.rate } : { ok: false, reason: 'regional_not_sourced' };
  }
  const periods = standardRates[country];
  if (!periods) return { ok: false, reason: 'unknown_country' };
  const period = [...periods].reverse().find((candidate) => candidate.from <= date);
  return period ? { ok: true, rate: period.rate } : { ok: false, reason: 'date_not_held' };
}

/** The national standard rate (an electronic service to an unsourced regional regime is taxed at it). */
export function nationalStandardRate(country: string, date: string): DestinationRate {
  return destinationStandardRate(country, country, date);
}

/** `20`, `5.5`, `8.50` and `20.0` are the same rate: compare in one canonical form. */
export function canonicalRate(value: string): string | null {
  const match = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(value.trim());
  if (!match) return null;
  const whole = String(Number(match[1]));
  const decimals = (match[2] ?? '').replace(/0+$/, '');
  return decimals ? `${whole}.${decimals}` : whole;
}

/** A rate as shown in responses: two decimals (BR-FR-DEC-04). */
export function displayRate(rate: string): string {
  const [whole, decimals = ''] = rate.split('.');
  return `${whole}.${decimals.padEnd(2, '0')}`;
}
