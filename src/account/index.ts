import type { Capability } from '../capability.js';
import { accountRoutes } from './routes.js';

/** The account: the company, its plan and environment, as the key sees them. */
export const accountCapability: Capability = { name: 'account', routes: accountRoutes };
