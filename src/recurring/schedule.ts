/**
 * The schedule of a recurring invoice, pure: its periods are dates (`YYYY-MM-DD`) every month,
 * quarter or year from the start date, on the day of month asked, or the month's last day when
 * the month is shorter (31 gives 30 April, 28 or 29 February). A schedule ends at `endDate`
 * (inclusive) or after `count` periods counted from the start, whichever it has.
 */

export const intervals = ['monthly', 'quarterly', 'yearly'] as const;
export type Interval = (typeof intervals)[number];

export interface Schedule {
  interval: Interval;
  dayOfMonth: number;
  startDate: string;
  endDate: string | null;
  count: number | null;
}

const monthsPer: Record<Interval, number> = { monthly: 1, quarterly: 3, yearly: 12 };

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The date `months` after the start's month, on the day asked (clamped to the month's last day). */
function dateAt(startDate: string, months: number, dayOfMonth: number): string {
  const year = Number(startDate.slice(0, 4));
  const month = Number(startDate.slice(5, 7)) - 1 + months;
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return `${pad(y, 4)}-${pad(m + 1)}-${pad(Math.min(dayOfMonth, lastDay))}`;
}

/** The first period falls on or after the start date: in its month, or the next step. */
function firstStep(schedule: Schedule): number {
  return dateAt(schedule.startDate, 0, schedule.dayOfMonth) >= schedule.startDate ? 0 : 1;
}

/** The period of index `index` (0 is the first), or null past the schedule's end. */
export function periodAt(schedule: Schedule, index: number): string | null {
  if (index < 0 || (schedule.count !== null && index >= schedule.count)) return null;
  const period = dateAt(
    schedule.startDate,
    (firstStep(schedule) + index) * monthsPer[schedule.interval],
    schedule.dayOfMonth,
  );
  return schedule.endDate !== null && period > schedule.endDate ? null : period;
}

const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

/**
 * The first period strictly after `after` (the last period run, if any) and on or after
 * `notBefore`, with its index; null when the schedule has none left.
 */
export function nextPeriod(
  schedule: Schedule,
  bounds: { after: string | null; notBefore: string },
): { index: number; period: string } | null {
  const floor = bounds.after !== null && bounds.after >= bounds.notBefore ? bounds.after : bounds.notBefore;
  // Jump close to the floor (a step before it), then walk: at most a few steps.
  const months = monthIndex(floor) - monthIndex(schedule.startDate);
  let index = Math.max(0, Math.floor(months / monthsPer[schedule.interval]) - 1);
  for (;;) {
    const period = periodAt(schedule, index);
    if (period === null) return null;
    const later = bounds.after === null ? period >= floor : period > bounds.after && period >= bounds.notBefore;
    if (later) return { index, period };
    index++;
  }
}

/** A period is due at its 00:00 UTC (on the sandbox clock for test templates). */
export function runAt(period: string): Date {
  return new Date(`${period}T00:00:00.000Z`);
}
