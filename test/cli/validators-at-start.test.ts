import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileValidatorsAtStart, readableDuration } from '../../src/cli/validators-at-start.js';
import { installedValidatorCache, validatorsToCompile } from '../../src/einvoice/validation-pool.js';

/** The stylesheet the test leaves to compile: the smallest of the registry (some 20 s). */
const left = 'BR-FR-CDV-Schematron-CDAR';

test('the start says in one line that it compiles a missing or stale validator, with an estimate, then one line with the time it took', async (t) => {
  const cacheDir = await mkdtemp(join(tmpdir(), 'facteur-start-cache-'));
  t.after(() => rm(cacheDir, { recursive: true, force: true }));
  // The installation's cache, but for one stylesheet whose SEF is of an older text (stale).
  const installed = join(installedValidatorCache!, 'sef');
  await mkdir(join(cacheDir, 'sef'));
  const kept: Record<string, number> = {};
  for (const name of await readdir(installed)) {
    if (!name.endsWith('.sef.json') || name.startsWith(`${left}-`)) continue;
    await copyFile(join(installed, name), join(cacheDir, 'sef', name));
    kept[name] = (await stat(join(cacheDir, 'sef', name))).mtimeMs;
  }
  await writeFile(join(cacheDir, 'sef', `${left}-000000000000000000000000.sef.json`), '{}');
  assert.deepEqual(await validatorsToCompile(cacheDir), [left]);

  const lines: string[] = [];
  const compiling = await compileValidatorsAtStart(cacheDir, (line) => lines.push(line));
  assert.ok(compiling, 'a compilation is under way');
  assert.equal(lines.length, 1, 'one line while it compiles');
  assert.match(
    lines[0]!,
    new RegExp(
      `^facteur: compiling the official validators into ${cacheDir} \\(${left}; about \\d+ (s|min)[^)]*, once\\)`,
    ),
  );
  await compiling.done;
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /^facteur: the official validators are compiled, in \d+ s$/);
  assert.deepEqual(await validatorsToCompile(cacheDir), []);
  for (const [name, mtime] of Object.entries(kept))
    assert.equal((await stat(join(cacheDir, 'sef', name))).mtimeMs, mtime, `${name} is not compiled again`);

  // A start that finds them all says nothing.
  const quiet: string[] = [];
  assert.equal(await compileValidatorsAtStart(cacheDir, (line) => quiet.push(line)), null);
  assert.deepEqual(quiet, []);
});

test('durations as a person reads them', () => {
  assert.deepEqual([0.2, 42, 89.4, 90, 150, 600].map(readableDuration), [
    '1 s',
    '42 s',
    '89 s',
    '1 min 30 s',
    '2 min 30 s',
    '10 min',
  ]);
});
