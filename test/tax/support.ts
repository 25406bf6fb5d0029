import type { Harness } from '../support/harness.js';

/** A mainland seller under the normal regime, every declaration made, valid from 2024. */
export const mainlandProfile = {
  validFrom: '2024-01-01',
  establishment: { siret: '73282932000017', postalCode: '75002', country: 'FR' },
  vatNumber: 'FR44732829320',
  regime: 'normal',
  vatOnDebits: false,
  ossRegistered: true,
  ereportingPeriodicity: 'monthly',
};

export async function withProfile(
  h: Harness,
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const response = await h.call('POST', '/v1/tax-profiles', { key, body: { ...mainlandProfile, ...overrides } });
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
