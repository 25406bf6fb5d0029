import type { Capability } from '../capability.js';
import { docsRoutes } from './routes.js';

/** The API reference (`/docs`) and the error documentation every `doc_url` points to (`/docs/errors`). */
export const docsCapability: Capability = { name: 'docs', pages: { routes: docsRoutes } };
