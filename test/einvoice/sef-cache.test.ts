import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCii } from '../../src/einvoice/cii-writer.js';
import { sampleInvoice } from './support.js';
import { waitUntil } from '../support/processes.js';

/** The pids of the processes whose command line names `text`. */
async function processesNaming(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(text)) found.push(Number(entry));
  }
  return found;
}

test(
  'a compilation under way ends with the process that started it: nothing writes into the folder afterwards',
  { skip: process.platform !== 'linux' && 'reads /proc' },
  async (t) => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'facteur-sef-'));
    t.after(() => rm(cacheDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));
    const module = new URL('../../src/einvoice/sef-cache.ts', import.meta.url).href;
    // A process that starts compiling into a fresh cache (10 to 30 s of work), then exits.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { compiledStylesheet } from ${JSON.stringify(module)};
         compiledStylesheet('BR-FR-CDV-Schematron-CDAR', ${JSON.stringify(cacheDir)}).catch(() => undefined);
         setInterval(() => undefined, 1000);
         process.on('SIGTERM', () => process.exit(0));`,
      ],
      { stdio: 'ignore' },
    );
    t.after(() => child.kill('SIGKILL'));
    // The compiler's command line names the cache folder, as the script of the process does.
    const compilers = async () => (await processesNaming(cacheDir)).filter((pid) => pid !== child.pid);
    await waitUntil(async () => (await compilers()).length > 0, 30_000, 'the compiler starts');
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    // Killed with it, the compiler is gone at once; an orphan would go on for seconds.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const left = await compilers();
    for (const pid of left) process.kill(pid, 'SIGKILL');
    assert.deepEqual(left, [], 'a compiler outlived the process that started it');
  },
);

/** The SEFs of a cache folder and their modification times: what a compilation would change. */
async function sefFiles(cacheDir: string): Promise<Record<string, number>> {
  const dir = join(cacheDir, 'sef');
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sef.json')).sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, (await stat(join(dir, name))).mtimeMs])),
  );
}

test('the install step compiles every stylesheet of the registry into the one cache; the service, the received invoices and the CDAR checks read it, whatever their data directory', async (t) => {
  const { compileInstalledValidators } = await import('../../bin/compile-validators.js');
  const pool = await import('../../src/einvoice/validation-pool.js');
  const { cacheDir, closeValidation, validateIncoming } = await import('../../src/received/official-validation.js');
  // What `npm ci` runs (the `prepare` script); here it finds the cache made by the install.
  const installed = await compileInstalledValidators(() => undefined);
  assert.equal(installed.cacheDir, pool.installedValidatorCache);
  assert.equal(
    pool.installedValidatorCache,
    join(fileURLToPath(new URL('../..', import.meta.url)), 'build', 'validators'),
  );
  assert.deepEqual(await pool.validatorsToCompile(installed.cacheDir), [], 'every registry stylesheet is compiled');
  // The form the validators run: the walks rewritten, or the stylesheet's own (`retyped`: Factur-X EXTENDED).
  const registryForm = /^(?:retyped-)?[0-9a-f]{24}\.sef\.json$/;
  const before = await sefFiles(installed.cacheDir);
  for (const name of pool.registryStylesheets)
    assert.ok(
      Object.keys(before).some((file) => file.startsWith(`${name}-`) && registryForm.test(file.slice(name.length + 1))),
      `${name} is in the cache`,
    );

  // Two installations' data directories, fresh: both read the installation's cache, nothing of their own.
  const dataDirs = [await mkdtemp(join(tmpdir(), 'facteur-data-')), await mkdtemp(join(tmpdir(), 'facteur-data-'))];
  t.after(() => Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  for (const dataDir of dataDirs) {
    assert.equal(pool.validatorCacheDir(dataDir), installed.cacheDir, 'the documents files');
    assert.equal(cacheDir(dataDir), installed.cacheDir, 'the received invoices');
  }
  const verdict = await validateIncoming(
    { syntax: 'CII', contentType: 'application/xml', xml: writeCii(sampleInvoice()), document: {} as never },
    dataDirs[0]!,
    pool.ruleSets.at(-1)!.id,
  );
  await closeValidation();
  assert.equal(verdict.conformant, true, JSON.stringify(verdict.validationErrors));
  const cdar = await pool.ValidationPool.open({
    cacheDir: pool.validatorCacheDir(dataDirs[1]!),
    size: 1,
    stylesheets: pool.cdarValidation.stylesheets,
    xsd: pool.cdarValidation.xsd,
  });
  await cdar.close();
  // Nothing compiled again: the same files, untouched, none added for a registry stylesheet (other
  // tests of the run may add other forms, the schematron walk's as-published one), and no cache in
  // the data directories.
  const after = await sefFiles(installed.cacheDir);
  const enteredForm = (file: string) =>
    pool.registryStylesheets.some(
      (name) => file.startsWith(`${name}-`) && registryForm.test(file.slice(name.length + 1)),
    );
  const entered = (files: Record<string, number>) =>
    Object.fromEntries(Object.entries(files).filter(([file]) => enteredForm(file)));
  assert.deepEqual(entered(after), entered(before));
  for (const dataDir of dataDirs) assert.deepEqual(await readdir(dataDir), []);
});
