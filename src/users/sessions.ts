import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps.js';
import { getCompany, type Company } from '../companies/service.js';
import { drawChallenge, isCorrectAnswer } from './login-challenge.js';
import { verifyPassword } from './password-hash.js';
import { maxPasswordLength } from './password-rules.js';
import { hashToken, newToken } from './tokens.js';
import {
  challengeRequiredUntil,
  countReauthFailure,
  deleteExpiredChallenges,
  deleteExpiredSessions,
  deleteSession,
  deleteStaleThrottles,
  findLiveSession,
  findUser,
  findUserByEmail,
  insertChallenge,
  insertSession,
  recordLoginFailure,
  takeChallenge,
  touchSession,
  type SessionWithUser,
  type ThrottlePolicy,
} from './store.js';

/** A session ends after 1 hour without use, and 12 hours after log-in whatever happens. */
export const sessionIdleMs = 3_600_000;
export const sessionMaxMs = 12 * 3_600_000;
/** Last use is written at most once a minute. */
const touchEveryMs = 60_000;

/**
 * Five failed log-ins from one address within 15 minutes: each further attempt from it must
 * first solve a challenge, until 15 minutes pass without a failure (the requirement lifts by
 * itself). Counted per address in PostgreSQL, so every API node sees the same count.
 */
export const loginThrottlePolicy: ThrottlePolicy = { limit: 5, windowSeconds: 900, challengeSeconds: 900 };
const challengeTtlMs = 10 * 60_000;
/** Wrong passwords re-entered inside one session (secret reveal) before the session ends. */
export const maxReauthFailures = 5;

/** A live session, its user and their company, as the dashboard's pages read them. */
export type DashboardSession = SessionWithUser & { company: Company; token: string };

export interface OpenChallenge {
  id: string;
  question: string;
}

export interface LogInInput {
  email: string;
  password: string;
  ip: string;
  challengeId?: string | undefined;
  challengeAnswer?: string | undefined;
}

export type LogInResult =
  | { ok: true; token: string; session: DashboardSession }
  /** `captcha_required` is the contract's code (an `authentication_error`): solve the challenge first. */
  | { ok: false; reason: 'captcha_required' | 'invalid_credentials'; challenge: OpenChallenge | null };

/** Whether the address must solve a challenge now, and if so a fresh one to show. */
export async function challengeFor(deps: Pick<Deps, 'db' | 'clock'>, ip: string): Promise<OpenChallenge | null> {
  const now = deps.clock.now();
  if (!(await challengeRequiredUntil(deps.db, ip, now))) return null;
  const challenge = drawChallenge();
  const id = randomBytes(16).toString('base64url');
  await insertChallenge(
    deps.db,
    { id, ip, answer: challenge.answer, expiresAt: new Date(now.getTime() + challengeTtlMs) },
    5,
  );
  return { id, question: challenge.question };
}

/**
 * Checks the challenge first when the address is throttled (`captcha_required` otherwise, without
 * looking at the password), then the credentials; a failure counts against the address.
 */
export async function logIn(deps: Pick<Deps, 'db' | 'clock'>, input: LogInInput): Promise<LogInResult> {
  const now = deps.clock.now();
  if (await challengeRequiredUntil(deps.db, input.ip, now)) {
    const answer = input.challengeId ? await takeChallenge(deps.db, input.challengeId, input.ip, now) : undefined;
    if (answer === undefined || !isCorrectAnswer(input.challengeAnswer, answer)) {
      return { ok: false, reason: 'captcha_required', challenge: await challengeFor(deps, input.ip) };
    }
  }
  const email = input.email.trim().toLowerCase();
  const user = email && input.password.length <= maxPasswordLength ? await findUserByEmail(deps.db, email) : undefined;
  const valid = await verifyPassword(input.password.slice(0, maxPasswordLength), user?.passwordHash ?? null);
  if (!user || !valid) {
    await recordLoginFailure(deps.db, input.ip, now, loginThrottlePolicy);
    return { ok: false, reason: 'invalid_credentials', challenge: await challengeFor(deps, input.ip) };
  }
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
  // Housekeeping rides on log-ins: expired sessions, challenges and throttles go.
  await deleteExpiredSessions(deps.db, now);
  await deleteExpiredChallenges(deps.db, now);
  await deleteStaleThrottles(deps.db, now, loginThrottlePolicy.windowSeconds);
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

/**
 * Re-entering the password inside a session (before revealing a secret). Too many wrong ones
 * end the session: a stolen cookie cannot be used to guess the password.
 */
export async function confirmPassword(
  deps: Pick<Deps, 'db'>,
  session: DashboardSession,
  password: string,
): Promise<'ok' | 'wrong' | 'session_ended'> {
  const user = await findUser(deps.db, session.user.id);
  if (await verifyPassword(password.slice(0, maxPasswordLength), user?.passwordHash ?? null)) return 'ok';
  const failures = await countReauthFailure(deps.db, hashToken(session.token));
  if (failures >= maxReauthFailures) {
    await deleteSession(deps.db, hashToken(session.token));
    return 'session_ended';
  }
  return 'wrong';
}
