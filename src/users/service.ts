import type { Deps } from '../deps.js';
import { inTransaction } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { getCompany } from '../companies/service.js';
import { hashPassword } from './password-hash.js';
import { checkNewPassword } from './password-rules.js';
import { hashToken, newToken } from './tokens.js';
import {
  consumePasswordLink,
  deleteOtherSessions,
  expireUnusedLinks,
  findUser,
  findUserByEmail,
  findUsablePasswordLink,
  insertPasswordLink,
  insertUser,
  setPasswordHash,
  type UserListing,
  type UserRow,
} from './store.js';
import { isUniqueViolation } from '../db/errors.js';
import { confirmPassword, type DashboardSession } from './sessions.js';

/** A password-setting link is good for 7 days, once. */
export const passwordLinkTtlMs = 7 * 86_400_000;

export interface User {
  id: string;
  object: 'user';
  company: string;
  email: string;
  passwordSet: boolean;
  created: string;
}

export interface PasswordLink {
  url: string;
  expiresAt: string;
}

export function toUser(row: UserRow): User {
  return userOf({ ...row, passwordSet: row.passwordHash !== null });
}

/** The user as the API shows it, from the columns a tenant may read (never the password's hash). */
export function userOf(row: UserListing): User {
  return {
    id: row.id,
    object: 'user',
    company: row.companyId,
    email: row.email,
    passwordSet: row.passwordSet,
    created: row.created.toISOString(),
  };
}

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !emailShape.test(email))
    throw refuse('validation_error', `"${raw}" is not an e-mail address.`, { param: 'email' });
  return email;
}

export function passwordLinkUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/dashboard/password/${token}`;
}

async function addUser(
  deps: Pick<Deps, 'db' | 'clock'>,
  companyId: string,
  rawEmail: string,
  passwordHash: string | null,
): Promise<UserRow> {
  const email = normalizeEmail(rawEmail);
  const company = await getCompany(deps, companyId);
  const now = deps.clock.now();
  if (await findUserByEmail(deps.db, email))
    throw refuse('validation_error', `A user with the e-mail ${email} already exists.`, { param: 'email' });
  const row: UserRow = {
    id: newId('user', now),
    companyId: company.id,
    email,
    passwordHash,
    passwordChangedAt: passwordHash ? now : null,
    created: now,
  };
  try {
    await insertUser(deps.db, row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw refuse('validation_error', `A user with the e-mail ${email} already exists.`, { param: 'email' });
    }
    throw error;
  }
  return row;
}

/** A user of the company, without a password yet, and the one-time link that sets it. */
export async function createUser(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  input: { companyId: string; email: string },
): Promise<{ user: User; passwordLink: PasswordLink }> {
  const row = await addUser(deps, input.companyId, input.email, null);
  return { user: toUser(row), passwordLink: await issuePasswordLink(deps, row.id) };
}

/** A user whose password is given (the demo user of the first start). */
export async function createUserWithPassword(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { companyId: string; email: string; password: string },
): Promise<User> {
  return toUser(await addUser(deps, input.companyId, input.email, await hashPassword(input.password)));
}

/** A new one-time link for the user; earlier unused links stop working. */
export async function issuePasswordLink(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  userId: string,
): Promise<PasswordLink> {
  const now = deps.clock.now();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + passwordLinkTtlMs);
  await inTransaction(deps.db, null, async (tx) => {
    await expireUnusedLinks(tx, userId, now);
    await insertPasswordLink(tx, { tokenHash: hashToken(token), userId, expiresAt, usedAt: null, created: now });
  });
  return { url: passwordLinkUrl(deps.config.publicUrl, token), expiresAt: expiresAt.toISOString() };
}

const linkInvalid = () =>
  refuse(
    'not_found',
    'This password link is unknown, already used or expired; ask for a new one (`facteur user create`, or an administrator).',
  );

/** The e-mail a link sets the password of, for the form; refuses a used or expired link. */
export async function describePasswordLink(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
): Promise<{ email: string }> {
  const link = await findUsablePasswordLink(deps.db, hashToken(token), deps.clock.now());
  if (!link) throw linkInvalid();
  return { email: link.email };
}

/** Sets the password through a link (once); every session of the user ends. */
export async function setPasswordWithLink(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
  password: string,
  confirmation: string,
): Promise<User> {
  const now = deps.clock.now();
  const link = await findUsablePasswordLink(deps.db, hashToken(token), now);
  if (!link) throw linkInvalid();
  checkNewPassword(password, confirmation, link.email);
  const hash = await hashPassword(password);
  const userId = await inTransaction(deps.db, null, async (tx) => {
    const id = await consumePasswordLink(tx, hashToken(token), now);
    if (!id) throw linkInvalid();
    await setPasswordHash(tx, id, hash, now);
    await deleteOtherSessions(tx, id, null);
    return id;
  });
  return toUser((await findUser(deps.db, userId))!);
}

/**
 * Changes the password of a signed-in user; the other sessions of the user end, this one stays.
 * The current password is a password prompt of the session (`confirmPassword`): too many wrong
 * ones, here and at the other prompts together, end this session too ('session_ended').
 */
export async function changePassword(
  deps: Pick<Deps, 'db' | 'fast' | 'clock' | 'config'>,
  session: DashboardSession,
  input: { current: string; password: string; confirmation: string },
): Promise<'changed' | 'session_ended'> {
  const prompt = await confirmPassword(deps, session, input.current);
  if (prompt === 'session_ended') return prompt;
  if (prompt === 'wrong') throw refuse('validation_error', 'The current password is not right.', { param: 'current' });
  const userId = session.user.id;
  checkNewPassword(input.password, input.confirmation, session.user.email);
  const hash = await hashPassword(input.password);
  await inTransaction(deps.db, null, async (tx) => {
    await setPasswordHash(tx, userId, hash, deps.clock.now());
    await deleteOtherSessions(tx, userId, hashToken(session.token));
  });
  return 'changed';
}

// The dashboard's sessions, for the dashboard.
export {
  confirmPassword,
  logIn,
  logOut,
  maxReauthFailures,
  resumeSession,
  sessionMaxMs,
  type DashboardSession,
  type LogInResult,
  type PasswordPrompt,
} from './sessions.js';
