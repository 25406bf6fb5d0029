/** Calendar days (`YYYY-MM-DD`, UTC) for document dates: issue, due, validity. Pure. */

export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return dayOf(at);
}

/** The instant a day is over (the start of the next day, UTC): a due date "passes" then. */
export function endOfDay(day: string): Date {
  return new Date(Date.parse(`${addDays(day, 1)}T00:00:00Z`));
}

/** French commercial default when no term is agreed (Code de commerce L441-10): 30 days. */
export const defaultPaymentTermsDays = 30;
