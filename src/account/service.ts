import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { plans, type PlanLimits, type PlanName } from '../kernel/plans.js';
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

export interface Subscription {
  object: 'subscription';
  livemode: boolean;
  plan: PlanName;
  status: 'active';
  limits: PlanLimits;
  usage: { period: string; documents: number; monthlyQuota: number };
}

/** The plan with this month's live usage against its quota (read fresh). */
export async function getSubscription(
  deps: Pick<Deps, 'pool' | 'clock'>,
  scope: Scope,
  company: AccountCompany,
): Promise<Subscription> {
  const usage = await monthlyUsage(deps, company.id, deps.clock.now());
  const limits = plans[company.plan];
  return {
    object: 'subscription',
    livemode: scope.livemode,
    plan: company.plan,
    status: 'active',
    limits,
    usage: { period: usage.period, documents: usage.counts.documents ?? 0, monthlyQuota: limits.monthlyQuota },
  };
}
