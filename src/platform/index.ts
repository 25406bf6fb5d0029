import type { Capability } from '../capability.js';

/**
 * Platform: the approved platform (PA) the service deposits to. One connector interface
 * (`connector.ts`), the live AFNOR XP Z12-013 connector (`afnor-connector.ts`), the contract's
 * rejection classification, next step and retry table as pure rules, the CDAR life-cycle message,
 * and `pa-simulator` (`simulator/`), the issuer's and buyer's platforms an integrator runs, which
 * the sandbox also runs in process as the test mode's platform (`sandbox-platform.ts`).
 */
export const platformCapability: Capability = {
  name: 'platform',
  published: [
    'connector.ts',
    'afnor-connector.ts',
    'rejection-classification.ts',
    'next-step.ts',
    'retry-policy.ts',
    'cdar.ts',
    'callback-signature.ts',
    'openapi-validator.ts',
    'sandbox-platform.ts',
    'simulator/simulator.ts',
    'simulator/scenario.ts',
    'simulator/directory.ts',
  ],
};
