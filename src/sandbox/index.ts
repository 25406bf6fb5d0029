import type { Capability } from '../capability.js';
import { sandboxRoutes } from './routes.js';

/** The sandbox: reset of the test environment to its fixtures, and its clock. */
export const sandboxCapability: Capability = { name: 'sandbox', routes: sandboxRoutes };
