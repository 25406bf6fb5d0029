import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Lookup } from '../db/lookup.js';
import { rawRow } from '../db/raw-row.js';
import { companies } from './schema.js';
import type { PlanName } from '../kernel/plans.js';
import type { LegalIdentity } from './legal-identity.js';

export interface Company {
  id: string;
  name: string;
  siren: string;
  /** The plan of its subscription (the subscriptions capability holds it). */
  plan: PlanName;
  created: Date;
  /** How far the company's sandbox clock runs ahead of real time (test mode only). */
  sandboxClockOffsetMs: number;
}

export async function insertCompany(db: Executor, company: Omit<Company, 'plan'>, email: string | null): Promise<void> {
  // The name given at creation is the legal name until `POST /v1/account` says otherwise.
  await db.insert(companies).values({ ...company, email, legalName: company.name });
}

/** The company with its subscription's plan, read in one statement. */
export async function findCompany(db: Executor, id: string): Promise<Company | undefined> {
  const result = await db.execute(sql`
    select c.id, c.name, c.siren, c.created, c.sandbox_clock_offset_ms, coalesce(s.plan, 'free') as plan
    from companies c left join subscriptions s on s.company_id = c.id
    where c.id = ${id} limit 1`);
  const row = result.rows[0] as Record<string, unknown> | undefined;
  if (!row) return undefined;
  return {
    id: row.id as string,
    name: row.name as string,
    siren: row.siren as string,
    plan: row.plan as PlanName,
    created: new Date(row.created as string),
    sandboxClockOffsetMs: Number(row.sandbox_clock_offset_ms),
  };
}

/** The companies with their subscription's plan, in id order (creation order); the first `limit` when given. */
export async function listCompaniesWithPlan(
  db: Executor,
  limit?: number,
): Promise<Omit<Company, 'sandboxClockOffsetMs'>[]> {
  const result = await db.execute(sql`
    select c.id, c.name, c.siren, c.created, coalesce(s.plan, 'free') as plan
    from companies c left join subscriptions s on s.company_id = c.id
    order by c.id ${limit === undefined ? sql`` : sql`limit ${limit}`}`);
  return (result.rows as Record<string, unknown>[]).map((row) => ({
    id: row.id as string,
    name: row.name as string,
    siren: row.siren as string,
    plan: row.plan as PlanName,
    created: new Date(row.created as string),
  }));
}

export async function countCompanies(db: Executor): Promise<number> {
  const rows = await db.select({ id: companies.id }).from(companies).limit(1);
  return rows.length;
}

/** Companies by id (every one when `ids` is absent), in id order: the periodic passes that act per company. */
export async function listCompanies(
  db: Executor,
  ids?: string[],
): Promise<Pick<Company, 'id' | 'siren' | 'sandboxClockOffsetMs'>[]> {
  const query = db
    .select({ id: companies.id, siren: companies.siren, sandboxClockOffsetMs: companies.sandboxClockOffsetMs })
    .from(companies);
  return (ids ? query.where(inArray(companies.id, ids)) : query).orderBy(companies.id);
}

/** Moves the sandbox clock forward by `ms` (never back); returns the new offset. */
export async function advanceSandboxOffset(db: Executor, id: string, ms: number): Promise<number> {
  const [row] = await db
    .update(companies)
    .set({ sandboxClockOffsetMs: sql`${companies.sandboxClockOffsetMs} + ${ms}::bigint` })
    .where(eq(companies.id, id))
    .returning({ offset: companies.sandboxClockOffsetMs });
  return Number(row?.offset ?? 0);
}

/** Sets the offset back to 0; returns the offset it had (the row stays locked until the commit). */
export async function resetSandboxOffset(db: Executor, id: string): Promise<number> {
  const result = await db.execute(sql`
    update companies c set sandbox_clock_offset_ms = 0
    from (select id, sandbox_clock_offset_ms as previous from companies where id = ${id} for update) old
    where c.id = old.id returning old.previous`);
  return Number((result.rows[0] as { previous?: string | number } | undefined)?.previous ?? 0);
}

export async function findCompanyEmail(db: Executor, id: string): Promise<string | null> {
  const [row] = await db.select({ email: companies.email }).from(companies).where(eq(companies.id, id)).limit(1);
  return row?.email ?? null;
}

const identityColumns = {
  legalName: companies.legalName,
  tradeName: companies.tradeName,
  legalForm: companies.legalForm,
  shareCapital: companies.shareCapital,
  registration: companies.registration,
  vatNumber: companies.vatNumber,
  iban: companies.iban,
  bic: companies.bic,
  contact: companies.contact,
};

/** The company's name, SIREN and legal identity; `forUpdate` locks the row for a change. */
export async function findIdentity(db: Executor, id: string, forUpdate = false) {
  const query = db
    .select({ id: companies.id, name: companies.name, siren: companies.siren, ...identityColumns })
    .from(companies)
    .where(eq(companies.id, id))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateIdentity(db: Executor, id: string, identity: LegalIdentity): Promise<void> {
  await db.update(companies).set(identity).where(eq(companies.id, id));
}

const companyColumns = rawRow(companies, 'company_');

/** `findIdentity` (without the lock) as a lookup of a bigger statement. */
export function identityLookup(id: string): Lookup<NonNullable<Awaited<ReturnType<typeof findIdentity>>> | null> {
  return {
    query: sql`select ${companyColumns.columns('companies')} from companies where id = ${id} limit 1`,
    read(raw) {
      const row = companyColumns.read(raw);
      if (!row) return null;
      const { legalName, tradeName, legalForm, shareCapital, registration, vatNumber, iban, bic, contact } = row;
      return {
        id: row.id,
        name: row.name,
        siren: row.siren,
        legalName,
        tradeName,
        legalForm,
        shareCapital,
        registration,
        vatNumber,
        iban,
        bic,
        contact,
      };
    },
  };
}
