import { eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { companies } from './schema.js';
import type { PlanName } from './plans.js';

export interface Company {
  id: string;
  name: string;
  siren: string;
  plan: PlanName;
  created: Date;
}

type Row = typeof companies.$inferSelect;
const toCompany = (row: Row): Company => ({ ...row, plan: row.plan as PlanName });

export async function insertCompany(db: Executor, company: Company): Promise<void> {
  await db.insert(companies).values(company);
}

export async function findCompany(db: Executor, id: string): Promise<Company | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row && toCompany(row);
}

export async function countCompanies(db: Executor): Promise<number> {
  const rows = await db.select({ id: companies.id }).from(companies).limit(1);
  return rows.length;
}
