// The TypeScript sources compiled to JavaScript once, so that the service runs without a loader.
//
// Run through tsx's loader, the service held ~230 MB before its first request; compiled, ~150 MB
// (tsx keeps every module's source and map in its loader thread, third-party modules included).
// esbuild only strips the types (a file in, a file out, no bundle): ~1 s for the whole tree.
// `npm ci` runs it (the `prepare` script); `bin/facteur.js` and the benches call `ensureBuild`,
// which rebuilds only when a source changed.
//
// Each build lives in `build/<fingerprint>/` (the paths, sizes and times of the files compiled),
// written in a temporary folder and renamed in place: two processes starting at once never see
// half a build, and a running process keeps the build it started from.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Compiled: the service and the benches that measure it. Copied beside them: the migrations. */
const compiledTrees = ['src', 'bench'];
const copiedTrees = ['drizzle'];
const completeMark = '.complete';
/** Older builds are removed once a day old, past the newest few: a process started from one may still load from it. */
const keepOldBuildsMs = 86_400_000;
const keptBuilds = 3;
/** `build/validators/`: the compiled validators (compile-validators.js), kept across builds. */
const validatorsFolder = 'validators';

function filesUnder(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return found.sort();
}

const isSource = (file) => file.endsWith('.ts') && !file.endsWith('.d.ts');

function fingerprint(files, projectRoot) {
  const hash = createHash('sha256');
  const esbuildVersion = createRequire(import.meta.url)('esbuild/package.json').version;
  hash.update(`esbuild ${esbuildVersion}\n`);
  for (const file of files) {
    const stat = statSync(file);
    hash.update(`${relative(projectRoot, file)} ${stat.size} ${Math.floor(stat.mtimeMs)}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

function pruneOldBuilds(buildRoot, current) {
  const builds = readdirSync(buildRoot)
    .filter((name) => name !== current && !name.startsWith('.') && name !== validatorsFolder)
    .map((name) => {
      try {
        return { path: join(buildRoot, name), at: statSync(join(buildRoot, name)).mtimeMs };
      } catch {
        return null;
      }
    })
    .filter((build) => build !== null)
    .sort((a, b) => b.at - a.at);
  // The newest few stay whatever their age: a process started from one may still load from it.
  for (const build of builds.slice(keptBuilds)) {
    if (Date.now() - build.at > keepOldBuildsMs) rmSync(build.path, { recursive: true, force: true });
  }
}

/**
 * The folder of the current build (it holds `src/`, `bench/` and `drizzle/`), built if need be.
 * `projectRoot` (this checkout by default) lets a test build a copy of the tree it changes.
 */
export async function ensureBuild(projectRoot = root) {
  const buildRoot = join(projectRoot, 'build');
  const files = [...compiledTrees, ...copiedTrees].flatMap((tree) => filesUnder(join(projectRoot, tree)));
  const name = fingerprint(files, projectRoot);
  const dir = join(buildRoot, name);
  if (existsSync(join(dir, completeMark))) return dir;

  const { build } = await import('esbuild');
  const temporary = join(buildRoot, `.${name}-${randomBytes(4).toString('hex')}`);
  const compiledRoots = compiledTrees.map((tree) => join(projectRoot, tree));
  const inCompiledTree = (file) => compiledRoots.some((tree) => file.startsWith(`${tree}/`));
  await build({
    entryPoints: files.filter((file) => inCompiledTree(file) && isSource(file)),
    outdir: temporary,
    outbase: projectRoot,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Maps beside the files, read only under `node --enable-source-maps`.
    sourcemap: true,
    logLevel: 'warning',
  });
  for (const file of files) {
    if (isSource(file) || file.endsWith('.d.ts')) continue;
    cpSync(file, join(temporary, relative(projectRoot, file)));
  }
  writeFileSync(join(temporary, completeMark), '');
  try {
    renameSync(temporary, dir);
  } catch (error) {
    // Another process finished the same build first: keep its.
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(join(dir, completeMark))) throw error;
  }
  pruneOldBuilds(buildRoot, name);
  return dir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = await ensureBuild();
  process.stdout.write(`facteur: compiled into ${relative(root, dir)}\n`);
}
