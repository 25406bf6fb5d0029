import type { Deps } from '../deps.js';
import { getCompany, type Company } from '../companies/service.js';
import { registerAuthFailure, withdrawAuthFailure } from '../limits/service.js';
import { verifyPassword } from './password-hash.js';
import { maxPasswordLength } from './password-rules.js';
import { hashToken, newToken } from './tokens.js';
import {
  countReauthFailure,
  deleteExpiredSessions,
  deleteSession,
  findLiveSession,
  findUser,
  findUserByEmail,
  insertSession,
  touchSession,
  withdrawReauthFailure,
  type SessionWithUser,
} from './store.js';

/** A session ends after 1 hour without use, and 12 hours after log-in whatever happens. */
export const sessionIdleMs = 3_600_000;
export const sessionMaxMs = 12 * 3_600_000;
/** Last use is written at most once a minute. */
const touchEveryMs = 60_000;
/** Wrong passwords re-entered inside one session (every prompt together) before the session ends. */
export const maxReauthFailures = 5;

/** A live session, its user and their company, as the dashboard's pages read them. */
export type DashboardSession = SessionWithUser & { company: Company; token: string };

export interface LogInInput {
  email: string;
  password: string;
  ip: string;
}

export type LogInResult =
  | { ok: true; token: string; session: DashboardSession }
  | { ok: false; reason: 'invalid_credentials' }
  /** The contract's `brute_force_blocked`: the account or the address is locked for `retryAfter` seconds. */
  | { ok: false; reason: 'brute_force_blocked'; retryAfter: number };

/**
 * The lockout subjects of one attempt, in the API keys' failure store (limits): the address, and
 * the account tried, hashed so the store keeps no e-mail an attacker typed.
 */
function lockoutSubjects(email: string, ip: string): string[] {
  return [`sign-in:ip:${ip}`, accountLockoutSubject(email)];
}

function accountLockoutSubject(email: string): string {
  return `sign-in:account:${hashToken(email)}`;
}

/**
 * Every attempt counts as a failure of its address and of the account tried before the password
 * is looked at (so parallel attempts cannot outrun the count), with the API keys' thresholds
 * (FACTEUR_AUTH_FAILURE_*). While either is locked, the attempt is refused unchecked: the right
 * password too, and an unknown e-mail locks like a known one, so the answer reveals neither. A
 * right password takes its count back.
 */
export async function logIn(
  deps: Pick<Deps, 'db' | 'fast' | 'clock' | 'config'>,
  input: LogInInput,
): Promise<LogInResult> {
  const now = deps.clock.now();
  const email = input.email.trim().toLowerCase();
  const subjects = lockoutSubjects(email, input.ip);
  const waits = await Promise.all(subjects.map((subject) => registerAuthFailure(deps, subject, now)));
  const wait = Math.max(0, ...waits.map((seconds) => seconds ?? 0));
  if (wait > 0) return { ok: false, reason: 'brute_force_blocked', retryAfter: wait };
  const user = email && input.password.length <= maxPasswordLength ? await findUserByEmail(deps.db, email) : undefined;
  const valid = await verifyPassword(input.password.slice(0, maxPasswordLength), user?.passwordHash ?? null);
  if (!user || !valid) return { ok: false, reason: 'invalid_credentials' };
  await Promise.all(subjects.map((subject) => withdrawAuthFailure(deps, subject)));
  const token = newToken();
  const row = {
    tokenHash: hashToken(token),
    userId: user.id,
    companyId: user.companyId,
    csrfToken: newToken(),
    reauthFailures: 0,
    created: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + sessionIdleMs),
    absoluteExpiresAt: new Date(now.getTime() + sessionMaxMs),
  };
  await insertSession(deps.db, row);
  // Housekeeping rides on log-ins: the company's expired sessions go (stale failure counts go with the limits' purge).
  await deleteExpiredSessions(deps.db, user.companyId, now);
  const session = (await findLiveSession(deps.db, row.tokenHash, now))!;
  return { ok: true, token, session: { ...session, company: await getCompany(deps, session.companyId), token } };
}

/** The live session of a cookie's token, its idle expiry pushed forward; null when none. */
export async function resumeSession(deps: Pick<Deps, 'db' | 'clock'>, token: string): Promise<DashboardSession | null> {
  const now = deps.clock.now();
  const tokenHash = hashToken(token);
  const found = await findLiveSession(deps.db, tokenHash, now);
  if (!found) return null;
  if (now.getTime() - found.session.lastSeenAt.getTime() >= touchEveryMs) {
    const expiresAt = new Date(Math.min(now.getTime() + sessionIdleMs, found.session.absoluteExpiresAt.getTime()));
    await touchSession(deps.db, tokenHash, now, expiresAt);
  }
  return { ...found, company: await getCompany(deps, found.companyId), token };
}

export async function logOut(deps: Pick<Deps, 'db'>, token: string): Promise<void> {
  await deleteSession(deps.db, hashToken(token));
}

export type PasswordPrompt = 'ok' | 'wrong' | 'session_ended';

/**
 * The one rule of every form that asks for the password again inside a session (revealing a
 * secret, changing the password): a stolen cookie must not be a way to guess the password. The
 * wrong ones of all these forms share one count per session, and the last allowed one ends the
 * session. Like the sign-in, the attempt is counted before the password is looked at, so parallel
 * attempts cannot outrun the count, and a right password takes its count back. A wrong one also
 * counts toward the account's sign-in lockout (the same store and thresholds), so guesses made
 * here and at the log-in add up.
 */
export async function confirmPassword(
  deps: Pick<Deps, 'db' | 'fast' | 'clock' | 'config'>,
  session: DashboardSession,
  password: string,
): Promise<PasswordPrompt> {
  const tokenHash = hashToken(session.token);
  const failures = await countReauthFailure(deps.db, tokenHash);
  if (failures === null || failures > maxReauthFailures) return endSession(deps, tokenHash);
  const user = await findUser(deps.db, session.user.id);
  if (await verifyPassword(password.slice(0, maxPasswordLength), user?.passwordHash ?? null)) {
    await withdrawReauthFailure(deps.db, tokenHash);
    return 'ok';
  }
  await registerAuthFailure(deps, accountLockoutSubject(session.user.email), deps.clock.now());
  return failures >= maxReauthFailures ? endSession(deps, tokenHash) : 'wrong';
}

async function endSession(deps: Pick<Deps, 'db'>, tokenHash: string): Promise<'session_ended'> {
  await deleteSession(deps.db, tokenHash);
  return 'session_ended';
}
