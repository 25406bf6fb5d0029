import { and, asc, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type pg from 'pg';
import type { LegalIdentity } from '../kernel/legal-identity.js';
import type { PlanName, SubscriptionStatus } from '../kernel/plans.js';
import { apiKeys } from './schema.js';

export type ApiKey = typeof apiKeys.$inferSelect;

export interface KeyWithCompany {
  key: ApiKey;
  company: {
    id: string;
    name: string;
    siren: string;
    plan: PlanName;
    /** `active`, `paused` or `cancelled`: a request reads it here to block writes. */
    subscriptionStatus: SubscriptionStatus;
    created: Date;
    sandboxClockOffsetMs: number;
    /** Its legal identity, as `GET /v1/account` shows it: served with the key, from the cache. */
    identity: LegalIdentity;
  };
}

export async function insertKey(db: Executor, key: ApiKey): Promise<void> {
  await db.insert(apiKeys).values(key);
}

/**
 * The key and its company in one indexed read. On the hot path of every request that misses the
 * key cache, so a named (prepared once per connection) statement rather than a built query.
 */
export async function findKeyByHash(pool: pg.Pool, secretHash: string): Promise<KeyWithCompany | undefined> {
  const { rows } = await pool.query<Record<string, unknown>>({
    name: 'facteur_find_key',
    text: `select k.id, k.company_id, k.livemode, k.secret_hash, k.secret_last4, k.scopes, k.expires_at, k.revoked_at,
        k.last_used_at, k.created, c.name, c.siren, c.created as company_created, c.sandbox_clock_offset_ms,
        c.legal_name, c.trade_name, c.legal_form, c.share_capital, c.registration, c.vat_number, c.iban, c.bic, c.contact,
        coalesce(s.plan, 'free') as plan, coalesce(s.status, 'active') as subscription_status
      from api_keys k join companies c on c.id = k.company_id left join subscriptions s on s.company_id = c.id
      where k.secret_hash = $1 limit 1`,
    values: [secretHash],
  });
  const row = rows[0];
  if (!row) return undefined;
  const date = (value: unknown) => (value === null ? null : new Date(value as string | Date));
  return {
    key: {
      id: row.id as string,
      companyId: row.company_id as string,
      livemode: row.livemode as boolean,
      secretHash: row.secret_hash as string,
      secretLast4: row.secret_last4 as string,
      scopes: row.scopes as string[] | null,
      expiresAt: date(row.expires_at),
      revokedAt: date(row.revoked_at),
      lastUsedAt: date(row.last_used_at),
      created: date(row.created)!,
    },
    company: {
      id: row.company_id as string,
      name: row.name as string,
      siren: row.siren as string,
      plan: row.plan as PlanName,
      subscriptionStatus: row.subscription_status as SubscriptionStatus,
      created: date(row.company_created)!,
      sandboxClockOffsetMs: Number(row.sandbox_clock_offset_ms),
      identity: {
        legalName: row.legal_name as string | null,
        tradeName: row.trade_name as string | null,
        legalForm: row.legal_form as string | null,
        shareCapital: row.share_capital as string | null,
        registration: row.registration as LegalIdentity['registration'],
        vatNumber: row.vat_number as string | null,
        iban: row.iban as string | null,
        bic: row.bic as string | null,
        contact: row.contact as LegalIdentity['contact'],
      },
    },
  };
}

export async function findKey(db: Executor, id: string): Promise<ApiKey | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return row;
}

export async function listKeys(db: Executor, companyId: string): Promise<ApiKey[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.companyId, companyId)).orderBy(desc(apiKeys.id));
}

/** Revokes once: a second revocation keeps the first date. */
export async function markRevoked(db: Executor, id: string, at: Date, companyId?: string): Promise<ApiKey | undefined> {
  const ofCompany = companyId === undefined ? undefined : eq(apiKeys.companyId, companyId);
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), ofCompany, isNull(apiKeys.revokedAt)))
    .returning();
  if (row) return row;
  const existing = await findKey(db, id);
  return existing && (companyId === undefined || existing.companyId === companyId) ? existing : undefined;
}

export async function touchLastUsed(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
}

/** The company's keys of one environment in id order after `after`: the data-protection export. */
export async function keyRowsAfter(
  db: Executor,
  scope: { companyId: string; livemode: boolean },
  after: string | null,
  limit: number,
): Promise<ApiKey[]> {
  return db
    .select()
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.companyId, scope.companyId),
        eq(apiKeys.livemode, scope.livemode),
        after === null ? undefined : gt(apiKeys.id, after),
      ),
    )
    .orderBy(asc(apiKeys.id))
    .limit(limit);
}
