import countries from 'i18n-iso-countries';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { isValidSiret } from '../identifiers/siren.js';
import { checkVatNumber, normalizeVatNumber, sirenOfVatNumber } from '../identifiers/vat-number.js';
import { frenchTerritoryConflict, vatTerritoryOf, type TerritoryResult } from '../tax/vat-territory.js';
import { getCompany } from '../companies/service.js';
import { isEstablishmentSiret } from '../establishments/service.js';
import type { Establishment } from './schema.js';
import { mapLookup, type Lookup } from '../db/lookup.js';
import type { SQL } from 'drizzle-orm';
import {
  coveringLookup,
  deleteScopeTaxProfiles,
  findTaxProfile,
  insertTaxProfile,
  lockScopeProfiles,
  overlappingProfiles,
  pageTaxProfiles,
  updateTaxProfile,
  type TaxProfileRow,
  lookedUpProfileSiret as profileSiretColumn,
} from './store.js';

/**
 * The seller's tax profile: dated revisions that never overlap. The engine reads the one revision
 * covering an operation's date; a declaration left null is "not declared" and refused where a
 * decision needs it (`tax_profile_incomplete`), never assumed.
 */

export const regimes = ['normal', 'simplified', 'franchise'] as const;
export type Regime = (typeof regimes)[number];
/**
 * E-reporting periodicity by VAT regime (research/fr-einvoicing-domain.md section 5, "Periodicity"):
 * réel normal mensuel three times a month (by ten days), réel normal trimestriel monthly, régime
 * simplifié monthly, franchise en base every two months.
 */
export const periodicities = ['three_per_month', 'monthly', 'bimonthly'] as const;
export type Periodicity = (typeof periodicities)[number];
const periodicityOf: Record<Regime, readonly Periodicity[]> = {
  normal: ['three_per_month', 'monthly'],
  simplified: ['monthly'],
  franchise: ['bimonthly'],
};

export interface TaxProfile {
  id: string;
  object: 'tax_profile';
  livemode: boolean;
  validFrom: string;
  validTo: string | null;
  establishment: Establishment & { territory: string | null };
  vatNumber: string | null;
  regime: Regime | null;
  vatOnDebits: boolean | null;
  ossRegistered: boolean | null;
  ereportingPeriodicity: Periodicity | null;
  created: string;
  updated: string;
}

export interface TaxProfileInput {
  validFrom: string;
  validTo?: string | null | undefined;
  establishment: { siret?: string | null | undefined; postalCode?: string | null | undefined; country: string };
  vatNumber?: string | null | undefined;
  regime?: Regime | null | undefined;
  vatOnDebits?: boolean | null | undefined;
  ossRegistered?: boolean | null | undefined;
  ereportingPeriodicity?: Periodicity | null | undefined;
}

/** The VAT territory of the establishment (`FR`, `FR-COR`, `FR-GP`...), or why it has none. */
export function establishmentTerritory(establishment: Establishment): TerritoryResult {
  return vatTerritoryOf(establishment.country, establishment.postalCode);
}

