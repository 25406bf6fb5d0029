import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { companies } from './schema.js';
import type { PlanName } from '../kernel/plans.js';

export interface Company {
  id: string;
  name: string;
  siren: string;
  plan: PlanName;
  created: Date;
  /** How far the company's sandbox clock runs ahead of real time (test mode only). */
  sandboxClockOffsetMs: number;
}

type Row = typeof companies.$inferSelect;
const toCompany = (row: Row): Company => ({
  id: row.id,
  name: row.name,
  siren: row.siren,
  plan: row.plan as PlanName,
  created: row.created,
  sandboxClockOffsetMs: Number(row.sandboxClockOffsetMs),
});

export async function insertCompany(db: Executor, company: Company, email: string | null): Promise<void> {
  await db.insert(companies).values({ ...company, email });
}

export async function findCompany(db: Executor, id: string): Promise<Company | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row && toCompany(row);
}

export async function countCompanies(db: Executor): Promise<number> {
  const rows = await db.select({ id: companies.id }).from(companies).limit(1);
  return rows.length;
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
