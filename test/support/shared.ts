import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/**
 * The team's shared folder (the contract, the standards): `../shared` beside the checkout, as
 * developers and CI have it, or FACTEUR_SHARED_DIR for a checkout elsewhere.
 */
export function sharedPath(...parts: string[]): string {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const candidates = [process.env.FACTEUR_SHARED_DIR, join(root, '..', 'shared'), '/work/shared'].filter(
    (dir): dir is string => Boolean(dir),
  );
  const dir = candidates.find((candidate) => existsSync(join(candidate, 'seed')));
  if (!dir) throw new Error(`the shared folder is not found (tried ${candidates.join(', ')}); set FACTEUR_SHARED_DIR`);
  return join(dir, ...parts);
}
