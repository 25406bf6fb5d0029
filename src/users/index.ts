import type { Capability } from '../capability.js';

/** Dashboard users: passwords, sessions, log-in challenges. */
export const usersCapability: Capability = {
  name: 'users',
  published: ['password-rules.ts', 'tokens.ts'],
};
