import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from './database.js';
import { executePrepared } from './prepared-statement.js';

/**
 * At most one row of some capability's table, read as part of a bigger statement, so that the
 * reads a use case needs together cost one round trip (`readLookups`) rather than one each: the
 * capability that owns the table gives the query (its columns under a prefix of its own, at most
 * one row) and maps the result back. A lookup may refer to the columns of the lookups before it
 * (`RawRow.column`): they are lateral subqueries of one statement.
 */
export interface Lookup<T> {
  query: SQL;
  read(raw: Record<string, unknown>): T;
}

/** The same lookup with its result mapped (a row to the resource its capability shows). */
export function mapLookup<T, U>(lookup: Lookup<T>, map: (value: T) => U): Lookup<U> {
  return { query: lookup.query, read: (raw) => map(lookup.read(raw)) };
}

/** A lookup that reads nothing (the document names no customer): `value`. */
export function noLookup<T>(value: T): Lookup<T> {
  return { query: sql`select`, read: () => value };
}

type Results<L> = { [K in keyof L]: L[K] extends Lookup<infer T> ? T : never };

/** Runs the lookups, in order, in one statement (the caller's transaction: its snapshot, its locks). */
export async function readLookups<L extends Record<string, Lookup<unknown>>>(
  db: Executor,
  lookups: L,
): Promise<Results<L>> {
  const entries = Object.entries(lookups);
  const joins = entries.map(
    ([, lookup], index) => sql` left join lateral (${lookup.query}) as ${sql.raw(`lookup_${index}`)} on true`,
  );
  // Prepared: with row-level security on each table, planning the lookups costs more than running them.
  const result = await executePrepared(db, sql`select * from (select 1 as lookups) as one${sql.join(joins, sql``)}`);
  // Two lookups' columns under one name would read one of them as the other's.
  const names = result.fields.map((field) => field.name);
  if (new Set(names).size !== names.length) throw new Error(`lookups return a column twice: ${names.join(', ')}`);
  const raw = result.rows[0]!;
  return Object.fromEntries(entries.map(([name, lookup]) => [name, lookup.read(raw)])) as Results<L>;
}
