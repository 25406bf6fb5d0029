import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.js';

/** A PostgreSQL array literal of text values: `{"a","b \\"c\\""}`. */
function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map((value) => (value === null ? 'NULL' : `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

function encode(column: PgColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const type = column.getSQLType();
  if (type.endsWith('[]')) return arrayLiteral(value as unknown[]);
  if (type === 'jsonb' || type === 'json') return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return value;
}

/**
 * Inserts many rows in one statement whose size does not grow with their number: one array
 * parameter per column, spread by `unnest`. For imports and bulk events, where a multi-row
 * VALUES list would cost more to build than to run. Every column is written: rows carry them all
 * (a column left out is NULL, not its default).
 */
export async function bulkInsert<T extends PgTable>(db: Executor, table: T, rows: T['$inferInsert'][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const arrays = columns.map(([key, column]) => {
    const type = column.getSQLType();
    // Array columns travel as text literals, then are cast back, since unnest would flatten them.
    const elementType = type.endsWith('[]') ? 'text' : type;
    const values = rows.map((row) => encode(column, (row as Record<string, unknown>)[key]));
    return {
      param: sql`${sql.param(values)}::${sql.raw(elementType)}[]`,
      select: type.endsWith('[]') ? sql`${sql.identifier(column.name)}::${sql.raw(type)}` : sql.identifier(column.name),
    };
  });
  const aliases = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  await db.execute(sql`insert into ${sql.identifier(getTableName(table))} (${names})
    select ${sql.join(
      arrays.map((a) => a.select),
      sql`, `,
    )} from unnest(${sql.join(
      arrays.map((a) => a.param),
      sql`, `,
    )}) as t(${aliases})`);
}
