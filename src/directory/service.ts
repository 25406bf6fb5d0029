import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { inTransaction } from '../db/transaction.js';
import { platformAccess } from '../establishments/platform-access.js';
import {
  sandboxDirectory,
  type CompanyDirectory,
  type DirectoryEntry,
  type NonDisclosableField,
} from '../customers/directory.js';
import { createSireneClient, type DirectoryAnswer, type SireneClient } from './sirene-client.js';
import {
  deleteDirectoryChecksBefore,
  insertDirectoryCheck,
  latestDirectoryCheck,
  latestScopeDirectoryCheck,
  type DirectoryCheckRow,
} from './store.js';
import {
  notConfigured,
  simulated,
  stateFromLastExchange,
  type OutsideServiceState,
} from '../kernel/outside-service.js';

/**
 * The company directory in live: a SIRET is looked up in INSEE's Sirene API when the operator
 * configured a key (`FACTEUR_SIRENE_API_KEY`), else (or when Sirene does not answer) in the
 * Directory Service of the platform the company's default establishment is connected to. A
 * customer with a SIREN and no SIRET has its legal unit looked up in Sirene.
 *
 * - unknown to Sirene, or closed (Sirene `F` / `C`, the platform's `C`): `siret_not_found` (a SIRET
 *   the platform's directory does not list is only unverified: it lists addresses, not the register);
 * - kept from publication (Sirene `P`, or a 403): the name / the address are marked non-disclosed,
 *   so finalizing is refused with `buyer_identity_not_disclosed`;
 * - nobody answers (no source, 429, 5xx, a time-out): the SIRET is accepted as `unverified`, never
 *   refused and never taken as checked.
 *
 * Answers are kept (`directory_checks`) and reused while fresh: a found / not found for 24 hours,
 * a "no answer" for 5 minutes. Test mode keeps the simulated directory (customers/directory.ts).
 */

export const directoryFreshnessMs = 24 * 3600_000;
export const directoryRetryMs = 5 * 60_000;
/**
 * Look-ups older than this are forgotten: only the last 24 hours serve as cache, and what a
 * customer's SIRET was found to be is kept on the customer; a week is left to read for support.
 */
export const directoryRetentionMs = 7 * 86_400_000;

export type DirectoryDeps = Pick<Deps, 'db' | 'config'> & Partial<Pick<Deps, 'resolveHost'>>;

const clients = new Map<string, SireneClient>();

function sireneOf(config: Deps['config']): SireneClient | null {
  if (!config.sireneApiKey) return null;
  const key = `${config.sireneUrl} ${config.sireneTimeoutMs} ${config.sireneApiKey}`;
  let client = clients.get(key);
  if (!client) {
    client = createSireneClient({
      baseUrl: config.sireneUrl,
      apiKey: config.sireneApiKey,
      timeoutMs: config.sireneTimeoutMs,
    });
    if (clients.size >= 16) clients.clear();
    clients.set(key, client);
  }
  return client;
}

async function askPlatform(deps: DirectoryDeps, scope: Scope, siret: string): Promise<DirectoryAnswer | null> {
  const access = await platformAccess(deps, deps.db, scope, { siret: null });
  if (access.state !== 'connected') return null;
  const answer = await access.connector.lookupFacility(siret, { retryBudgetMs: 0 });
  if (!answer.ok) return { outcome: 'unavailable', failure: `platform: ${answer.paErrorCode}` };
  // A platform's directory lists the addresses registered for e-invoicing, not every SIRET: a
  // SIRET it does not list may exist with no address yet (the contract's `buyer_not_in_directory`,
  // a deposit's concern). Only the register (Sirene) says a SIRET does not exist.
  if (!answer.value) return { outcome: 'unavailable', failure: notListedByPlatform };
  return {
    outcome: 'found',
    closed: !answer.value.active,
    nameHidden: false,
    addressHidden: false,
    legalName: answer.value.name,
  };
}

const noDirectory = 'no directory configured';
/** The platform answered, without the SIRET: not a failure of the directory (the account's health). */
const notListedByPlatform = 'platform: not in its directory (no e-invoicing address yet)';

/**
 * A SIRET: Sirene first (the register itself), the platform's directory when Sirene is not
 * configured or does not answer. A SIREN: Sirene only (the connector has no legal-unit look-up).
 */
async function askDirectory(
  deps: DirectoryDeps,
  scope: Scope,
  identifier: string,
): Promise<{ source: string; answer: DirectoryAnswer }> {
  const sirene = sireneOf(deps.config);
  const isSiren = identifier.length === 9;
  const fromSirene = sirene ? await (isSiren ? sirene.lookupSiren(identifier) : sirene.lookupSiret(identifier)) : null;
  if (fromSirene && fromSirene.outcome !== 'unavailable') return { source: 'sirene', answer: fromSirene };
  const fromPlatform = isSiren ? null : await askPlatform(deps, scope, identifier);
  if (fromPlatform && fromPlatform.outcome !== 'unavailable') return { source: 'platform', answer: fromPlatform };
  const failures = [fromSirene, fromPlatform].flatMap((answer) =>
    answer?.outcome === 'unavailable' ? [answer.failure] : [],
  );
  return {
    source: 'none',
    answer: { outcome: 'unavailable', failure: failures.join('; ') || noDirectory },
  };
}

