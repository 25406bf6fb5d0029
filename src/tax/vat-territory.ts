import { euMemberStates } from '../identifiers/eu-member-states.js';

/**
 * Which VAT territory an address is in, from its country and postal code: the one place the
 * customers capability (to show it) and the tax engine (to decide) read it. Pure and synchronous.
 *
 * Sources: `research/eu-vat-domain.md` section 2 (Directive 2006/112/EC Art. 6 and 7, CGI art.
 * 294 and 296, the postal-code exceptions of laravel/vat-calculator and ibericode/vat-rates).
 * Rules are checked top to bottom and the first match wins: Saint-Barthélemy (97133) and
 * Saint-Martin (97150) come before the 971 range of Guadeloupe.
 */

/** How French VAT applies in the territory, when it does. */
export type FrenchVatRegime =
  /** Mainland rates (20 / 10 / 5.5 / 2.1); Monaco too (Art. 7: treated as France). */
  | 'mainland'
  /** Corsica: French VAT with the special rates of CGI art. 297. */
  | 'corsica'
  /** Guadeloupe, Martinique, La Réunion: French VAT at the DOM rates (CGI art. 296), outside the EU VAT area. */
  | 'dom'
  /** Guyane, Mayotte: "la TVA n'est provisoirement pas applicable" (CGI art. 294-1). */
  | 'suspended';

export interface VatTerritory {
  /** `FR` (mainland), `FR-COR`, `FR-GP`, ...; `ES-CN` (Canary Islands); an ISO country code elsewhere. */
  id: string;
  name: string;
  /** Inside the EU VAT area for goods and for services (Northern Ireland: goods only). */
  euVatArea: { goods: boolean; services: boolean };
  /** Null where French VAT does not apply. */
  frenchVat: FrenchVatRegime | null;
}

export { euMemberStates };

const inside = { goods: true, services: true };
const outside = { goods: false, services: false };

const t = (
  id: string,
  name: string,
  euVatArea: VatTerritory['euVatArea'],
  frenchVat: FrenchVatRegime | null,
): VatTerritory => ({ id, name, euVatArea, frenchVat });

/** The French territories, by id. */
export const frenchTerritories = {
  mainland: t('FR', 'France (mainland)', inside, 'mainland'),
  corsica: t('FR-COR', 'Corsica', inside, 'corsica'),
  guadeloupe: t('FR-GP', 'Guadeloupe', outside, 'dom'),
  martinique: t('FR-MQ', 'Martinique', outside, 'dom'),
  guyane: t('FR-GF', 'Guyane', outside, 'suspended'),
  reunion: t('FR-RE', 'La Réunion', outside, 'dom'),
  mayotte: t('FR-YT', 'Mayotte', outside, 'suspended'),
  saintBarthelemy: t('FR-BL', 'Saint-Barthélemy', outside, null),
  saintMartin: t('FR-MF', 'Saint-Martin', outside, null),
  saintPierre: t('FR-PM', 'Saint-Pierre-et-Miquelon', outside, null),
  monaco: t('MC', 'Monaco', inside, 'mainland'),
  taaf: t('FR-TF', 'French Southern and Antarctic Lands', outside, null),
  wallis: t('FR-WF', 'Wallis-et-Futuna', outside, null),
  polynesia: t('FR-PF', 'French Polynesia', outside, null),
  newCaledonia: t('FR-NC', 'New Caledonia', outside, null),
} as const;

const fr = frenchTerritories;

/**
 * French postal codes (5 digits) to territories, in order. The ISO code that the territory also
 * has as a country of its own is given, so that `GP` + `97110` and `FR` + `97110` agree.
 */
const frenchPostalRules: { pattern: RegExp; territory: VatTerritory; iso: string }[] = [
  { pattern: /^97133$/, territory: fr.saintBarthelemy, iso: 'BL' },
  { pattern: /^97150$/, territory: fr.saintMartin, iso: 'MF' },
  { pattern: /^971\d\d$/, territory: fr.guadeloupe, iso: 'GP' },
  { pattern: /^972\d\d$/, territory: fr.martinique, iso: 'MQ' },
  { pattern: /^973\d\d$/, territory: fr.guyane, iso: 'GF' },
  { pattern: /^974\d\d$/, territory: fr.reunion, iso: 'RE' },
  { pattern: /^975\d\d$/, territory: fr.saintPierre, iso: 'PM' },
  { pattern: /^976\d\d$/, territory: fr.mayotte, iso: 'YT' },
  { pattern: /^980\d\d$/, territory: fr.monaco, iso: 'MC' },
  { pattern: /^984\d\d$/, territory: fr.taaf, iso: 'TF' },
  { pattern: /^986\d\d$/, territory: fr.wallis, iso: 'WF' },
  { pattern: /^987\d\d$/, territory: fr.polynesia, iso: 'PF' },
  { pattern: /^988\d\d$/, territory: fr.newCaledonia, iso: 'NC' },
  { pattern: /^20\d{3}$/, territory: fr.corsica, iso: 'FR' },
  // Departments 01 to 95, Corsica (20) taken above.
  { pattern: /^(0[1-9]|[1-8]\d|9[0-5])\d{3}$/, territory: fr.mainland, iso: 'FR' },
];

