/** Fixed windows aligned on UTC boundaries (the contract: per fixed UTC minute, not sliding). */
export type WindowUnit = 'minute' | 'hour' | 'day';

const unitMs: Record<WindowUnit, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export interface FixedWindow {
  start: Date;
  end: Date;
}

export function windowOf(at: Date, unit: WindowUnit): FixedWindow {
  const size = unitMs[unit];
  const start = Math.floor(at.getTime() / size) * size;
  return { start: new Date(start), end: new Date(start + size) };
}

/** Whole seconds to wait until `end`, at least one: what Retry-After carries. */
export function secondsUntil(end: Date, now: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}

export function unixSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/** The calendar month (UTC) a usage counter belongs to, as `YYYY-MM`. */
export function usagePeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}
