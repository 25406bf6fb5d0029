import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { getCompany } from '../companies/service.js';
import { plans, type PlanLimits } from '../companies/plans.js';
import { monthlyUsage } from '../limits/service.js';
import type { ApiKey } from '../api-keys/service.js';

export interface Account {
  id: string;
  object: 'account';
  livemode: boolean;
  name: string;
  siren: string;
  plan: string;
  limits: PlanLimits;
  usage: { period: string; documents: number };
  apiKey: { id: string; scopes: string[] | null; expiresAt: string | null };
  created: string;
}

/** The account holder as the calling key sees it: company, plan, limits and this month's live usage. */
export async function getAccount(deps: Pick<Deps, 'db' | 'clock'>, scope: Scope, key: ApiKey): Promise<Account> {
  const company = await getCompany(deps, scope.companyId);
  const usage = await monthlyUsage(deps, company.id, deps.clock.now());
  return {
    id: company.id,
    object: 'account',
    livemode: scope.livemode,
    name: company.name,
    siren: company.siren,
    plan: company.plan,
    limits: plans[company.plan],
    usage: { period: usage.period, documents: usage.counts.documents ?? 0 },
    apiKey: { id: key.id, scopes: key.scopes ?? null, expiresAt: key.expiresAt?.toISOString() ?? null },
    created: company.created.toISOString(),
  };
}
