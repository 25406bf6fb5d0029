/**
 * PostgreSQL's verdicts, read from an error however deep the driver or Drizzle wrapped it.
 * https://www.postgresql.org/docs/current/errcodes-appendix.html
 */

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/** The innermost PostgreSQL error of a chain of causes, or undefined when none is one. */
function pgErrorOf(error: unknown): PgErrorFields | undefined {
  let current = error as PgErrorFields | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current;
    current = current.cause as PgErrorFields | undefined;
  }
  return undefined;
}

/** The SQLSTATE of the error, if PostgreSQL raised it. */
export function sqlState(error: unknown): string | undefined {
  return pgErrorOf(error)?.code as string | undefined;
}

/** A unique constraint refused the row (23505); of `constraint` only, when given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = pgErrorOf(error);
  return found?.code === '23505' && (constraint === undefined || found.constraint === constraint);
}

/** The transaction lost a serialization race (40001) or a deadlock (40P01): running it again is safe. */
export function isRetryableConflict(error: unknown): boolean {
  const state = sqlState(error);
  return state === '40001' || state === '40P01';
}
