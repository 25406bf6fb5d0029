/**
 * Webhook payloads of payment events carry amounts as decimal strings in euros with two decimals
 * (contract, "Data by family"); REST stays in integer cents. Exact: no float arithmetic.
 */
export function euros(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`an amount in cents is a safe integer; got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
