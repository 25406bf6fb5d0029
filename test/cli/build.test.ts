/**
 * The compiled service (bin/build.js): what `npm ci` builds and `bin/facteur.js` runs. A build is
 * whole (JavaScript for every source, the files the code reads beside it, the migrations), made
 * once per state of the sources, and two processes building at once end with one build.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

test('a changed source makes a new build; two processes building at once end with one whole build', async () => {
  const before = await ensureBuild();
  // A source added, then removed: the tree is exactly as it was (times and all).
  const added = join(root, 'bench', `build-test-${process.pid}.ts`);
  writeFileSync(added, 'export const built = true;\n');
  try {
    const [first, second] = await Promise.all([ensureBuild(), ensureBuild()]);
    assert.notEqual(first, before);
    assert.equal(first, second);
    assert.ok(existsSync(join(first, '.complete')));
    assert.ok(existsSync(join(first, 'bench', `build-test-${process.pid}.js`)));
  } finally {
    rmSync(added, { force: true });
  }
  assert.equal(await ensureBuild(), before, 'back to the first state: its build again');
});
