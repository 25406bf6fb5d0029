import Big from 'big.js';

/**
 * French presentation of amounts, quantities and dates on the PDF: `1 234,56 €`, `24/11/2026`.
 * The thousands separator is a no-break space (U+00A0), so an amount never breaks across lines.
 */

const noBreakSpace = '\u00a0';

function groupThousands(digits: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += noBreakSpace;
    out += digits[i];
  }
  return out;
}

/** A decimal string in French notation, with at least `minDecimals` and at most `maxDecimals` places. */
export function frenchDecimal(value: string, minDecimals = 0, maxDecimals = 6): string {
  let fixed = new Big(value).toFixed(maxDecimals);
  const negative = fixed.startsWith('-');
  if (negative) fixed = fixed.slice(1);
  let [whole = '0', decimals = ''] = fixed.split('.');
  decimals = decimals.replace(/0+$/, '');
  if (decimals.length < minDecimals) decimals = decimals.padEnd(minDecimals, '0');
  const text = groupThousands(whole) + (decimals ? `,${decimals}` : '');
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

/** Cents as euros: 123456 -> `1 234,56 €`. */
export function frenchEuros(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const text = `${groupThousands(String(Math.floor(abs / 100)))},${String(abs % 100).padStart(2, '0')}${noBreakSpace}€`;
  return negative ? `-${text}` : text;
}

/** A decimal string of euros (a unit price, a share capital): `1234.5` -> `1 234,50 €`, `0.123456` -> `0,123456 €`. */
export function frenchPrice(value: string): string {
  return `${frenchDecimal(value, 2, 6)}${noBreakSpace}€`;
}

/** A VAT rate: `20.00` -> `20 %`, `5.50` -> `5,5 %`. */
export function frenchRate(rate: string): string {
  return `${frenchDecimal(rate, 0, 2)}${noBreakSpace}%`;
}

/** `2026-11-24` -> `24/11/2026`. */
export function frenchDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) throw new RangeError(`not an ISO date: "${isoDate}"`);
  return `${match[3]}/${match[2]}/${match[1]}`;
}

/** SIREN and SIRET grouped as printed: `732 829 320`, `732 829 320 00074`. */
export function groupedIdentifier(value: string): string {
  if (/^\d{9}$/.test(value)) return `${value.slice(0, 3)} ${value.slice(3, 6)} ${value.slice(6)}`;
  if (/^\d{14}$/.test(value)) return `${value.slice(0, 3)} ${value.slice(3, 6)} ${value.slice(6, 9)} ${value.slice(9)}`;
  return value;
}

/** An IBAN in groups of four, as banks print it. */
export function groupedIban(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .replace(/(.{4})/g, '$1 ')
    .trim();
}
