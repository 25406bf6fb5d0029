import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * A table's whole row read by hand-written SQL (a claim with its joins, a hot statement the query
 * builder would cost more CPU to build than to run) and mapped back as Drizzle maps its own
 * results: each column through its driver mapping (dates, jsonb, arrays). The columns are
 * selected under `prefix` so that several tables' rows travel in one result row.
 */
export interface RawRow<Row> {
  /** The select list: every column of `alias`, named `<prefix><column>`. */
  columns(alias: string): SQL;
  /** The row of a result row, or null when its key column is null (a left join that found nothing). */
  read(raw: Record<string, unknown>): Row | null;
  /** The name a column travels under (`"<prefix><column>"`), for a later join's condition. */
  column(key: keyof Row & string): SQL;
}

export function rawRow<T extends PgTable>(table: T, prefix = ''): RawRow<T['$inferSelect']> {
  const columns = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  const first = columns[0]![1].name;
  return {
    columns: (alias) =>
      sql.raw(columns.map(([, column]) => `${alias}."${column.name}" as "${prefix}${column.name}"`).join(', ')),
    column(key) {
      const found = columns.find(([name]) => name === key);
      if (!found) throw new Error(`no column ${key}`);
      return sql.raw(`"${prefix}${found[1].name}"`);
    },
    read(raw) {
      if (raw[`${prefix}${first}`] === null || raw[`${prefix}${first}`] === undefined) return null;
      const row: Record<string, unknown> = {};
      for (const [key, column] of columns) {
        const value = raw[`${prefix}${column.name}`];
        row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      }
      return row as T['$inferSelect'];
    },
  };
}
