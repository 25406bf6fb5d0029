import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { retypeRounding, roundingRetypeVersion } from './rounding-retype.js';
import { stylesheetOfCompiledName, type CompiledName, type Stylesheet } from './standards.js';

/**
 * The schematrons' XSLT compiled to SEF (the form saxon-js executes) by the `xslt3` compiler, at
 * install (`npm ci`: bin/compile-validators.js) or else at first use, and kept in a cache folder under a name that carries a hash of the XSLT and of the
 * compiler's version: a changed stylesheet or compiler never reuses a stale SEF. The SEFs weigh
 * 3 to 5 MB each and take 10 to 30 s to compile, so they are never committed. Before it is
 * compiled, the XSLT's walks of the document are rewritten (schematron-walk.xsl: the same rules,
 * the same reports, a third to a half of the time); `as-published` compiles it untouched;
 * `retyped` compiles it with its walks as published and its rounding calls retyped
 * (rounding-retype.ts), for a stylesheet too large to rewrite (Stylesheet.compiledForm).
 *
 * The compiler runs as a child process: it needs ~400 MB while compiling, which the service should
 * not keep, and it keeps the event loop free.
 */

const require = createRequire(import.meta.url);
const compilerPath: string = require.resolve('xslt3');
const compilerVersion: string = (require('xslt3/package.json') as { version: string }).version;
const runtimeVersion: string = (require('saxon-js/package.json') as { version: string }).version;
const walkRewrite = fileURLToPath(new URL('./schematron-walk.xsl', import.meta.url));

/**
 * `entered`: the walks rewritten (what the validators run); `as-published`: the XSLT as published;
 * `retyped`: as published but for the saxon-js compiler's rounding type error (rounding-retype.ts).
 */
export type CompiledForm = 'entered' | 'as-published' | 'retyped';

/** The form `sheet` is compiled in: its own when it has one (Stylesheet.compiledForm), else the one asked. */
const formOf = (sheet: Stylesheet, asked: CompiledForm): CompiledForm => sheet.compiledForm ?? asked;

/** Compilations under way in this process, so two callers never compile the same stylesheet twice. */
const pending = new Map<string, Promise<string>>();

async function cacheKey(sheet: Stylesheet, form: CompiledForm): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`xslt3 ${compilerVersion} saxon-js ${runtimeVersion}\n`);
  hash.update(await readFile(sheet.xslt));
  if (form === 'entered') hash.update(await readFile(walkRewrite));
  if (form === 'retyped') hash.update(`rounding-retype ${roundingRetypeVersion}`);
  return hash.digest('hex').slice(0, 24);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Compilers running for this process: they end with it rather than write into a folder it left. */
const compilers = new Set<ChildProcess>();
let endsWithProcess = false;

function runXslt3(args: string[]): Promise<void> {
  if (!endsWithProcess) {
    endsWithProcess = true;
    process.once('exit', () => {
      for (const child of compilers) child.kill('SIGKILL');
    });
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [compilerPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    compilers.add(child);
    child.on('close', () => compilers.delete(child));
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 20_000) stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`xslt3 ${args[0]} failed (${signal ?? `exit ${code}`}): ${stderr.trim().slice(-2000)}`));
    });
  });
}

/** Writes `xslt` with its walks rewritten (schematron-walk.xsl) to `target`. */
export function rewriteWalks(xslt: string, target: string): Promise<void> {
  return runXslt3([`-xsl:${walkRewrite}`, `-s:${xslt}`, `-o:${target}`]);
}

async function compile(xslt: string, target: string, form: CompiledForm): Promise<void> {
  if (form === 'as-published') return runXslt3([`-xsl:${xslt}`, `-export:${target}`, '-nogo', '-relocate:on']);
  // Rewritten beside the SEF; relocatable, the SEF reads its code lists from the original's place.
  const rewritten = `${target}.xslt`;
  try {
    if (form === 'retyped') await writeFile(rewritten, retypeRounding(await readFile(xslt, 'utf8')).text);
    else await rewriteWalks(xslt, rewritten);
    await runXslt3([`-xsl:${rewritten}`, `-export:${target}`, '-nogo', '-relocate:on']);
  } finally {
    await rm(rewritten, { force: true });
  }
}

/** Where the stylesheet's SEF is (or would be) in `cacheDir`: its name carries the key. */
async function sefPath(name: CompiledName, cacheDir: string, asked: CompiledForm): Promise<string> {
  const sheet = stylesheetOfCompiledName(name);
  const form = formOf(sheet, asked);
  const file = `${name}${form === 'entered' ? '' : `-${form}`}-${await cacheKey(sheet, form)}.sef.json`;
  return join(cacheDir, 'sef', file);
}

/** The stylesheets among `names` with no SEF of their current text in `cacheDir` (missing, or stale). */
export async function stylesheetsToCompile(
  cacheDir: string,
  names: CompiledName[],
  form: CompiledForm = 'entered',
): Promise<CompiledName[]> {
  const found = await Promise.all(names.map(async (name) => exists(await sefPath(name, cacheDir, form))));
  return names.filter((_name, index) => !found[index]);
}

/** The path of the stylesheet's SEF in `cacheDir`, compiling it first when it is not there. */
export function compiledStylesheet(
  name: CompiledName,
  cacheDir: string,
  form: CompiledForm = 'entered',
): Promise<string> {
  const sheet = stylesheetOfCompiledName(name);
  const key = `${cacheDir}\0${name}\0${form}`;
  const running = pending.get(key);
  if (running) return running;
  const work = (async () => {
    const path = await sefPath(name, cacheDir, form);
    if (await exists(path)) return path;
    await mkdir(dirname(path), { recursive: true });
    // Written beside, then renamed: another process compiling at the same time never reads half a file.
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await compile(sheet.xslt, temporary, formOf(sheet, form));
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
export async function compileAll(
  cacheDir: string,
  names: CompiledName[],
  form: CompiledForm = 'entered',
): Promise<Record<string, string>> {
  const paths = await Promise.all(names.map((name) => compiledStylesheet(name, cacheDir, form)));
  return Object.fromEntries(names.map((name, index) => [name, paths[index]!]));
}