export function toTaxProfile(row: TaxProfileRow): TaxProfile {
  const territory = establishmentTerritory(row.establishment);
  return {
    id: row.id,
    object: 'tax_profile',
    livemode: row.livemode,
    validFrom: row.validFrom,
    validTo: row.validTo,
    establishment: { ...row.establishment, territory: territory.ok ? territory.territory.id : null },
    vatNumber: row.vatNumber,
    regime: row.regime as Regime | null,
    vatOnDebits: row.vatOnDebits,
    ossRegistered: row.ossRegistered,
    ereportingPeriodicity: row.ereportingPeriodicity as Periodicity | null,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

/**
 * Checks a revision of the company whose SIREN is `companySiren`: its establishment and its VAT
 * number are the company's own (a SIRET starts with the SIREN of its company).
 */
function checkProfile(
  input: TaxProfileInput,
  companySiren: string,
): Omit<TaxProfileRow, 'companyId' | 'livemode' | 'id' | 'created' | 'updated'> {
  const validTo = input.validTo ?? null;
  if (validTo !== null && validTo < input.validFrom)
    throw refuse('invalid_field_value', `\`validTo\` ${validTo} is before \`validFrom\` ${input.validFrom}.`, {
      param: 'validTo',
    });
  const country = input.establishment.country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country) || !countries.isValid(country)) {
    throw refuse(
      'invalid_field_value',
      '`establishment.country` must be an ISO 3166-1 alpha-2 country code such as `FR`.',
      { param: 'establishment.country' },
    );
  }
  const postalCode = input.establishment.postalCode?.replace(/\s+/g, '') || null;
  // The territory rule before the country's pattern: a Paris code under `GP` is a conflict, not a bad code.
  const conflict = frenchTerritoryConflict(country, postalCode);
  if (conflict)
    throw refuse('validation_error', `${conflict.message} Check \`establishment.country\`.`, {
      param: 'establishment.country',
    });
  if (postalCode !== null && postcodeValidatorExistsForCountry(country) && !postcodeValidator(postalCode, country)) {
    throw refuse('validation_error', `\`establishment.postalCode\` is not a postal code of ${country}.`, {
      param: 'establishment.postalCode',
    });
  }
  const siret = input.establishment.siret?.replace(/\s+/g, '') || null;
  if (siret !== null && !isValidSiret(siret))
    throw refuse('validation_error', '`establishment.siret` must be 14 digits with a valid check digit.', {
      param: 'establishment.siret',
    });
  if (siret !== null && siret.slice(0, 9) !== companySiren)
    throw refuse(
      'validation_error',
      `\`establishment.siret\` ${siret} is an establishment of SIREN ${siret.slice(0, 9)}, not of this company (SIREN ${companySiren}); give one of the company's own establishments.`,
      { param: 'establishment.siret' },
    );
  let vatNumber: string | null = null;
  if (input.vatNumber) {
    const checked = checkVatNumber(input.vatNumber);
    if (!checked.ok) throw refuse('validation_error', `\`vatNumber\`: ${checked.message}`, { param: 'vatNumber' });
    vatNumber = normalizeVatNumber(input.vatNumber);
    if (!vatNumber.startsWith('FR'))
      throw refuse('validation_error', '`vatNumber` of an establishment in France is a French number (`FR`...).', {
        param: 'vatNumber',
      });
    const siren = sirenOfVatNumber(vatNumber);
    if (siren !== null && siren !== companySiren)
      throw refuse(
        'validation_error',
        `\`vatNumber\` carries SIREN ${siren}, not this company's (SIREN ${companySiren}).`,
        { param: 'vatNumber' },
      );
  }
  const regime = input.regime ?? null;
  const periodicity = input.ereportingPeriodicity ?? null;
  if (regime !== null && periodicity !== null && !periodicityOf[regime].includes(periodicity)) {
    throw refuse(
      'validation_error',
      `The ${regime} regime reports ${periodicityOf[regime].join(' or ')}, not ${periodicity}.`,
      { param: 'ereportingPeriodicity' },
    );
  }
  return {
    validFrom: input.validFrom,
    validTo,
    establishment: { siret, postalCode, country },
    vatNumber,
    regime,
    vatOnDebits: input.vatOnDebits ?? null,
    ossRegistered: input.ossRegistered ?? null,
    ereportingPeriodicity: periodicity,
  };
}

function ambiguous(others: TaxProfileRow[], from: string, to: string | null, param: string) {
  return refuse(
    'tax_profile_ambiguous',
    `Revision(s) ${others.map((row) => `${row.id} (${row.validFrom} to ${row.validTo ?? 'open'})`).join(', ')} already cover part of ${from} to ${to ?? 'open'}; revisions never overlap. Close the earlier one with \`validTo\` first.`,
    { param },
  );
}

