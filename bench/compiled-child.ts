import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from '../bin/build.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const heapPolicy = fileURLToPath(new URL('../bin/heap-policy.js', import.meta.url));

/**
 * The node arguments of a bench child run as `npm start` runs the service: compiled
 * (bin/build.js), without a loader, under the service's heap policy (bin/heap-policy.js), so
 * that the memory it measures is the service's.
 */
export async function compiledChild(source: URL): Promise<string[]> {
  const build = await ensureBuild();
  return ['--import', heapPolicy, join(build, relative(root, fileURLToPath(source)).replace(/\.ts$/, '.js'))];
}
