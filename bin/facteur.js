#!/usr/bin/env node
// The service runs compiled (bin/build.js: built at `npm ci`, rebuilt here when a source changed).
// Where the build cannot be written (a read-only install without one), the TypeScript sources run
// through tsx instead: slower to start and ~80 MB heavier, the same behaviour.
import './heap-policy.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuild } from './build.js';

let build = null;
try {
  build = await ensureBuild();
} catch (error) {
  process.stderr.write(`facteur: running the TypeScript sources (no build: ${error.message})\n`);
}
if (build) {
  await import(pathToFileURL(join(build, 'src', 'main.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  // libxml2-wasm (the XSD validator) loads through Node's own loader first: under tsx's, its 1 MB
  // glue costs two seconds of start and ~110 MB of RSS. Later imports find it loaded.
  await import('libxml2-wasm');
  register();
  await import('../src/main.ts');
}