export async function createTaxProfile(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  input: TaxProfileInput,
): Promise<TaxProfile> {
  const company = await getCompany(deps, ctx.scope.companyId);
  const fields = checkProfile(input, company.siren);
  // The establishment a revision names is one of the company's in this environment: the seller
  // block of every document it decides is that establishment's.
  const siret = fields.establishment.siret;
  if (siret !== null && !(await isEstablishmentSiret(deps.db, ctx.scope, siret)))
    throw refuse(
      'invalid_field_value',
      `\`establishment.siret\` ${siret} is not one of the company's establishments in this environment; declare it first with \`POST /v1/establishments\`.`,
      { param: 'establishment.siret' },
    );
  const row: TaxProfileRow = {
    ...ctx.scope,
    id: newId('taxProfile', ctx.now),
    ...fields,
    created: ctx.now,
    updated: ctx.now,
  };
  await inTransaction(deps.db, ctx, async (tx) => {
    await lockScopeProfiles(tx, ctx.scope);
    const others = await overlappingProfiles(tx, ctx.scope, row.validFrom, row.validTo);
    if (others.length > 0) throw ambiguous(others, row.validFrom, row.validTo, 'validFrom');
    await insertTaxProfile(tx, row);
  });
  return toTaxProfile(row);
}

const notFound = (id: string) => refuse('not_found', `No tax profile ${id}.`, { param: 'id' });

export async function getTaxProfile(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<TaxProfile> {
  const row = await findTaxProfile(deps.db, scope, id);
  if (!row) throw notFound(id);
  return toTaxProfile(row);
}

/** A revision's declarations never change; only its end (`validTo`) moves, so that a later revision can start. */
export async function setTaxProfileEnd(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
  validTo: string | null,
): Promise<TaxProfile> {
  const row = await inTransaction(deps.db, ctx, async (tx) => {
    await lockScopeProfiles(tx, ctx.scope);
    const current = await findTaxProfile(tx, ctx.scope, id, true);
    if (!current) throw notFound(id);
    if (validTo !== null && validTo < current.validFrom)
      throw refuse('invalid_field_value', `\`validTo\` ${validTo} is before \`validFrom\` ${current.validFrom}.`, {
        param: 'validTo',
      });
    const others = (await overlappingProfiles(tx, ctx.scope, current.validFrom, validTo)).filter(
      (other) => other.id !== id,
    );
    if (others.length > 0) throw ambiguous(others, current.validFrom, validTo, 'validTo');
    return updateTaxProfile(tx, ctx.scope, id, { validTo, updated: ctx.now });
  });
  return toTaxProfile(row);
}

export async function listTaxProfiles(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  date?: string,
): Promise<ListEnvelope<TaxProfile>> {
  const rows = await pageTaxProfiles(deps.db, scope, page, date);
  return toListEnvelope(rows, page, '/v1/tax-profiles', (row) => row.id, toTaxProfile);
}

/** The one revision covering `date`, for the tax engine: `tax_profile_missing` or `tax_profile_ambiguous` otherwise. */
export async function taxProfileFor(db: Executor, scope: Scope, date: string): Promise<TaxProfile> {
  const rows = await overlappingProfiles(db, scope, date, date);
  if (rows.length === 0)
    throw refuse(
      'tax_profile_missing',
      `No tax profile revision covers ${date}; declare one with \`POST /v1/tax-profiles\`. Nothing is guessed.`,
      { param: 'date' },
    );
  if (rows.length > 1)
    throw refuse(
      'tax_profile_ambiguous',
      `Tax profile revisions ${rows.map((row) => row.id).join(' and ')} both cover ${date}; nothing is guessed. Close one with \`validTo\`.`,
      { param: 'date' },
    );
  return toTaxProfile(rows[0]!);
}

/** The one revision covering `date`, or null when none or several do (the finalization's seller block). */
export async function profileCovering(db: Executor, scope: Scope, date: string): Promise<TaxProfile | null> {
  const rows = await overlappingProfiles(db, scope, date, date);
  return rows.length === 1 ? toTaxProfile(rows[0]!) : null;
}

/**
 * `profileCovering` as a lookup of a bigger statement, on a date the statement gives (an earlier
 * lookup's column); `lookedUpProfileSiret` is its establishment's SIRET for a later lookup.
 */
export function profileCoveringLookup(scope: Scope, date: SQL): Lookup<TaxProfile | null> {
  return mapLookup(coveringLookup(scope, date), (row) => row && toTaxProfile(row));
}
/** The SIRET of the profile a `profileCoveringLookup` found, as a column of the caller's statement (null when none covers). */
export const lookedUpProfileSiret: SQL = profileSiretColumn;

/** Sandbox reset: every test revision goes. */
export async function purgeTestTaxProfiles(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live tax profiles');
  return deleteScopeTaxProfiles(tx, scope);
}
