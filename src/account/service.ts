import type { Deps } from '../deps.js';
import type { OutsideServiceState } from '../kernel/outside-service.js';
import { directoryServiceState } from '../directory/service.js';
import { viesServiceState } from '../vies/service.js';
import { emailServiceState } from '../mail/service.js';
import { cardPaymentServiceState } from '../card-payments/service.js';
import type { Scope } from '../db/scope.js';
import { plans, type PlanLimits, type PlanName } from '../kernel/plans.js';
import type { ApiKey } from '../api-keys/service.js';
import {
  updateLegalIdentity,
  type CompanySeller,
  type LegalIdentity,
  type LegalIdentityChanges,
} from '../companies/service.js';

export interface Account {
  id: string;
  object: 'account';
  livemode: boolean;
  name: string;
  siren: string;
  plan: string;
  limits: PlanLimits;
  company: { name: string; siren: string } & LegalIdentity;
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

export async function changeIdentity(
  deps: Pick<Deps, 'db'>,
  companyId: string,
  changes: LegalIdentityChanges,
): Promise<CompanySeller> {
  return updateLegalIdentity(deps, companyId, changes);
}

/** The account holder as the calling key sees it, with the company's legal identity. */
export function toAccount(scope: Scope, key: ApiKey, company: AccountCompany, identity: CompanySeller): Account {
  const { id: _id, ...shown } = identity;
  return {
    id: company.id,
    object: 'account',
    livemode: scope.livemode,
    name: company.name,
    siren: company.siren,
    plan: company.plan,
    limits: plans[company.plan],
    company: shown,
    apiKey: { id: key.id, scopes: key.scopes ?? null, expiresAt: key.expiresAt?.toISOString() ?? null },
    created: company.created.toISOString(),
  };
}

export interface AccountServices {
  object: 'account_services';
  livemode: boolean;
  directory: OutsideServiceState;
  vies: OutsideServiceState;
  email: OutsideServiceState;
  cardPayments: OutsideServiceState;
}

/** `GET /v1/account/services`: the outside services facteur reaches for the key's environment, and how they answer. */
export async function accountServices(deps: Pick<Deps, 'db' | 'config'>, scope: Scope): Promise<AccountServices> {
  const [directory, vies, email, cardPayments] = await Promise.all([
    directoryServiceState(deps, scope),
    viesServiceState(deps, scope),
    emailServiceState(deps, scope),
    cardPaymentServiceState(deps, scope),
  ]);
  return { object: 'account_services', livemode: scope.livemode, directory, vies, email, cardPayments };
}
