import type { Deps } from '../deps.js';
import { createCompany, hasAnyCompany } from '../companies/service.js';
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

/**
 * On the very first start (no company at all), a demo company, a test key and a dashboard user,
 * so a new user can call the API and open the dashboard at once.
 */
export async function createDemoAccountIfEmpty(deps: Deps): Promise<DemoAccount | null> {
  if (await hasAnyCompany(deps)) return null;
  const company = await createCompany(deps, { name: 'Démo SARL', siren: '123456782', plan: 'free' });
  const { secret } = await createApiKey(deps, { companyId: company.id, env: 'test' });
  const password = generatePassword();
  await createUserWithPassword(deps, { companyId: company.id, email: demoUserEmail, password });
  return { companyId: company.id, testKey: secret, user: { email: demoUserEmail, password } };
}