function rowOf(
  scope: Scope,
  identifier: string,
  source: string,
  answer: DirectoryAnswer,
  now: Date,
): DirectoryCheckRow {
  const found = answer.outcome === 'found' ? answer : null;
  return {
    ...scope,
    identifier,
    source,
    outcome: answer.outcome,
    closed: found?.closed ?? false,
    nameHidden: found?.nameHidden ?? false,
    addressHidden: found?.addressHidden ?? false,
    legalName: found?.legalName ?? null,
    failure: answer.outcome === 'unavailable' ? answer.failure : null,
    checkedAt: now,
  };
}

/** A fresh look-up kept: a found / not found of the last 24 h, a "no answer" of the last minutes. */
async function cachedCheck(deps: DirectoryDeps, scope: Scope, identifier: string, now: Date) {
  const row = await latestDirectoryCheck(deps.db, scope, identifier, new Date(now.getTime() - directoryFreshnessMs));
  if (!row) return null;
  if (row.outcome === 'unavailable' && row.checkedAt.getTime() <= now.getTime() - directoryRetryMs) return null;
  return row;
}

/**
 * What the directory says of a SIRET or a SIREN (check digits already valid), from the kept
 * answer while fresh, otherwise asked now; the answer is written in its own transaction, so it
 * stays known when the caller's change is refused.
 */
export async function lookUpIdentifier(
  deps: DirectoryDeps,
  scope: Scope,
  identifier: string,
  now: Date,
): Promise<DirectoryCheckRow> {
  const cached = await cachedCheck(deps, scope, identifier, now);
  if (cached) return cached;
  const { source, answer } = await askDirectory(deps, scope, identifier);
  const row = rowOf(scope, identifier, source, answer, now);
  // Nobody was asked (no key, no platform connected): nothing to keep, the re-check pass asks again.
  if (row.failure === noDirectory) return row;
  const ctx = { scope, requestId: null, idempotencyKey: null, apiVersion: '', now };
  await inTransaction(deps.db, ctx, (tx) => insertDirectoryCheck(tx, row));
  return row;
}

/** A kept look-up as the customers' directory entry: null (`siret_not_found`) when unknown or closed. */
export function entryOf(row: DirectoryCheckRow): DirectoryEntry | null {
  if (row.outcome === 'not_found' || (row.outcome === 'found' && row.closed)) return null;
  if (row.outcome === 'unavailable') return { siret: row.identifier, nonDisclosed: [], verification: 'unverified' };
  const nonDisclosed: NonDisclosableField[] = [];
  if (row.nameHidden) nonDisclosed.push('name');
  if (row.addressHidden) nonDisclosed.push('address');
  return { siret: row.identifier, nonDisclosed, verification: 'verified' };
}

/** The directory of a scope: the simulated one in test mode, Sirene and the platform's in live. */
export function companyDirectory(deps: DirectoryDeps, scope: Scope, now: Date): CompanyDirectory {
  if (!scope.livemode) return sandboxDirectory;
  const lookup = async (identifier: string) => entryOf(await lookUpIdentifier(deps, scope, identifier, now));
  return { name: 'live', lookup, lookupSiren: lookup };
}

/** The periodic purge of look-ups past their retention (of these companies only, when given). */
export async function purgeDirectoryChecks(deps: Pick<Deps, 'db' | 'clock'>, companyIds?: string[]): Promise<number> {
  return deleteDirectoryChecksBefore(deps.db, new Date(deps.clock.now().getTime() - directoryRetentionMs), companyIds);
}

/**
 * The directory as the account sees it: test mode's simulated one; in live Sirene when a key is
 * configured, else the connected platform's Directory Service, else none; its health from the
 * scope's last look-up.
 */
export async function directoryServiceState(deps: DirectoryDeps, scope: Scope): Promise<OutsideServiceState> {
  if (!scope.livemode) return simulated;
  const provider = deps.config.sireneApiKey
    ? 'sirene'
    : (await platformAccess(deps, deps.db, scope, { siret: null })).state === 'connected'
      ? 'platform'
      : null;
  if (!provider) return notConfigured;
  const last = await latestScopeDirectoryCheck(deps.db, scope);
  return stateFromLastExchange(provider, last ? { at: last.checkedAt, failure: failureOf(last) } : null);
}

function failureOf(check: DirectoryCheckRow): string | null {
  if (check.outcome !== 'unavailable' || check.failure === notListedByPlatform) return null;
  return check.failure ?? 'no answer';
}
