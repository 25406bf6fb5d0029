import type { Deps } from '../deps.js';
import { createCompany, hasAnyCompany } from '../companies/service.js';
import { createApiKey } from '../api-keys/service.js';

export interface DemoAccount {
  companyId: string;
  testKey: string;
}

/** On the very first start (no company at all), a demo company and a test key, so a new user can call the API at once. */
export async function createDemoAccountIfEmpty(deps: Deps): Promise<DemoAccount | null> {
  if (await hasAnyCompany(deps)) return null;
  const company = await createCompany(deps, { name: 'Démo SARL', siren: '123456782', plan: 'free' });
  const { secret } = await createApiKey(deps, { companyId: company.id, env: 'test' });
  return { companyId: company.id, testKey: secret };
}
