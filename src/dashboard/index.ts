import type { Capability } from '../capability.js';
import { dashboardRefusalPage, dashboardRoutes } from './plugin.js';

/** The dashboard: server-rendered pages with their own sessions, forms and security headers. */
export const dashboardCapability: Capability = {
  name: 'dashboard',
  pages: { routes: dashboardRoutes, prefix: '/dashboard', refusalPage: dashboardRefusalPage },
};
