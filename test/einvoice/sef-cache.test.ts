import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

test('the received invoices and the documents files share one cache of compiled validators', async () => {
  const { cacheDir } = await import('../../src/received/official-validation.js');
  const { validatorCacheDir } = await import('../../src/einvoice/validation-pool.js');
  const suiteCache = process.env.FACTEUR_TEST_SEF_CACHE;
  delete process.env.FACTEUR_TEST_SEF_CACHE;
  try {
    // One folder, `<dataDir>/cache` (the SEFs in its `sef/`): a second one compiled them all again.
    assert.equal(cacheDir('/srv/facteur'), validatorCacheDir('/srv/facteur'));
    assert.equal(validatorCacheDir('/srv/facteur'), join('/srv/facteur', 'cache'));
  } finally {
    if (suiteCache !== undefined) process.env.FACTEUR_TEST_SEF_CACHE = suiteCache;
  }
});
