import type { Capability } from '../capability.js';
import { deleteTestFlows } from './flow-store.js';

/**
 * Platform: the approved platform (PA) the service deposits to. One connector interface
 * (`connector.ts`), the live AFNOR XP Z12-013 connector (`afnor-connector.ts`), the contract's
 * rejection classification, next step and retry table as pure rules, the CDAR life-cycle message.
 * The simulator of a platform is a program of its own (`src/pa-simulator/`).
 */
export const platformCapability: Capability = {
  name: 'platform',
  published: [
    'connector.ts',
    'afnor-connector.ts',
    'connections.ts',
    'rejection-classification.ts',
    'next-step.ts',
    'retry-policy.ts',
    'cdar.ts',
    'callback-signature.ts',
    'openapi-validator.ts',
    'flows.ts',
  ],
  purgeTestData: async (tx, ctx) => ({ platformFlows: await deleteTestFlows(tx, ctx.scope) }),
};
