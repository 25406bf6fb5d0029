import type { Harness } from '../support/harness.js';
import { isValidSiret } from '../../src/identifiers/siren.js';

/** A mainland seller under the normal regime, every declaration made, valid from 2024 (SIREN 732829320). */
export const mainlandProfile = {
  validFrom: '2024-01-01',
  establishment: { siret: '73282932000017', postalCode: '75002', country: 'FR' },
  vatNumber: 'FR44732829320',
  regime: 'normal',
  vatOnDebits: false,
  ossRegistered: true,
  ereportingPeriodicity: 'monthly',
};

/** The first establishment (`00001`) of a SIREN, with its check digit. */
export function siretOf(siren: string, establishment = '0001'): string {
  for (let digit = 0; digit < 10; digit++) {
    const siret = `${siren}${establishment}${digit}`;
    if (isValidSiret(siret)) return siret;
  }
  throw new Error(`no SIRET for ${siren} ${establishment}`);
}

/** The French VAT number of a SIREN: `FR`, the key (12 + 3 x (SIREN mod 97)) mod 97, the SIREN. */
export function vatNumberOf(siren: string): string {
  return `FR${String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, '0')}${siren}`;
}

/** `mainlandProfile` for the company of `key`: its establishment and VAT number carry the company's SIREN. */
export async function profileFor(
  h: Harness,
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const siren: string = (await h.call('GET', '/v1/account', { key })).data.siren;
  return {
    ...mainlandProfile,
    establishment: { ...mainlandProfile.establishment, siret: siretOf(siren) },
    vatNumber: vatNumberOf(siren),
    ...overrides,
  };
}

export async function withProfile(
  h: Harness,
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const response = await h.call('POST', '/v1/tax-profiles', { key, body: await profileFor(h, key, overrides) });
  if (response.statusCode !== 201) throw new Error(`profile: ${response.body}`);
  return response.data;
}

/** Opens the ledger of the year of `h.clock` covered up to today, with `counted` cents of distance sales. */
export async function withLedger(
  h: Harness,
  key: string,
  options: { counted?: number; electronicServices?: number; previous?: number } = {},
): Promise<{ year: number; today: string }> {
  const today = h.clock.now().toISOString().slice(0, 10);
  const year = Number(today.slice(0, 4));
  const response = await h.call('POST', '/v1/eu-threshold-ledgers', {
    key,
    body: {
      year,
      previousYear: { distanceSales: options.previous ?? 0 },
      opening: {
        distanceSales: options.counted ?? 0,
        electronicServices: options.electronicServices ?? 0,
        coveredUntil: today,
      },
    },
  });
  if (response.statusCode !== 201) throw new Error(`ledger: ${response.body}`);
  return { year, today };
}

export const line = (overrides: Record<string, unknown> = {}) => ({
  description: 'Chaise en chêne',
  quantity: '2',
  unitPrice: '149.00',
  nature: 'goods',
  ...overrides,
});

export const consumer = (country: string, postalCode: string) => ({
  type: 'individual',
  address: { postalCode, country },
});
export const business = (country: string, postalCode: string, vatNumber?: string) => ({
  type: 'company',
  ...(vatNumber ? { vatNumber } : {}),
  address: { postalCode, country },
});
