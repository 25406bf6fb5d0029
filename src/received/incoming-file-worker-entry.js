// The thread an incoming file is read in. In the compiled service (bin/build.js) its module sits
// beside this file; running the TypeScript sources (the tests), the thread starts without the
// main thread's loader: register tsx here, then load the worker's TypeScript (as
// documents/validation-worker-entry.js does).
import { existsSync } from 'node:fs';

const compiled = new URL('./incoming-file-worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  // The published modules load through Node's own loader first: tsx would rewrite their source.
  await import('pdf-lib');
  await import('fast-xml-parser');
  register();
  await import('./incoming-file-worker.ts');
}
