#!/usr/bin/env node
// The command line runs the TypeScript sources directly through tsx, so `npm ci` is the only build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
