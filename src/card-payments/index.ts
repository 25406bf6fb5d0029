import type { Capability } from '../capability.js';
import { cardPaymentRoutes, providerSchema, stripeWebhookRoutes } from './routes.js';

/** Card payments: the company's Stripe account, Checkout Sessions from the payment page, Stripe's signed events. */
export const cardPaymentsCapability: Capability = {
  name: 'card-payments',
  routes: cardPaymentRoutes,
  schemas: [providerSchema],
  pages: { routes: stripeWebhookRoutes },
  // Stripe's webhook signature, which the operator's Stripe Billing events carry too (subscriptions).
  published: ['stripe-signature.ts'],
};
