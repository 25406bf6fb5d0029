import type { Deps } from '../deps.js';
import { createCompany, hasAnyCompany, updateLegalIdentity } from '../companies/service.js';
import { seedHeadOffices } from '../establishments/service.js';
import { createApiKey } from '../api-keys/service.js';
import { createUserWithPassword } from '../users/service.js';
import { generatePassword } from '../users/tokens.js';

export interface DemoAccount {
  companyId: string;
  testKey: string;
  /** The demo company's dashboard user; the password is shown once, at this start. */
  user: { email: string; password: string };
}

export const demoUserEmail = 'demo@example.com';

/** The demo company's legal identity (fictitious, with valid keys); documented in the README. */
export const demoIdentity = {
  legalName: 'Démo SARL',
  legalForm: 'SARL',
  shareCapital: '5000',
  registration: { kind: 'RCS', place: 'Paris' },
  vatNumber: 'FR11123456782',
  iban: 'FR7630006000011234567890189',
  bic: 'AGRIFRPP',
  contact: { name: null, email: 'factures@demo.example', phone: null },
};

/**
 * On the very first start (no company at all), a demo company, a test key and a dashboard user,
 * so a new user can call the API and open the dashboard at once.
 */
export async function createDemoAccountIfEmpty(deps: Deps): Promise<DemoAccount | null> {
  if (await hasAnyCompany(deps)) return null;
  const company = await createCompany(deps, { name: 'Démo SARL', siren: '123456782', plan: 'free' });
  // A complete seller, so the first invoice finalizes: the legal identity and a head office in each environment.
  await updateLegalIdentity(deps, company.id, demoIdentity);
  await seedHeadOffices(deps, company.id, company.siren);
  const { secret } = await createApiKey(deps, { companyId: company.id, env: 'test' });
  const password = generatePassword();
  await createUserWithPassword(deps, { companyId: company.id, email: demoUserEmail, password });
  return { companyId: company.id, testKey: secret, user: { email: demoUserEmail, password } };
}
