import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { inTransaction } from '../db/transaction.js';
import { euMemberStates } from '../identifiers/eu-member-states.js';
import { checkVatNumber } from '../identifiers/vat-number.js';
import { companySeller } from '../companies/service.js';
import { createViesClient, type ViesAnswer, type ViesClient } from './vies-client.js';
import {
  deleteViesChecksBefore,
  insertViesCheck,
  latestScopeViesCheck,
  latestViesCheck,
  type ViesCheckRow,
} from './store.js';
import { simulated, stateFromLastExchange, type OutsideServiceState } from '../kernel/outside-service.js';

/**
 * Intra-EU VAT numbers checked with VIES, in live only: what an intra-EU exemption or a reverse
 * charge rests on. Answers are kept (`vies_checks`) and reused while fresh: a yes or a no for
 * 24 hours, a "VIES did not answer" for 5 minutes (then VIES is asked again).
 *
 * Test mode never calls the EU: every number is taken as valid, except the documented test
 * number `DE123456788` (right check digits), which VIES "does not know".
 */

export const answerFreshnessMs = 24 * 3600_000;
export const unavailableRetryMs = 5 * 60_000;
/**
 * Consultations older than this are forgotten: only the last 24 hours serve as cache, and the
 * proof a decision or a customer rests on (the consultation number and date) is kept with them.
 */
export const viesRetentionMs = 7 * 86_400_000;
export const sandboxViesInvalidNumber = 'DE123456788';

export type ViesVerdict =
  | {
      outcome: 'valid' | 'invalid' | 'unavailable';
      checkedAt: Date;
      requestIdentifier: string | null;
      requestDate: string | null;
      /** Why VIES did not answer, for `unavailable`. */
      failure: string | null;
    }
  /** Test mode: nothing asked. */
  | { outcome: 'not_checked' };

const viesPrefixes = new Set<string>(
  euMemberStates.filter((country) => country !== 'FR').map((country) => (country === 'GR' ? 'EL' : country)),
);

/** A VAT number of another member state (or of Northern Ireland, `XI`): the ones VIES is asked about. */
export function isIntraEuVatNumber(vatNumber: string): boolean {
  const prefix = vatNumber.slice(0, 2);
  return prefix === 'XI' || viesPrefixes.has(prefix);
}

const clients = new Map<string, ViesClient>();

/** One client per configured service (the setting can differ between the harnesses of a test run). */
function clientOf(config: Deps['config']): ViesClient {
  const key = `${config.viesUrl} ${config.viesTimeoutMs}`;
  let client = clients.get(key);
  if (!client) {
    client = createViesClient({ baseUrl: config.viesUrl, timeoutMs: config.viesTimeoutMs });
    clients.set(key, client);
  }
  return client;
}

const verdictOf = (row: ViesCheckRow): ViesVerdict => ({
  outcome: row.outcome as 'valid' | 'invalid' | 'unavailable',
  checkedAt: row.checkedAt,
  requestIdentifier: row.requestIdentifier,
  requestDate: row.requestDate,
  failure: row.failure,
});

/** A fresh answer kept for the number: a yes or no of the last 24 h, a failure of the last minutes. */
async function cachedVerdict(deps: Pick<Deps, 'db'>, scope: Scope, vatNumber: string, now: Date) {
  const row = await latestViesCheck(deps.db, scope, vatNumber, new Date(now.getTime() - answerFreshnessMs));
  if (!row) return null;
  if (row.outcome === 'unavailable' && row.checkedAt.getTime() <= now.getTime() - unavailableRetryMs) return null;
  return verdictOf(row);
}

/** The company's own VAT number asks for a consultation number; a French one is a VIES requester. */
async function requesterOf(deps: Pick<Deps, 'db'>, companyId: string): Promise<string | null> {
  const seller = await companySeller(deps.db, companyId);
  if (!seller.vatNumber) return null;
  const checked = checkVatNumber(seller.vatNumber);
  return checked.ok && (checked.country === 'FR' || isIntraEuVatNumber(checked.value)) ? checked.value : null;
}

function rowOf(scope: Scope, vatNumber: string, answer: ViesAnswer, now: Date): ViesCheckRow {
  const known = answer.outcome !== 'unavailable';
  return {
    ...scope,
    vatNumber,
    outcome: answer.outcome,
    requestIdentifier: known ? answer.requestIdentifier : null,
    requestDate: known ? answer.requestDate : null,
    traderName: known ? answer.name : null,
    traderAddress: known ? answer.address : null,
    failure: known ? null : answer.failure,
    checkedAt: now,
  };
}

/**
 * What VIES says of an intra-EU VAT number (normalized, with its prefix), from the kept answer
 * while fresh, otherwise asked now. The answer is written in its own transaction: it stays known
 * (and proven) even when the caller's change is refused or rolled back.
 */
export async function verifyVatNumber(
  deps: Pick<Deps, 'db' | 'config'>,
  scope: Scope,
  vatNumber: string,
  now: Date,
): Promise<ViesVerdict> {
  if (!scope.livemode)
    return vatNumber === sandboxViesInvalidNumber
      ? { outcome: 'invalid', checkedAt: now, requestIdentifier: null, requestDate: null, failure: null }
      : { outcome: 'not_checked' };
  const cached = await cachedVerdict(deps, scope, vatNumber, now);
  if (cached) return cached;
  const answer = await clientOf(deps.config).check({ vatNumber, requester: await requesterOf(deps, scope.companyId) });
  const row = rowOf(scope, vatNumber, answer, now);
  const ctx = { scope, requestId: null, idempotencyKey: null, apiVersion: '', now };
  await inTransaction(deps.db, ctx, (tx) => insertViesCheck(tx, row));
  return verdictOf(row);
}

/** The periodic purge of consultations past their retention (of these companies only, when given). */
export async function purgeViesChecks(deps: Pick<Deps, 'db' | 'clock'>, companyIds?: string[]): Promise<number> {
  return deleteViesChecksBefore(deps.db, new Date(deps.clock.now().getTime() - viesRetentionMs), companyIds);
}

/** VIES as the account sees it: never called in test mode; in live its health from the scope's last consultation. */
export async function viesServiceState(deps: Pick<Deps, 'db'>, scope: Scope): Promise<OutsideServiceState> {
  if (!scope.livemode) return simulated;
  const last = await latestScopeViesCheck(deps.db, scope);
  return stateFromLastExchange(
    'vies',
    last
      ? { at: last.checkedAt, failure: last.outcome === 'unavailable' ? (last.failure ?? 'no answer') : null }
      : null,
  );
}
