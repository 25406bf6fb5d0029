// How far V8 lets the heap grow past what survived its last full collection before the next one,
// set before the service loads (later, the limits its loading set stay). Left to itself, V8 lets
// garbage pile up to several times the live heap: a FEC of a million entries, whose live set stays
// under 50 MB, took the process from 150 to 360 MB; at 30 % the same export peaks under 200 MB,
// for ~10 % more CPU in that export (bench/exports.ts). A value given to node (on its command line
// or in NODE_OPTIONS) wins.
import { setFlagsFromString } from 'node:v8';

export const heapGrowingPercent = 30;

const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((flag) =>
  /--heap[-_]growing[-_]percent/.test(flag),
);
if (!given) setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
