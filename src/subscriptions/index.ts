import type { Capability } from '../capability.js';
import { stripeBillingRoutes, subscriptionRoutes, subscriptionSchema } from './routes.js';
import { advanceSubscriptions, purgeTestStorage } from './service.js';

/**
 * The account holder's subscription: plan, status (a paused or cancelled one blocks writes, in
 * the request pipeline), monthly period and usage, the plan's storage; its events.
 */
export const subscriptionsCapability: Capability = {
  name: 'subscriptions',
  routes: subscriptionRoutes,
  schemas: [subscriptionSchema],
  published: ['subscription-rules.ts'],
  pages: { routes: stripeBillingRoutes },
  purgeTestData: async (tx, ctx) => ({ storage: await purgeTestStorage(tx, ctx.scope) }),
  passes: [
    // Real time: the subscription is the account's, not the sandbox's.
    { name: 'subscriptions.periods', everyMs: 60_000, run: (deps) => advanceSubscriptions(deps) },
  ],
};
