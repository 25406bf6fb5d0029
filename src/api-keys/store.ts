import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { companies } from '../companies/schema.js';
import type { PlanName } from '../companies/plans.js';
import { apiKeys } from './schema.js';

export type ApiKey = typeof apiKeys.$inferSelect;

export interface KeyWithCompany {
  key: ApiKey;
  company: { id: string; name: string; plan: PlanName; sandboxClockOffsetMs: number };
}

export async function insertKey(db: Executor, key: ApiKey): Promise<void> {
  await db.insert(apiKeys).values(key);
}

/** One indexed read per request: the key and what authorization needs of its company. */
export async function findKeyByHash(db: Executor, secretHash: string): Promise<KeyWithCompany | undefined> {
  const [row] = await db
    .select({ key: apiKeys, company: { id: companies.id, name: companies.name, plan: companies.plan, sandboxClockOffsetMs: companies.sandboxClockOffsetMs } })
    .from(apiKeys)
    .innerJoin(companies, eq(companies.id, apiKeys.companyId))
    .where(eq(apiKeys.secretHash, secretHash))
    .limit(1);
  return row && { key: row.key, company: { ...row.company, plan: row.company.plan as PlanName } };
}

export async function findKey(db: Executor, id: string): Promise<ApiKey | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return row;
}

export async function listKeys(db: Executor, companyId: string): Promise<ApiKey[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.companyId, companyId)).orderBy(desc(apiKeys.id));
}

/** Revokes once: a second revocation keeps the first date. */
export async function markRevoked(db: Executor, id: string, at: Date): Promise<ApiKey | undefined> {
  const [row] = await db.update(apiKeys).set({ revokedAt: at }).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).returning();
  return row ?? findKey(db, id);
}

export async function touchLastUsed(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
}
