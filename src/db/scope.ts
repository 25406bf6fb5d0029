import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** Whose data and which environment: every tenant query is built from one. */
export interface Scope {
  companyId: string;
  livemode: boolean;
}

export interface TenantTable {
  companyId: PgColumn;
  livemode: PgColumn;
}

/** The tenant filter every store query starts from, so none can leave it out. */
export function inScope(table: TenantTable, scope: Scope): SQL {
  return and(eq(table.companyId, scope.companyId), eq(table.livemode, scope.livemode))!;
}
