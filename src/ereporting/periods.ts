/**
 * The period a reported operation falls in, from the seller's e-reporting periodicity (tax
 * profile; research/fr-einvoicing-domain.md section 5, "Periodicity"): three per month by decade
 * (1-10, 11-20, 21-end), monthly, or every two months (January-February, March-April...).
 * Payment data of a seller reporting its transactions by decade is monthly (the same table).
 */

export type Periodicity = 'three_per_month' | 'monthly' | 'bimonthly';

export interface Period {
  start: string;
  end: string;
  /** `start/end`, an ISO 8601 interval of days (both included). */
  key: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The period of `date` (`YYYY-MM-DD`). */
export function periodOf(date: string, periodicity: Periodicity): Period {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  const ym = (m: number) => `${year}-${pad(m)}`;
  let start: string;
  let end: string;
  switch (periodicity) {
    case 'three_per_month': {
      const first = day <= 10 ? 1 : day <= 20 ? 11 : 21;
      const last = first === 21 ? lastDay(year, month) : first + 9;
      start = `${ym(month)}-${pad(first)}`;
      end = `${ym(month)}-${pad(last)}`;
      break;
    }
    case 'monthly':
      start = `${ym(month)}-01`;
      end = `${ym(month)}-${pad(lastDay(year, month))}`;
      break;
    case 'bimonthly': {
      const first = month % 2 === 1 ? month : month - 1;
      start = `${ym(first)}-01`;
      end = `${ym(first + 1)}-${pad(lastDay(year, first + 1))}`;
      break;
    }
  }
  return { start, end, key: `${start}/${end}` };
}

/** Payment data of a seller declaring by decade is monthly; otherwise it follows the transactions. */
export function paymentPeriodicity(periodicity: Periodicity): Periodicity {
  return periodicity === 'three_per_month' ? 'monthly' : periodicity;
}

/** The instant a period's declaration may leave: the day after its end, 00:00 UTC. */
export function dueAtOf(period: Period): Date {
  return new Date(Date.parse(`${period.end}T00:00:00Z`) + 86_400_000);
}

/** `YYYY-MM-DD/YYYY-MM-DD` read back, or null. */
export function parsePeriodKey(key: string): Period | null {
  const match = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/.exec(key);
  return match ? { start: match[1]!, end: match[2]!, key } : null;
}
