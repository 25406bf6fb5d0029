import type { Capability } from '../capability.js';
import { quotePortalRoutes } from './routes.js';

/** The public page of a quote (`/quote/:token`, no key). */
export const quotePortalCapability: Capability = { name: 'quote-portal', pages: { routes: quotePortalRoutes } };
