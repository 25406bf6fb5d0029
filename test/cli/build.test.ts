/**
 * The compiled service (bin/build.js): what `npm ci` builds and `bin/facteur.js` runs. A build is
 * whole (JavaScript for every source, the files the code reads beside it, the migrations), made
 * once per state of the sources, and two processes building at once end with one build.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { ensureBuild } from '../../bin/build.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath ?? entry.path, entry.name)));

test('a build holds every source compiled, the files the code reads, and the migrations', async () => {
  const build = await ensureBuild();
  const built = new Set(filesUnder(build));
  for (const file of filesUnder(join(root, 'src'))) {
    if (file.endsWith('.d.ts')) continue;
    const expected = file.endsWith('.ts') ? file.replace(/\.ts$/, '.js') : file;
    assert.ok(built.has(join('src', expected)), `src/${expected} is missing from the build`);
  }
  assert.equal([...built].filter((file) => file.endsWith('.ts')).length, 0, 'no TypeScript in a build');
  for (const file of filesUnder(join(root, 'drizzle'))) assert.ok(built.has(join('drizzle', file)), file);
  assert.equal(await ensureBuild(), build, 'the same sources give the same build, not a new one');
});

test('the compiled command line runs without a loader', async () => {
  const build = await ensureBuild();
  const run = spawnSync(process.execPath, [join(build, 'src', 'main.js'), 'help'], { encoding: 'utf8' });
  assert.match(run.stdout + run.stderr, /facteur serve/);
  assert.doesNotMatch(run.stderr, /ERR_|Cannot find/);
});

test('a changed source makes a new build; two processes building at once end with one whole build', async (t) => {
  // On a copy of the trees the build reads (times kept): the checkout's own sources never change
  // under the other test files, whose command-line children build from them.
  const copy = mkdtempSync(join(tmpdir(), 'facteur-build-'));
  t.after(() => rmSync(copy, { recursive: true, force: true }));
  for (const tree of ['src', 'bench', 'drizzle'])
    cpSync(join(root, tree), join(copy, tree), { recursive: true, preserveTimestamps: true });
  const before = await ensureBuild(copy);
  // A source added, then removed: the tree is exactly as it was (times and all).
  const added = join(copy, 'bench', 'build-test.ts');
  writeFileSync(added, 'export const built = true;\n');
  const [first, second] = await Promise.all([ensureBuild(copy), ensureBuild(copy)]);
  assert.notEqual(first, before);
  assert.equal(first, second);
  assert.ok(existsSync(join(first, '.complete')));
  assert.ok(existsSync(join(first, 'bench', 'build-test.js')));
  rmSync(added);
  assert.equal(await ensureBuild(copy), before, 'back to the first state: its build again');
});
