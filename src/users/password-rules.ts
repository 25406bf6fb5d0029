import { refuse } from '../kernel/errors.js';

export const minPasswordLength = 12;
export const maxPasswordLength = 200;

/** A new password: long enough, not absurdly long (hashing cost), and not the e-mail address. Pure. */
export function checkNewPassword(password: string, confirmation: string, email: string): void {
  if (password !== confirmation)
    throw refuse('validation_error', 'The two passwords differ; type the same password twice.', { param: 'password' });
  const length = [...password].length;
  if (length < minPasswordLength)
    throw refuse(
      'validation_error',
      `A password has at least ${minPasswordLength} characters; a few unrelated words make a good one.`,
      { param: 'password' },
    );
  if (length > maxPasswordLength)
    throw refuse('validation_error', `A password has at most ${maxPasswordLength} characters.`, { param: 'password' });
  if (password.trim().toLowerCase() === email.toLowerCase())
    throw refuse('validation_error', 'The password must not be the e-mail address.', { param: 'password' });
}
