// A worker thread starts without the service's TypeScript loader (bin/facteur.js registers it on
// the main thread only): register it here, then load the worker's TypeScript.
import { register } from 'tsx/esm/api';

// The two large published modules load through Node's own loader first: under tsx's, the 1 MB
// glue of libxml2-wasm alone costs two seconds and ~130 MB of RSS per thread (its source is
// rewritten with a source map); saxon-js ~70 MB. Later imports find them loaded.
await import('libxml2-wasm');
await import('saxon-js');
register();
await import('./validation-worker.ts');
