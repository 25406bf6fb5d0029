import { createHash } from 'node:crypto';
import { getTableColumns, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.js';

const dialect = new PgDialect();
/** Statement names by text; a process sends few distinct hot texts, the bound only guards a mistake. */
const names = new Map<string, string>();
const maxNames = 1_000;

type Rows = { rows: Record<string, unknown>[]; fields: { name: string }[] };

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= maxNames) names.clear();
    name = `facteur_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

async function run(db: Executor, query: { sql: string; params: unknown[] }): Promise<Rows> {
  return (await db._.session.prepareQuery(query, undefined, nameOf(query.sql), false).execute()) as never;
}

/**
 * Runs `query` as a named statement: each connection has PostgreSQL parse, rewrite (row-level
 * security on every table it reads) and plan it once, then only binds and executes it. For hot
 * statements whose preparation costs more than their execution (several lateral lookups). The name
 * is the text's hash, so one name never stands for two texts. A pooler in front of PostgreSQL
 * must keep prepared statements per server connection (PgBouncer 1.21+ `max_prepared_statements`).
 */
export async function executePrepared(db: Executor, query: SQL): Promise<Rows> {
  return run(db, dialect.sqlToQuery(query));
}

/**
 * The parameters of a built template with `values` in place of its placeholders: a value bound to
 * a column (the query builder's) encoded as that column encodes it, null staying SQL NULL as
 * when the statement is built with its values. A placeholder without a value is a mistake.
 */
function filled(params: unknown[], values: Record<string, unknown>): unknown[] {
  const valueOf = (name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for placeholder "${name}"`);
    return value;
  };
  return params.map((param) => {
    if (param instanceof Placeholder) return valueOf(param.name);
    if (param instanceof Param && param.value instanceof Placeholder) {
      const value = valueOf(param.value.name);
      return value === null ? null : param.encoder.mapToDriverValue(value);
    }
    return param;
  });
}

/**
 * A hot statement whose text never changes, built once: `build` writes it with
 * `sql.placeholder(name)` where each run's values go (through the query builder too, which then
 * encodes them as their columns do), and each run only fills them in. Building a statement walks
 * its whole tree of fragments: on the requests every idempotent POST makes (its key claimed,
 * marked, completed), on every event recorded and every draft inserted, that walk cost more CPU
 * than PostgreSQL running the statement. Runs as `executePrepared` does, under the name of its text.
 */
export function statementTemplate<Values extends Record<string, unknown>>(
  build: (db: Executor) => SQL,
): (db: Executor, values: Values) => Promise<Rows> {
  let built: { sql: string; params: unknown[] } | undefined;
  return (db, values) => {
    built ??= dialect.sqlToQuery(build(db));
    return run(db, { sql: built.sql, params: filled(built.params, values) });
  };
}

/**
 * The insert of one row of `table` as a statement template, every column given; a row that
 * leaves a column out (its default) goes through the query builder.
 */
export function rowInsert<T extends PgTable>(table: T): (db: Executor, row: T['$inferSelect']) => Promise<void> {
  const keys = Object.keys(getTableColumns(table));
  const insert = statementTemplate<Record<string, unknown>>((db) =>
    db
      .insert(table)
      .values(Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)])) as never)
      .getSQL(),
  );
  return async (db, row) => {
    const values = row as Record<string, unknown>;
    if (keys.some((key) => values[key] === undefined)) await db.insert(table).values(row as never);
    else await insert(db, values);
  };
}
