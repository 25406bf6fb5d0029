import { and, asc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { dashboardSessions, loginChallenges, loginThrottle, passwordLinks, users } from './schema.js';

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

export async function countReauthFailure(db: Executor, tokenHash: string): Promise<number> {
  const [row] = await db
    .update(dashboardSessions)
    .set({ reauthFailures: sql`${dashboardSessions.reauthFailures} + 1` })
    .where(eq(dashboardSessions.tokenHash, tokenHash))
    .returning({ failures: dashboardSessions.reauthFailures });
  return row?.failures ?? 0;
}

export async function deleteExpiredSessions(db: Executor, now: Date): Promise<void> {
  await db.delete(dashboardSessions).where(lt(dashboardSessions.expiresAt, now));
}

// Log-in throttle and challenges

export interface ThrottlePolicy {
  limit: number;
  windowSeconds: number;
  challengeSeconds: number;
}

/**
 * Records one failed log-in from `ip`; returns until when the address must solve a challenge.
 * A window opens at the first failure; past `limit` failures in it, a challenge is required for
 * `challengeSeconds` after each further failure. Once that time passes, the count starts again.
 */
export async function recordLoginFailure(
  db: Executor,
  ip: string,
  now: Date,
  policy: ThrottlePolicy,
): Promise<Date | null> {
  const f = loginThrottle;
  const at = sql`${now.toISOString()}::timestamptz`;
  const challenged = sql`(${f.challengeUntil} is not null and ${f.challengeUntil} > ${at})`;
  const restart = sql`(not ${challenged} and (${f.challengeUntil} is not null or ${f.windowStartedAt} <= ${at} - make_interval(secs => ${policy.windowSeconds}::int)))`;
  const until = sql`${at} + make_interval(secs => ${policy.challengeSeconds}::int)`;
  const [row] = await db
    .insert(f)
    .values({
      ip,
      windowStartedAt: now,
      failures: 1,
      challengeUntil: policy.limit <= 1 ? new Date(now.getTime() + policy.challengeSeconds * 1000) : null,
    })
    .onConflictDoUpdate({
      target: f.ip,
      set: {
        windowStartedAt: sql`case when ${restart} then ${at} else ${f.windowStartedAt} end`,
        failures: sql`case when ${restart} then 1 else ${f.failures} + 1 end`,
        challengeUntil: sql`case when ${challenged} then ${until}
          when ${restart} then null
          when ${f.failures} + 1 >= ${policy.limit}::int then ${until}
          else null end`,
      },
    })
    .returning({ challengeUntil: f.challengeUntil });
  const result = row?.challengeUntil ?? null;
  return result && result.getTime() > now.getTime() ? result : null;
}

/** Addresses whose window ended and whose challenge, if any, lifted: nothing left to remember. */
export async function deleteStaleThrottles(db: Executor, now: Date, windowSeconds: number): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await db.delete(loginThrottle)
    .where(sql`${loginThrottle.windowStartedAt} < ${at} - make_interval(secs => ${windowSeconds}::int)
    and (${loginThrottle.challengeUntil} is null or ${loginThrottle.challengeUntil} < ${at})`);
}

export async function challengeRequiredUntil(db: Executor, ip: string, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ until: loginThrottle.challengeUntil })
    .from(loginThrottle)
    .where(and(eq(loginThrottle.ip, ip), gt(loginThrottle.challengeUntil, now)))
    .limit(1);
  return row?.until ?? null;
}

export async function insertChallenge(
  db: Executor,
  row: typeof loginChallenges.$inferSelect,
  keepPerIp: number,
): Promise<void> {
  await db.insert(loginChallenges).values(row);
  // Bounded per address: only its newest challenges stay open.
  await db.execute(sql`delete from ${loginChallenges} where ${loginChallenges.ip} = ${row.ip} and ${loginChallenges.id} not in
    (select id from ${loginChallenges} where ip = ${row.ip} order by expires_at desc limit ${keepPerIp})`);
}

/** Takes the challenge (single use): its answer when it was open for this address. */
export async function takeChallenge(db: Executor, id: string, ip: string, now: Date): Promise<string | undefined> {
  const [row] = await db
    .delete(loginChallenges)
    .where(and(eq(loginChallenges.id, id), eq(loginChallenges.ip, ip), gt(loginChallenges.expiresAt, now)))
    .returning({ answer: loginChallenges.answer });
  return row?.answer;
}

export async function deleteExpiredChallenges(db: Executor, now: Date): Promise<void> {
  await db.delete(loginChallenges).where(lt(loginChallenges.expiresAt, now));
}

/** The company's users in id order after `after` (both environments): the data-protection export. */
export async function userRowsAfter(db: Executor, companyId: string, after: string | null, limit: number) {
  return db
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), after === null ? undefined : gt(users.id, after)))
    .orderBy(asc(users.id))
    .limit(limit);
}
