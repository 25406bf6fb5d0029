/**
 * The flat file of the FEC (Livre des procédures fiscales, article A47 A-1, arrêté of 29 July
 * 2013): the 18 fields in their order, the first line naming them; fields separated by `|` or a
 * tab (one per file); dates `YYYYMMDD`; amounts with a comma, no thousands separator; records
 * ended by CR LF (the article allows CR and/or LF: CR LF is what the administration's own tools
 * and the spreadsheets accountants open these files with read everywhere); characters in
 * ISO 8859-15, one of the three charsets the article allows, the one that holds French text and
 * the euro sign. Pure.
 */

export const fecColumns = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
] as const;

export const fecSeparators = { pipe: '|', tab: '\t' } as const;
export type FecSeparatorName = keyof typeof fecSeparators;

export const fecLineEnd = '\r\n';
export const fecContentType = 'text/plain; charset=iso-8859-15';

/** One line of an entry, before it is written (its journal and number aside): cents, dates `YYYY-MM-DD`. */
export interface FecLineFields {
  entryDate: string;
  account: string;
  accountLabel: string;
  auxiliaryAccount: string;
  auxiliaryLabel: string;
  pieceRef: string;
  pieceDate: string;
  label: string;
  debit: number;
  credit: number;
  validDate: string;
  /** Montantdevise and Idevise: the line's amount (cents, unsigned as Debit and Credit) in the document's currency when it is not the euro; absent or `''` otherwise. */
  currencyAmount?: number;
  currency?: string;
}

/** `2026-09-01` → `20260901`. */
export function fecDate(day: string): string {
  let written = writtenDays.get(day);
  if (written === undefined) {
    written = `${day.slice(0, 4)}${day.slice(5, 7)}${day.slice(8, 10)}`;
    // A file spans a few hundred days: each is written once, then found.
    if (writtenDays.size > 10_000) writtenDays.clear();
    writtenDays.set(day, written);
  }
  return written;
}
const writtenDays = new Map<string, string>();

/** Cents → `1234,56`; the sign, when there is one, first. */
export function fecAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`an amount in cents is a safe integer; got ${cents}`);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** ISO 8859-15 differs from ISO 8859-1 in eight places: these characters take them. */
const latin9Specials = new Map<string, string>([
  ['\u20ac', '\u00a4'], // €
  ['\u0160', '\u00a6'], // Š
  ['\u0161', '\u00a8'], // š
  ['\u017d', '\u00b4'], // Ž
  ['\u017e', '\u00b8'], // ž
  ['\u0152', '\u00bc'], // Œ
  ['\u0153', '\u00bd'], // œ
  ['\u0178', '\u00be'], // Ÿ
]);
/** The ISO 8859-1 characters whose places ISO 8859-15 gave to the ones above. */
const notInLatin9 = new Set(['\u00a4', '\u00a6', '\u00a8', '\u00b4', '\u00b8', '\u00bc', '\u00bd', '\u00be']);
const typographic = new Map<string, string>([
  ['\u2018', "'"],
  ['\u2019', "'"],
  ['\u201c', '"'],
  ['\u201d', '"'],
  ['\u2013', '-'],
  ['\u2014', '-'],
  ['\u2026', '...'],
  ['\u00a0', ' '],
  ['\u202f', ' '],
]);

/** Printable ASCII without `|`: nothing to change (almost every field). */
const plain = /^[\x20-\x7b\x7d\x7e]*$/;

/**
 * A text field as the file holds it: one line, without the separators (`|` and tab become a
 * space), each character as its ISO 8859-15 byte written as one UTF-16 unit below 256 (so the
 * whole text is then encoded with Buffer's `latin1`); a character that charset lacks is spelled
 * without its accents when that gives one (`ł` → `l`), else written `?`.
 */
export function fecText(value: string | null | undefined): string {
  if (!value) return '';
  if (plain.test(value)) return value.trim();
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '|' || code < 0x20 || (code >= 0x7f && code < 0xa0)) out += ' ';
    else if (code < 0x100 && !notInLatin9.has(char)) out += char;
    else {
      const mapped = latin9Specials.get(char) ?? typographic.get(char);
      if (mapped !== undefined) out += mapped;
      else {
        const bare = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
        out += bare.length > 0 && [...bare].every((c) => c.charCodeAt(0) < 0x80) ? bare : '?';
      }
    }
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** The header record: the 18 field names. */
export function fecHeader(separator: string): string {
  return fecColumns.join(separator) + fecLineEnd;
}

/** The first three fields of every record of an entry: the journal's code and label, the entry's number. */
export function fecEntryHead(
  journalCode: string,
  journalLabel: string,
  entryNumber: string,
  separator: string,
): string {
  return `${journalCode}${separator}${journalLabel}${separator}${entryNumber}${separator}`;
}

/**
 * One record: the entry's head, then the line. Text fields must come through `fecText` (the
 * entry builder does it); amounts are written on both sides, `0,00` where the line has none;
 * lettering stays blank, and the foreign currency but for a document in another currency.
 */
export function fecRecord(head: string, line: FecLineFields, separator: string): string {
  const _ = separator;
  return `${head}${fecDate(line.entryDate)}${_}${line.account}${_}${line.accountLabel}${_}${line.auxiliaryAccount}${_}${line.auxiliaryLabel}${_}${line.pieceRef}${_}${fecDate(line.pieceDate)}${_}${line.label}${_}${fecAmount(line.debit)}${_}${fecAmount(line.credit)}${_}${_}${_}${fecDate(line.validDate)}${_}${line.currency ? `${fecAmount(line.currencyAmount ?? 0)}${_}${line.currency}` : _}${fecLineEnd}`;
}

/** Text made of `fecText` fields → the bytes of the file. */
export function fecBytes(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

/** The file's name (A47 A-1 IX): the SIREN, `FEC`, the closing date of the period. */
export function fecFileName(siren: string, closingDay: string): string {
  return `${siren}FEC${fecDate(closingDay)}.txt`;
}
