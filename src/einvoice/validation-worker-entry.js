// A worker thread of the validation pool. In the compiled service (bin/build.js) its module sits
// beside this file; running the TypeScript sources (the tests), the thread starts without the
// main thread's loader: register tsx here, then load the worker's TypeScript.
import { existsSync } from 'node:fs';

const compiled = new URL('./validation-worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  // The two large published modules load through Node's own loader first: under tsx's, the 1 MB
  // glue of libxml2-wasm alone costs two seconds and ~130 MB of RSS per thread (its source is
  // rewritten with a source map); saxon-js ~70 MB. Later imports find them loaded.
  await import('libxml2-wasm');
  await import('saxon-js');
  register();
  await import('./validation-worker.ts');
}
