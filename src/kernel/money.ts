import Big from 'big.js';

/**
 * Money and the decimals around it. REST amounts are integer cents; webhook payloads of payment
 * events and messages carry decimal strings in euros with two decimals (contract, "Data by
 * family"). Exact: big.js or integer arithmetic, never floats.
 */

/** Quantities: up to 12 digits and 4 decimals (BR-FR-DEC-02); unit prices: 12 digits and 6 decimals (BR-FR-DEC-03). */
export const quantityPattern = /^\d{1,12}(\.\d{1,4})?$/;
export const unitPricePattern = /^\d{1,12}(\.\d{1,6})?$/;

/** Cents as a euro decimal string: 123456 -> "1234.56", -5 -> "-0.05". */
export function euros(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`an amount in cents is a safe integer; got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** BT-131 line net: round2(quantity x unit price), half-up on magnitudes, in cents. */
export function lineNetCents(quantity: string, unitPrice: string): number {
  return Number(new Big(quantity).times(unitPrice).round(2, Big.roundHalfUp).times(100).toFixed(0));
}
