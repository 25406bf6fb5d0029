import type { Deps } from '../deps.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { isValidSiren } from '../identifiers/siren.js';
import { isPlanName, planNames } from '../kernel/plans.js';
import { applyIdentityChanges, type LegalIdentity, type LegalIdentityChanges } from './legal-identity.js';
import {
  advanceSandboxOffset,
  findIdentity,
  updateIdentity,
  identityLookup,
  findCompany,
  findCompanyEmail,
  insertCompany,
  countCompanies,
  listCompanies,
  listCompaniesWithPlan,
  resetSandboxOffset,
  type Company,
} from './store.js';
import type { Executor } from '../db/database.js';
import type { Lookup } from '../db/lookup.js';
import { announceAuthChange, forgetInThisProcess } from '../api-keys/service.js';
import { inTransaction } from '../db/transaction.js';
import { openSubscription } from '../subscriptions/service.js';

export type { Company } from './store.js';
export type { LegalIdentity, LegalIdentityChanges } from './legal-identity.js';

export interface NewCompany {
  name: string;
  siren: string;
  plan?: string;
  /** Where operational e-mails go (failing webhook endpoints). */
  email?: string;
}

export async function createCompany(deps: Pick<Deps, 'db' | 'clock'>, input: NewCompany): Promise<Company> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 200)
    throw refuse('validation_error', 'A company name has 1 to 200 characters.', { param: 'name' });
  if (!isValidSiren(input.siren))
    throw refuse('validation_error', `SIREN "${input.siren}" is not 9 digits with a valid check digit.`, {
      param: 'siren',
    });
  const plan = input.plan ?? 'free';
  if (!isPlanName(plan))
    throw refuse('validation_error', `Plan must be one of ${planNames.join(', ')}.`, { param: 'plan' });
  if (input.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) {
    throw refuse('validation_error', `"${input.email}" is not an e-mail address.`, { param: 'email' });
  }
  const now = deps.clock.now();
  const company: Company = {
    id: newId('company', now),
    name,
    siren: input.siren,
    plan,
    created: now,
    sandboxClockOffsetMs: 0,
  };
  // The company and its subscription (and `subscription.created`) commit together.
  await inTransaction(deps.db, null, async (tx) => {
    await insertCompany(
      tx,
      { id: company.id, name, siren: company.siren, created: now, sandboxClockOffsetMs: 0 },
      input.email ?? null,
    );
    await openSubscription(tx, company.id, plan, now);
  });
  return company;
}

export async function getCompany(deps: Pick<Deps, 'db'>, id: string): Promise<Company> {
  const company = await findCompany(deps.db, id);
  if (!company) throw new ApiError('not_found', { values: { detail: `No company ${id}.` }, param: 'company' });
  return company;
}

export async function hasAnyCompany(deps: Pick<Deps, 'db'>): Promise<boolean> {
  return (await countCompanies(deps.db)) > 0;
}

/**
 * The companies of the database with their plan, oldest first (the first `limit` when given):
 * `facteur company list`, and the start banner that names the one company there is.
 */
export async function companyList(
  deps: Pick<Deps, 'db'>,
  limit?: number,
): Promise<Omit<Company, 'sandboxClockOffsetMs'>[]> {
  return listCompaniesWithPlan(deps.db, limit);
}

/** Companies by id (every one when `ids` is absent): for passes that act per company. */
export async function companiesOf(
  db: Executor,
  ids?: string[],
): Promise<Pick<Company, 'id' | 'siren' | 'sandboxClockOffsetMs'>[]> {
  return listCompanies(db, ids);
}

/** Test mode only: moves the company's sandbox clock forward; returns the new offset in ms. */
export async function advanceSandboxClock(deps: Pick<Deps, 'db'>, companyId: string, ms: number): Promise<number> {
  // Cached authentications carry the offset: the change is announced to every node at commit.
  const offset = await inTransaction(deps.db, null, async (tx) => {
    await announceAuthChange(tx, `company:${companyId}`);
    return advanceSandboxOffset(tx, companyId, ms);
  });
  // Again after the commit: a request of this node that read the company before it may have cached it.
  forgetInThisProcess(`company:${companyId}`);
  return offset;
}

/**
 * In the reset's transaction; the cached offset is forgotten now and again at commit
 * (announced). Returns the offset the clock had, in ms.
 */
export async function resetSandboxClock(tx: Executor, companyId: string): Promise<number> {
  await announceAuthChange(tx, `company:${companyId}`);
  return resetSandboxOffset(tx, companyId);
}

/** Where the company's operational e-mails go (`company create --email`), or null. */
export async function companyEmail(tx: Executor, companyId: string): Promise<string | null> {
  return findCompanyEmail(tx, companyId);
}

/** The company as an invoice names its issuer: name, SIREN and legal identity. */
export interface CompanySeller extends LegalIdentity {
  id: string;
  name: string;
  siren: string;
}

/** Read on the caller's connection (a finalization's transaction, a reset's). */
export async function companySeller(db: Executor, companyId: string): Promise<CompanySeller> {
  const row = await findIdentity(db, companyId);
  if (!row) throw new ApiError('not_found', { values: { detail: `No company ${companyId}.` }, param: 'company' });
  return row;
}

/** `companySeller` as a lookup of a bigger statement (null: no such company). */
export function companySellerLookup(companyId: string): Lookup<CompanySeller | null> {
  return identityLookup(companyId);
}

/**
 * `POST /v1/account`: a partial change of the legal identity (a key left out keeps its value,
 * null clears it). Shared by both environments, like the company; issued documents keep the
 * seller block frozen at their finalization.
 */
export async function updateLegalIdentity(
  deps: Pick<Deps, 'db'>,
  companyId: string,
  changes: LegalIdentityChanges,
): Promise<CompanySeller> {
  const changed = await inTransaction(deps.db, null, async (tx) => {
    const current = await findIdentity(tx, companyId, true);
    if (!current) throw new ApiError('not_found', { values: { detail: `No company ${companyId}.` }, param: 'company' });
    const { id, name, siren, ...identity } = current;
    const next = applyIdentityChanges(identity, changes, siren);
    await updateIdentity(tx, companyId, next);
    // Cached authentications carry the identity (`GET /v1/account`): every node forgets them at commit.
    await announceAuthChange(tx, `company:${companyId}`);
    return { id, name, siren, ...next };
  });
  // Again after the commit: a request of this node that read the company before it may have cached it.
  forgetInThisProcess(`company:${companyId}`);
  return changed;
}
