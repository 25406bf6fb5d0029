import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.js';

const batchSize = 5000;

/**
 * Deletes a tenant table's rows whose `time` is before `before` (of these companies only, when
 * given), in batches, so that no statement holds many row locks at once (by row address: the
 * cache tables it serves have no key). Returns the count.
 */
export async function deleteRowsBefore(
  db: Executor,
  table: PgTable & { companyId: PgColumn },
  time: PgColumn,
  before: Date,
  companyIds?: readonly string[],
): Promise<number> {
  const ofCompanies: SQL =
    companyIds === undefined
      ? sql`true`
      : sql`${table.companyId} in (${sql.join(
          companyIds.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from ${table} where ctid in (
        select ctid from ${table}
        where ${time} < ${before.toISOString()}::timestamptz and ${ofCompanies} limit ${batchSize})`);
    const deleted = result.rowCount ?? 0;
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
