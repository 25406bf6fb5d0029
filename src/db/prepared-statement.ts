import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './database.js';

const dialect = new PgDialect();
/** Statement names by text; a process sends few distinct hot texts, the bound only guards a mistake. */
const names = new Map<string, string>();
const maxNames = 1_000;

/**
 * Runs `query` as a named statement: each connection has PostgreSQL parse, rewrite (row-level
 * security on every table it reads) and plan it once, then only binds and executes it. For hot
 * statements whose preparation costs more than their execution (several lateral lookups). The name
 * is the text's hash, so one name never stands for two texts. A pooler in front of PostgreSQL
 * must keep prepared statements per server connection (PgBouncer 1.21+ `max_prepared_statements`).
 */
export async function executePrepared(
  db: Executor,
  query: SQL,
): Promise<{ rows: Record<string, unknown>[]; fields: { name: string }[] }> {
  const built = dialect.sqlToQuery(query);
  let name = names.get(built.sql);
  if (name === undefined) {
    if (names.size >= maxNames) names.clear();
    name = `facteur_${createHash('sha256').update(built.sql).digest('hex').slice(0, 24)}`;
    names.set(built.sql, name);
  }
  return (await db._.session.prepareQuery(built, undefined, name, false).execute()) as never;
}
