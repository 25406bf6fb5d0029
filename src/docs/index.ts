import type { Capability } from '../capability.js';
import { docsRoutes } from './routes.js';

/** The error documentation every `doc_url` points to. */
export const docsCapability: Capability = { name: 'docs', pages: { routes: docsRoutes } };
