/**
 * Legal numbers (CGI annexe II art. 242 nonies A: a unique, chronological and continuous
 * sequence per series; BR-FR-01/02: at most 35 characters of `[A-Za-z0-9+-_/]`). Test documents
 * have their own series, marked, so they can never take a number of the live sequence.
 */
export type NumberedKind = 'invoice' | 'credit_note' | 'quote';

const prefixes: Record<NumberedKind, string> = { invoice: 'F', credit_note: 'AV', quote: 'D' };

/** The counter a document draws from: per company (in the caller's scope), kind, environment and year. */
export function seriesOf(kind: NumberedKind, livemode: boolean, year: number): string {
  return `${livemode ? '' : 'TEST-'}${prefixes[kind]}${year}`;
}

export function formatNumber(series: string, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1)
    throw new Error(`a sequence number is a positive integer; got ${sequence}`);
  const number = `${series}-${String(sequence).padStart(6, '0')}`;
  if (number.length > 35 || !/^[A-Za-z0-9+\-_/]+$/.test(number))
    throw new Error(`"${number}" is not a valid invoice number (BR-FR-01/02)`);
  return number;
}
