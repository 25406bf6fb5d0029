import type { Capability } from '../capability.js';
import { apiKeyRecords } from './data-export.js';

/** API keys: hashed secrets, scopes, expiry and revocation, served from a per-node cache. */
export const apiKeysCapability: Capability = {
  name: 'api-keys',
  published: ['key-secret.ts'],
  dataExport: [{ name: 'api_keys', page: apiKeyRecords }],
};
