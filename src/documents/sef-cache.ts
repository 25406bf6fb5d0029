import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stylesheets, type Stylesheet, type StylesheetName } from './standards.js';

/**
 * The schematrons' XSLT compiled to SEF (the form saxon-js executes) by the `xslt3` compiler, at
 * first use, and kept in a cache folder under a name that carries a hash of the XSLT and of the
 * compiler's version: a changed stylesheet or compiler never reuses a stale SEF. The SEFs weigh
 * 3 to 5 MB each and take 10 to 30 s to compile, so they are never committed.
 *
 * The compiler runs as a child process: it needs ~400 MB while compiling, which the service should
 * not keep, and it keeps the event loop free.
 */

const require = createRequire(import.meta.url);
const compilerPath: string = require.resolve('xslt3');
const compilerVersion: string = (require('xslt3/package.json') as { version: string }).version;
const runtimeVersion: string = (require('saxon-js/package.json') as { version: string }).version;

/** Compilations under way in this process, so two callers never compile the same stylesheet twice. */
const pending = new Map<string, Promise<string>>();

async function cacheKey(sheet: Stylesheet): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`xslt3 ${compilerVersion} saxon-js ${runtimeVersion}\n`);
  hash.update(await readFile(sheet.xslt));
  return hash.digest('hex').slice(0, 24);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

function compile(xslt: string, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [compilerPath, `-xsl:${xslt}`, `-export:${target}`, '-nogo', '-relocate:on'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 20_000) stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`xslt3 failed on ${xslt} (${signal ?? `exit ${code}`}): ${stderr.trim().slice(-2000)}`));
    });
  });
}

/** The path of the stylesheet's SEF in `cacheDir`, compiling it first when it is not there. */
export function compiledStylesheet(name: StylesheetName, cacheDir: string): Promise<string> {
  const sheet = stylesheets[name];
  const key = `${cacheDir}\0${name}`;
  const running = pending.get(key);
  if (running) return running;
  const work = (async () => {
    const dir = join(cacheDir, 'sef');
    const path = join(dir, `${name}-${await cacheKey(sheet)}.sef.json`);
    if (await exists(path)) return path;
    await mkdir(dir, { recursive: true });
    // Written beside, then renamed: another process compiling at the same time never reads half a file.
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await compile(sheet.xslt, temporary);
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
    return path;
  })();
  pending.set(key, work);
  work.catch(() => undefined).finally(() => pending.delete(key));
  return work;
}

/** Compiles every stylesheet the validators run (a warm-up before the first document). */
export async function compileAll(cacheDir: string, names: StylesheetName[]): Promise<Record<string, string>> {
  const paths = await Promise.all(names.map((name) => compiledStylesheet(name, cacheDir)));
  return Object.fromEntries(names.map((name, index) => [name, paths[index]!]));
}
