#!/usr/bin/env node
// The command line runs the TypeScript sources directly through tsx, so `npm ci` is the only build step.
import { register } from 'tsx/esm/api';

// libxml2-wasm (the XSD validator) loads through Node's own loader first: under tsx's, its 1 MB
// glue costs two seconds of start and ~110 MB of RSS. Later imports find it loaded.
await import('libxml2-wasm');
register();
await import('../src/main.ts');
