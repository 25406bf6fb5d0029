const instantPattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * An ISO 8601 date (`2026-09-01`, midnight UTC) or date-time with an offset or `Z`, or null.
 * Impossible calendar dates (`2030-02-31`) and times (`25:00`) are refused instead of rolling
 * over as `new Date` would.
 */
export function parseIsoInstant(value: string): Date | null {
  const match = instantPattern.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', , zone] = match;
  const year = Number(y),
    month = Number(mo),
    day = Number(d),
    hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null;
  if (match[4] !== undefined && zone === undefined) return null; // a time without a zone is ambiguous
  const parsed = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}
