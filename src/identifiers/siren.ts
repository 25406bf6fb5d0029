/** SIREN (9 digits) and SIRET (14 digits) check digits: the Luhn algorithm, with La Poste's exception. */

function luhnSum(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum;
}

export function isValidSiren(value: string): boolean {
  return /^\d{9}$/.test(value) && luhnSum(value) % 10 === 0;
}

const laPosteSiren = '356000000';

export function isValidSiret(value: string): boolean {
  if (!/^\d{14}$/.test(value)) return false;
  // La Poste's establishments share one SIREN and are numbered with a digit sum divisible by 5.
  if (value.startsWith(laPosteSiren)) {
    let sum = 0;
    for (const char of value) sum += char.charCodeAt(0) - 48;
    return sum % 5 === 0;
  }
  return luhnSum(value) % 10 === 0 && isValidSiren(value.slice(0, 9));
}
