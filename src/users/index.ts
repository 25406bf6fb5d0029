import type { Capability } from '../capability.js';
import { userRecords } from './data-export.js';

/** Dashboard users: passwords, sessions, the sign-in lockout. */
export const usersCapability: Capability = {
  name: 'users',
  published: ['password-rules.ts', 'tokens.ts'],
  dataExport: [{ name: 'users', page: userRecords }],
};
