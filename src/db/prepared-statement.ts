import { createHash } from 'node:crypto';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
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
 * A hot statement whose text never changes, built once: `build` writes it with
 * `sql.placeholder(name)` where each run's values go (through the query builder too, which then
 * encodes them as their columns do), and each run only fills them in. Building a statement walks
 * its whole tree of fragments: on the requests every idempotent POST makes (its key claimed,
 * marked, completed) and on every event recorded, that walk cost more CPU than PostgreSQL running
 * the statement. Runs as `executePrepared` does, under the name of its text.
 */
export function statementTemplate<Values extends Record<string, unknown>>(
  build: (db: Executor) => SQL,
): (db: Executor, values: Values) => Promise<Rows> {
  let built: { sql: string; params: unknown[] } | undefined;
  return (db, values) => {
    built ??= dialect.sqlToQuery(build(db));
    return run(db, { sql: built.sql, params: fillPlaceholders(built.params, values) });
  };
}
