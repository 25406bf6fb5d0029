import { and, asc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { dashboardSessions, passwordLinks, users } from './schema.js';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof dashboardSessions.$inferSelect;

// Users

export async function insertUser(db: Executor, row: UserRow): Promise<void> {
  await db.insert(users).values(row);
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function findUser(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function setPasswordHash(db: Executor, id: string, hash: string, at: Date): Promise<void> {
  await db.update(users).set({ passwordHash: hash, passwordChangedAt: at }).where(eq(users.id, id));
}

// Password links

export async function insertPasswordLink(db: Executor, row: typeof passwordLinks.$inferSelect): Promise<void> {
  await db.insert(passwordLinks).values(row);
}

/** Uses the link once: returns its user when it was unused and unexpired, and marks it used. */
export async function consumePasswordLink(db: Executor, tokenHash: string, now: Date): Promise<string | undefined> {
  const [row] = await db
    .update(passwordLinks)
    .set({ usedAt: now })
    .where(and(eq(passwordLinks.tokenHash, tokenHash), isNull(passwordLinks.usedAt), gt(passwordLinks.expiresAt, now)))
    .returning({ userId: passwordLinks.userId });
  return row?.userId;
}

export async function findUsablePasswordLink(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string; email: string } | undefined> {
  const [row] = await db
    .select({ userId: passwordLinks.userId, email: users.email })
    .from(passwordLinks)
    .innerJoin(users, eq(users.id, passwordLinks.userId))
    .where(and(eq(passwordLinks.tokenHash, tokenHash), isNull(passwordLinks.usedAt), gt(passwordLinks.expiresAt, now)))
    .limit(1);
  return row;
}

/** A new link replaces the user's earlier unused ones. */
export async function expireUnusedLinks(db: Executor, userId: string, now: Date): Promise<void> {
  await db
    .update(passwordLinks)
    .set({ usedAt: now })
    .where(and(eq(passwordLinks.userId, userId), isNull(passwordLinks.usedAt)));
}

// Sessions

export async function insertSession(db: Executor, row: SessionRow): Promise<void> {
  await db.insert(dashboardSessions).values(row);
}

export interface SessionWithUser {
  session: SessionRow;
  user: { id: string; email: string };
  companyId: string;
}

/** The session and its user, in one read; undefined when expired. */
export async function findLiveSession(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<SessionWithUser | undefined> {
  const [row] = await db
    .select({
      session: dashboardSessions,
      user: { id: users.id, email: users.email },
      companyId: users.companyId,
    })
    .from(dashboardSessions)
    .innerJoin(users, eq(users.id, dashboardSessions.userId))
    .where(
      and(
        eq(dashboardSessions.tokenHash, tokenHash),
        gt(dashboardSessions.expiresAt, now),
        gt(dashboardSessions.absoluteExpiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

export async function touchSession(db: Executor, tokenHash: string, now: Date, expiresAt: Date): Promise<void> {
  await db
    .update(dashboardSessions)
    .set({ lastSeenAt: now, expiresAt })
    .where(eq(dashboardSessions.tokenHash, tokenHash));
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.delete(dashboardSessions).where(eq(dashboardSessions.tokenHash, tokenHash));
}

/** Ends every session of the user but `keep` (after a password change). */
export async function deleteOtherSessions(db: Executor, userId: string, keep: string | null): Promise<void> {
  await db
    .delete(dashboardSessions)
    .where(and(eq(dashboardSessions.userId, userId), keep ? ne(dashboardSessions.tokenHash, keep) : undefined));
}

/** Counts one password prompt of the session as failed; the new count, or null when the session is gone. */
export async function countReauthFailure(db: Executor, tokenHash: string): Promise<number | null> {
  const [row] = await db
    .update(dashboardSessions)
    .set({ reauthFailures: sql`${dashboardSessions.reauthFailures} + 1` })
    .where(eq(dashboardSessions.tokenHash, tokenHash))
    .returning({ failures: dashboardSessions.reauthFailures });
  return row?.failures ?? null;
}

/** Takes back a failure counted in advance for a prompt that proved right. */
export async function withdrawReauthFailure(db: Executor, tokenHash: string): Promise<void> {
  await db
    .update(dashboardSessions)
    .set({ reauthFailures: sql`greatest(${dashboardSessions.reauthFailures} - 1, 0)` })
    .where(eq(dashboardSessions.tokenHash, tokenHash));
}

/** The company's sessions expired by `now`: each company's log-ins clear its own, and never touch another's. */
export async function deleteExpiredSessions(db: Executor, companyId: string, now: Date): Promise<void> {
  await db
    .delete(dashboardSessions)
    .where(and(eq(dashboardSessions.companyId, companyId), lt(dashboardSessions.expiresAt, now)));
}

/** What a tenant's transaction may read of a user (migration 0024): no password hash. */
export type UserListing = Pick<UserRow, 'id' | 'companyId' | 'email' | 'created'> & { passwordSet: boolean };

/**
 * The company's users in id order after `after` (both environments): the data-protection export,
 * in the tenant's transaction, so only the columns granted to it (`password_set` is generated from
 * the hash in SQL alone, unknown to the schema).
 */
export async function userRowsAfter(
  db: Executor,
  companyId: string,
  after: string | null,
  limit: number,
): Promise<UserListing[]> {
  return db
    .select({
      id: users.id,
      companyId: users.companyId,
      email: users.email,
      created: users.created,
      passwordSet: sql<boolean>`password_set`,
    })
    .from(users)
    .where(and(eq(users.companyId, companyId), after === null ? undefined : gt(users.id, after)))
    .orderBy(asc(users.id))
    .limit(limit);
}
