import type { Scope } from '../db/scope.js';
import { plans, type PlanLimits, type PlanName } from '../kernel/plans.js';
import type { ApiKey } from '../api-keys/service.js';

export interface Account {
  id: string;
  object: 'account';
  livemode: boolean;
  name: string;
  siren: string;
  plan: string;
  limits: PlanLimits;
  apiKey: { id: string; scopes: string[] | null; expiresAt: string | null };
  created: string;
}

export interface AccountCompany {
  id: string;
  name: string;
  siren: string;
  plan: PlanName;
  created: Date;
}

/** The account holder as the calling key sees it. Everything comes with the authentication: no read. */
export function toAccount(scope: Scope, key: ApiKey, company: AccountCompany): Account {
  return {
    id: company.id,
    object: 'account',
    livemode: scope.livemode,
    name: company.name,
    siren: company.siren,
    plan: company.plan,
    limits: plans[company.plan],
    apiKey: { id: key.id, scopes: key.scopes ?? null, expiresAt: key.expiresAt?.toISOString() ?? null },
    created: company.created.toISOString(),
  };
}
