/**
 * The boundaries between capabilities, read from the imports and the SQL of src/ (the rules are
 * in the README's development section). Each rule fails with the offending file and import.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capabilities } from '../../src/capabilities.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

interface SourceFile {
  /** Relative to src/: `invoices/service.ts`. */
  path: string;
  /** The top folder (`invoices`), or null for a file at the root of src/. */
  folder: string | null;
  text: string;
  imports: { target: string; typeOnly: boolean }[];
}

function sourceFiles(dir = src): SourceFile[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    if (!name.endsWith('.ts')) return [];
    const path = relative(src, full);
    const text = readFileSync(full, 'utf8');
    const imports = [...text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)'/gms)].map((match) => ({
      target: relative(src, resolve(dirname(full), match[3]!)).replace(/\.js$/, '.ts'),
      typeOnly: Boolean(match[2]),
    }));
    return [{ path, folder: path.includes('/') ? path.split('/')[0]! : null, text, imports }];
  });
}

const files = sourceFiles();
const capabilityNames = new Set(capabilities.map((capability) => capability.name));
const published = new Map(capabilities.map((capability) => [capability.name, new Set(capability.published ?? [])]));
/** Layers every capability may use: building blocks with no business rule. */
const layers = new Set(['kernel', 'db', 'http', 'workers', 'identifiers']);
/** Where the service is assembled: these may import any capability's descriptor. */
const isCompositionRoot = (file: SourceFile) => file.folder === null || file.folder === 'cli';
/**
 * Programs beside the service: `pa-simulator` (the approved platform an integrator runs, and the
 * sandbox's in process). They use the capabilities' published modules like any capability.
 */
const programs = new Set(['cli', 'pa-simulator']);
const fileName = (path: string) => path.split('/').at(-1)!;
const isRoutes = (path: string) => /(^|-)routes\.ts$/.test(fileName(path));
const isStore = (path: string) => /(^|-)store\.ts$/.test(fileName(path));
/** Files that speak HTTP: routes, descriptors, response schemas, request readers; and the page capabilities. */
const pageCapabilities = new Set(['dashboard', 'docs', 'payment-portal', 'quote-portal']);
const speaksHttp = (file: SourceFile) =>
  isCompositionRoot(file) ||
  file.folder === 'http' ||
  (file.folder !== null && pageCapabilities.has(file.folder)) ||
  isRoutes(file.path) ||
  /^(index|request-.*|.*-schema)\.ts$/.test(fileName(file.path));

test('the capabilities of the list are the folders of src/ that are not layers', () => {
  const folders = new Set(files.map((file) => file.folder).filter((folder): folder is string => folder !== null));
  for (const folder of folders) {
    if (layers.has(folder) || programs.has(folder)) continue;
    assert.ok(capabilityNames.has(folder), `src/${folder} is neither a layer nor in src/capabilities.ts`);
  }
  for (const name of capabilityNames) assert.ok(folders.has(name), `capability ${name} has no folder`);
});

test('a capability is reached from outside only through its service.ts and its published modules', () => {
  const violations: string[] = [];
  for (const file of files) {
    for (const { target } of file.imports) {
      const owner = target.includes('/') ? target.split('/')[0]! : null;
      if (!owner || owner === file.folder || !capabilityNames.has(owner)) continue;
      const inside = target.slice(owner.length + 1);
      if (inside === 'service.ts' || published.get(owner)!.has(inside)) continue;
      if (inside === 'index.ts' && isCompositionRoot(file)) continue;
      violations.push(`${file.path} imports ${target}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('published modules are pure: no store, no routes, no database handle', () => {
  const violations: string[] = [];
  for (const [owner, names] of published) {
    for (const name of names) {
      const file = files.find((candidate) => candidate.path === `${owner}/${name}`);
      if (!file) {
        violations.push(`${owner} publishes ${name}, which does not exist`);
        continue;
      }
      if (name !== 'schema.ts' && (isStore(name) || isRoutes(name))) violations.push(`${owner} publishes ${name}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('routes never import routes', () => {
  const violations = files
    .filter((file) => isRoutes(file.path))
    .flatMap((file) =>
      file.imports.filter(({ target }) => isRoutes(target)).map(({ target }) => `${file.path} imports ${target}`),
    );
  assert.deepEqual(violations, []);
});

test('stores import only db/, kernel/ and their own capability (its tables, its types)', () => {
  const violations: string[] = [];
  for (const file of files.filter(
    (candidate) => candidate.folder && capabilityNames.has(candidate.folder) && isStore(candidate.path),
  )) {
    for (const { target, typeOnly } of file.imports) {
      const owner = target.split('/')[0]!;
      if (owner === 'db' || owner === 'kernel') continue;
      if (owner === file.folder && (typeOnly || fileName(target) === 'schema.ts' || isStore(target))) continue;
      violations.push(`${file.path} imports ${target}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('only the HTTP side imports http/ (services, stores, rules and the layers below do not)', () => {
  const violations = files
    .filter((file) => !speaksHttp(file))
    .flatMap((file) =>
      file.imports
        .filter(({ target }) => target.startsWith('http/'))
        .map(({ target }) => `${file.path} imports ${target}`),
    );
  assert.deepEqual(violations, []);
});

test('kernel/, db/ and workers/ import no capability; kernel/ imports nothing of the service', () => {
  const violations: string[] = [];
  for (const file of files.filter((candidate) => ['kernel', 'db', 'workers'].includes(candidate.folder ?? ''))) {
    for (const { target } of file.imports) {
      const owner = target.includes('/') ? target.split('/')[0]! : null;
      if (owner && capabilityNames.has(owner)) violations.push(`${file.path} imports ${target}`);
      if (file.folder === 'kernel' && owner !== 'kernel') violations.push(`${file.path} imports ${target}`);
    }
  }
  assert.deepEqual(violations, []);
});

test("no capability writes another capability's table", () => {
  const owners = new Map<string, string>();
  for (const file of files.filter((candidate) => fileName(candidate.path) === 'schema.ts' && candidate.folder)) {
    for (const match of file.text.matchAll(/pgTable\(\s*'([a-z_]+)'/g)) owners.set(match[1]!, file.folder!);
  }
  assert.ok(owners.get('invoices') === 'invoices' && owners.get('events') === 'webhooks', 'tables are found');
  const violations: string[] = [];
  for (const file of files.filter((candidate) => candidate.folder && capabilityNames.has(candidate.folder))) {
    const code = file.text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    for (const match of code.matchAll(/\b(insert\s+into|update|delete\s+from)\s+"?([a-z_]+)"?/gi)) {
      const owner = owners.get(match[2]!);
      if (owner && owner !== file.folder) violations.push(`${file.path}: ${match[0]}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('platform/ imports no capability: what a capability does with a flow reaches it through a descriptor', () => {
  const violations = files
    .filter((file) => file.folder === 'platform')
    .flatMap((file) =>
      file.imports
        .filter(({ target }) => {
          const owner = target.includes('/') ? target.split('/')[0]! : null;
          return owner !== null && owner !== 'platform' && (capabilityNames.has(owner) || programs.has(owner));
        })
        .map(({ target }) => `${file.path} imports ${target}`),
    );
  assert.deepEqual(violations, []);
});

test('pa-simulator is reached only where the service is assembled (the sandbox is a connection to it)', () => {
  const violations = files
    .filter((file) => file.folder !== 'pa-simulator' && !isCompositionRoot(file))
    .flatMap((file) =>
      file.imports
        .filter(({ target }) => target.startsWith('pa-simulator/'))
        .map(({ target }) => `${file.path} imports ${target}`),
    );
  assert.deepEqual(violations, []);
});
