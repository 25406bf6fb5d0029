// A worker thread starts without the service's TypeScript loader (bin/facteur.js registers it on
// the main thread only): register it here, then load the worker's TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./validation-worker.ts');
