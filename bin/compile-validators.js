// The official validators compiled at install: `npm ci` runs this after bin/build.js (the
// `prepare` script), so the first Factur-X of a fresh install waits seconds, not the minutes
// the compilation takes (xslt3, 10 s to a few minutes a stylesheet). Every stylesheet of the
// registry (src/einvoice/standards.ts) goes into the installation's one cache,
// `build/validators/` (validation-pool.ts `installedValidatorCache`); one already compiled from
// the same text is kept, so a second `npm ci` spends nothing here. Run from the compiled build:
// no TypeScript loader at install.
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuild } from './build.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Compiles what the registry lists and the cache lacks; resolves with what it compiled, and where. */
export async function compileInstalledValidators(say = (line) => process.stdout.write(`${line}\n`)) {
  const build = await ensureBuild();
  const pool = join(build, 'src', 'einvoice', 'validation-pool.js');
  const { installedValidatorCache, registryStylesheets, validatorsToCompile, compileValidators } = await import(
    pathToFileURL(pool).href
  );
  const missing = await validatorsToCompile(installedValidatorCache);
  const where = relative(root, installedValidatorCache);
  if (missing.length === 0) {
    say(`facteur: the official validators are compiled (${where})`);
    return { cacheDir: installedValidatorCache, compiled: [] };
  }
  say(
    `facteur: compiling the official validators into ${where} (${missing.length} of ${registryStylesheets.length} stylesheets, once per installation: 2 to 5 minutes on 2 free cores)`,
  );
  const started = Date.now();
  await compileValidators(installedValidatorCache);
  say(`facteur: the official validators are compiled, in ${Math.round((Date.now() - started) / 1000)} s`);
  return { cacheDir: installedValidatorCache, compiled: missing };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await compileInstalledValidators();
  } catch (error) {
    // Loud: an installation whose validators do not compile cannot make a Factur-X either.
    process.stderr.write(`facteur: the official validators did not compile: ${error.message}\n`);
    process.exit(1);
  }
}