/** Countries whose addresses use French postal codes: France and the territories with an ISO code. */
export const frenchPostalCountries = [
  'FR',
  'GP',
  'MQ',
  'GF',
  'RE',
  'YT',
  'BL',
  'MF',
  'PM',
  'MC',
  'TF',
  'WF',
  'PF',
  'NC',
] as const;

/** Regional exceptions inside other countries (section 2 of the research), by country. */
const regionalRules: Record<string, { pattern: RegExp; territory: VatTerritory }[]> = {
  ES: [
    { pattern: /^(35|38)\d{3}$/, territory: t('ES-CN', 'Canary Islands', outside, null) },
    { pattern: /^51\d{3}$/, territory: t('ES-CE', 'Ceuta', outside, null) },
    { pattern: /^52\d{3}$/, territory: t('ES-ML', 'Melilla', outside, null) },
  ],
  DE: [
    { pattern: /^27498$/, territory: t('DE-HEL', 'Heligoland', outside, null) },
    { pattern: /^78266$/, territory: t('DE-BUS', 'Büsingen am Hochrhein', outside, null) },
  ],
  IT: [
    { pattern: /^23041$/, territory: t('IT-LIV', 'Livigno', outside, null) },
    { pattern: /^22061$/, territory: t('IT-CAM', "Campione d'Italia", outside, null) },
  ],
  GR: [{ pattern: /^63086$/, territory: t('GR-ATH', 'Mount Athos', outside, null) }],
  FI: [{ pattern: /^22\d{3}$/, territory: t('AX', 'Åland', outside, null) }],
  AT: [{ pattern: /^(6691|699[123])$/, territory: t('AT-JM', 'Jungholz and Mittelberg', inside, null) }],
  PT: [
    { pattern: /^9[5-9]\d{2}(-\d{3})?$/, territory: t('PT-20', 'Azores', inside, null) },
    { pattern: /^9[0-4]\d{2}(-\d{3})?$/, territory: t('PT-30', 'Madeira', inside, null) },
  ],
  GB: [{ pattern: /^BT\d/i, territory: t('GB-NIR', 'Northern Ireland', { goods: true, services: false }, null) }],
};

/** Countries where a postal code is needed to tell a regional territory from the rest of the country. */
export const countriesWithRegionalTerritories: readonly string[] = Object.keys(regionalRules);

/** Countries whose every address is outside the EU VAT area though linked to a member state. */
const wholeCountryTerritories: Record<string, VatTerritory> = {
  AX: t('AX', 'Åland', outside, null),
};

export type TerritoryResult =
  | { ok: true; territory: VatTerritory }
  /** The contract's issue codes for tax decisions; the customers capability maps them to its own. */
  | {
      ok: false;
      code: 'french_postal_code_required' | 'unknown_french_postal_territory' | 'territory_conflict';
      param: 'postalCode' | 'country';
      message: string;
    };

/**
 * The VAT territory of an address. `country` is an ISO 3166-1 alpha-2 code (upper case) already
 * known to be valid; `postalCode` may be absent. A country using French postal codes needs one
 * (several VAT territories share the code `FR`); elsewhere the country alone decides unless a
 * regional exception matches.
 */
export function vatTerritoryOf(country: string, postalCode: string | null | undefined): TerritoryResult {
  const code = postalCode?.replace(/\s+/g, '') ?? '';
  if ((frenchPostalCountries as readonly string[]).includes(country)) {
    if (code === '') {
      return {
        ok: false,
        code: 'french_postal_code_required',
        param: 'postalCode',
        message: `A postal code is needed to tell the VAT territory of an address in ${country}.`,
      };
    }
    const rule = frenchPostalRules.find((candidate) => candidate.pattern.test(code));
    if (!rule) {
      return {
        ok: false,
        code: 'unknown_french_postal_territory',
        param: 'postalCode',
        message: `Postal code ${code} matches no French territory.`,
      };
    }
    // `FR` + any French postal code is the usual way to write a DOM or Monaco address; a
    // territory's own ISO code must match the territory its postal code designates.
    if (country !== 'FR' && rule.iso !== country) {
      return {
        ok: false,
        code: 'territory_conflict',
        param: 'country',
        message: `Postal code ${code} is in ${rule.territory.name} (${rule.iso}), not in ${country}.`,
      };
    }
    return { ok: true, territory: rule.territory };
  }
  const whole = wholeCountryTerritories[country];
  if (whole) return { ok: true, territory: whole };
  const regional = regionalRules[country]?.find((candidate) => code !== '' && candidate.pattern.test(code));
  if (regional) return { ok: true, territory: regional.territory };
  const member = (euMemberStates as readonly string[]).includes(country);
  return { ok: true, territory: t(country, country, member ? inside : outside, null) };
}

/**
 * A French postal code under the ISO code of another French territory (`GP` + `75002`, `MQ` +
 * `97110`, `MC` + `75002`): the conflict, or null. Every address check asks this before matching
 * the code against the country's own postal pattern, which would otherwise call it an invalid
 * postal code of that country and hide the contract's `territory_conflict`.
 */
export function frenchTerritoryConflict(
  country: string,
  postalCode: string | null | undefined,
): Extract<TerritoryResult, { ok: false }> | null {
  if (!(frenchPostalCountries as readonly string[]).includes(country)) return null;
  const result = vatTerritoryOf(country, postalCode);
  return !result.ok && result.code === 'territory_conflict' ? result : null;
}

export function isEuMemberState(country: string): boolean {
  return (euMemberStates as readonly string[]).includes(country);
}
