/**
 * Unit prices are decimal strings, never floats: up to 12 digits before the point and 6 after,
 * no sign, no exponent. Leading zeros are dropped (`007.50` is `7.50`); the decimals are kept as
 * written, since `12.50` and `12.5` are the same price shown two ways.
 */
const pattern = /^(\d{1,12})(\.\d{1,6})?$/;

export function normalizeUnitPrice(value: string): string | null {
  const match = pattern.exec(value.trim());
  if (!match) return null;
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  return whole + (match[2] ?? '');
}
