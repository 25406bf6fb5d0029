/**
 * The years a date or an instant the API accepts may fall in: PostgreSQL has no year 0 and the
 * domain no invoice before 1900, and four digits are what every format downstream writes.
 */
export const earliestYear = 1900;
export const latestYear = 9999;

/** What is wrong with a date text: its shape, a day or time that does not exist, or its year. */
export type IsoDateProblem = 'shape' | 'calendar' | 'range';

/** `date`: a calendar date; `date-time`: with a time and a zone; `date-or-date-time`: either. */
export type IsoDateKind = 'date' | 'date-time' | 'date-or-date-time';

// The year takes more than four digits here so that 10000 reads as a year out of range, not noise.
const instantPattern =
  /^(\d{4,6})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))?)?$/;

/**
 * Why `value` is not a date of this kind, or null when it is one. Impossible calendar dates
 * (`2030-02-31`), times (`25:00`) and zones (`+24:00`) are `calendar`; years outside
 * 1900 to 9999 are `range`; a time without a zone is ambiguous, so a `shape` problem.
 */
export function isoDateProblem(value: string, kind: IsoDateKind): IsoDateProblem | null {
  const match = instantPattern.exec(value);
  if (!match) return 'shape';
  const [, y, mo, d, h, mi, s, , zone, zoneHours, zoneMinutes] = match;
  if (y!.length > 4 && y!.startsWith('0')) return 'shape';
  const hasTime = h !== undefined;
  if (kind === 'date' && hasTime) return 'shape';
  if (kind === 'date-time' && !hasTime) return 'shape';
  if (hasTime && zone === undefined) return 'shape';
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return 'calendar';
  if (hasTime) {
    if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return 'calendar';
    if (zoneHours !== undefined && (Number(zoneHours) > 23 || Number(zoneMinutes) > 59)) return 'calendar';
  }
  if (year < earliestYear || year > latestYear) return 'range';
  return null;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * An ISO 8601 date (`2026-09-01`, midnight UTC) or date-time with an offset or `Z`, or null.
 * Impossible calendar dates (`2030-02-31`) and times (`25:00`) are refused instead of rolling
 * over as `new Date` would, and so are years outside 1900 to 9999.
 */
export function parseIsoInstant(value: string): Date | null {
  if (isoDateProblem(value, 'date-or-date-time') !== null) return null;
  const parsed = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** The instant of a valid date text, for comparing two of them (`formatMinimum` and the like). */
export function compareIsoDates(a: string, b: string): number | undefined {
  const first = parseIsoInstant(a);
  const second = parseIsoInstant(b);
  if (!first || !second) return undefined;
  return Math.sign(first.getTime() - second.getTime());
}
