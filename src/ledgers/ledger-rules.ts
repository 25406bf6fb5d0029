/**
 * The rules of the EU B2C threshold ledger, pure. Sources: research/eu-vat-domain.md section 3
 * (the EUR 10,000 threshold of Art. 59c, EU-wide, excluding VAT, current AND preceding calendar
 * year; the supply that makes the total exceed it is already taxed at destination) and section 4
 * (the EUR 100,000 relief of Art. 24b of Regulation 282/2011, current and preceding year), and the
 * contract (rule 3 besides the table; the `eu_threshold_*` codes). Amounts are cents.
 */

/** EUR 10,000 (Art. 59c). */
export const distanceSalesThreshold = 1_000_000;
/** EUR 100,000 (Art. 24b, second paragraph). */
export const reliefThreshold = 10_000_000;
/** A reserved share expires by itself after at most 15 minutes (contract, Limits). */
export const reservationMs = 15 * 60_000;
/** Ledgers are held for these years: the rates are held from 2024 (src/tax/rates.ts). */
export const firstHeldYear = 2024;

export interface Bounds {
  /** Certainly counted. */
  counted: number;
  /** Reserved by decisions not concluded yet (not expired). */
  pending: number;
}

export type ThresholdPosition = 'origin' | 'destination' | 'pending';

/**
 * Where an EU B2C supply of `share` cents is taxed. Above the threshold last year, or when the
 * counted total with this supply exceeds it: destination. When even every pending reservation
 * leaves it under: origin. Otherwise the ceiling falls between the bounds: pending.
 */
export function thresholdPosition(previousYear: number, bounds: Bounds, share: number): ThresholdPosition {
  if (previousYear > distanceSalesThreshold) return 'destination';
  if (bounds.counted + share > distanceSalesThreshold) return 'destination';
  if (bounds.counted + bounds.pending + share <= distanceSalesThreshold) return 'origin';
  return 'pending';
}

export type ReliefPosition = 'established' | 'not_established' | 'pending';

/** Whether one third-party item of evidence suffices: at most EUR 100,000 this year (this supply included) and last year. */
export function reliefPosition(previousYear: number, bounds: Bounds, share: number): ReliefPosition {
  if (previousYear > reliefThreshold) return 'not_established';
  if (bounds.counted + share > reliefThreshold) return 'not_established';
  if (bounds.counted + bounds.pending + share <= reliefThreshold) return 'established';
  return 'pending';
}

/** The ledger's standing toward the threshold, as shown on the ledger. */
export function standing(previousYear: number, bounds: Bounds, threshold: number): 'below' | 'above' | 'undetermined' {
  if (previousYear > threshold || bounds.counted > threshold) return 'above';
  if (bounds.counted + bounds.pending <= threshold) return 'below';
  return 'undetermined';
}

export interface MovementFigures {
  kind: string;
  state: string | null;
  expiresAt: Date | null;
  distanceSales: number;
  electronicServices: number;
  correctedDistanceSales: number;
  correctedElectronicServices: number;
}

/** What a movement still surely counts (`remainingMin`) and may count (`remainingMax`): a pending reservation is 0 to its amount. */
export function remaining(
  entry: MovementFigures,
  now: Date,
): {
  min: { distanceSales: number; electronicServices: number };
  max: { distanceSales: number; electronicServices: number };
} {
  const zero = { distanceSales: 0, electronicServices: 0 };
  const left = {
    distanceSales: entry.distanceSales - entry.correctedDistanceSales,
    electronicServices: entry.electronicServices - entry.correctedElectronicServices,
  };
  if (entry.kind === 'opening' || entry.kind === 'adjustment') return { min: left, max: left };
  if (entry.kind === 'reservation') {
    const state = reservationState(entry, now);
    if (state === 'counted') return { min: left, max: left };
    if (state === 'reserved') return { min: zero, max: left };
  }
  return { min: zero, max: zero };
}

export function reservationState(
  entry: Pick<MovementFigures, 'state' | 'expiresAt'>,
  now: Date,
): 'reserved' | 'counted' | 'released' | 'expired' {
  if (entry.state === 'reserved' && entry.expiresAt && entry.expiresAt.getTime() <= now.getTime()) return 'expired';
  return (entry.state ?? 'released') as 'reserved' | 'counted' | 'released';
}

/** A movement that contributed a figure can be corrected; a returned share, a review or another correction cannot. */
export function correctable(entry: MovementFigures, now: Date): boolean {
  if (entry.kind === 'opening' || entry.kind === 'adjustment') return true;
  if (entry.kind !== 'reservation') return false;
  const state = reservationState(entry, now);
  return state === 'counted' || state === 'reserved';
}

/** `2026-03-31` in the ledger's year and not after today (the scope's day). */
export function dateProblem(date: string, year: number, now: Date): 'outside_year' | 'in_future' | null {
  if (Number(date.slice(0, 4)) !== year) return 'outside_year';
  if (date > now.toISOString().slice(0, 10)) return 'in_future';
  return null;
}

export function yearHeld(year: number, now: Date): boolean {
  return Number.isInteger(year) && year >= firstHeldYear && year <= now.getUTCFullYear() + 1;
}
