import type { Capability } from '../capability.js';
import { paymentPortalRoutes } from './routes.js';

/** The public payment page of an invoice (`/pay/:token`, no key). */
export const paymentPortalCapability: Capability = { name: 'payment-portal', pages: { routes: paymentPortalRoutes } };
