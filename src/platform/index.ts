import type { Capability } from '../capability.js';
import { inboxCallbackRoutes } from './callback-routes.js';
import { deleteTestFlows } from './flow-store.js';
import { deleteScopeInbox } from './inbox-store.js';

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
    'inbox.ts',
  ],
  // The one callback route of every connection (and the two paths of the readers before it).
  pages: { routes: inboxCallbackRoutes },
  purgeTestData: async (tx, ctx) => {
    // The readers and receipts of the scope's connections go too (not counted: the reset's counts are the records').
    await deleteScopeInbox(tx, ctx.scope);
    return { platformFlows: await deleteTestFlows(tx, ctx.scope) };
  },
};
