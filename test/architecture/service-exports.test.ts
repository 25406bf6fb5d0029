/**
 * Rule 5 of the exchange's issue: a capability's `service.ts` exports use cases (functions it
 * names and documents), never a store's functions passed through; and a published module is pure:
 * no database driver, HTTP client or server, no store. The published modules below were not when
 * the rule came: each is to move behind its service (and off the list, which must hold none that is
 * pure now); no other may appear.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capabilities } from '../../src/capabilities.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

const knownImpure = new Set(['establishments/platform-access.ts', 'platform/afnor-connector.ts']);

/** The value (not type-only) imports and re-exports of a file: `[kind, names, target]`. */
function valueLinks(text: string): { exported: boolean; target: string }[] {
  return [...text.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)'/gms)]
    .filter((match) => !match[2])
    .map((match) => ({ exported: match[1] === 'export', target: match[4]! }));
}

test('no service.ts passes a store through: what it exports it names as a use case', () => {
  const violations: string[] = [];
  for (const folder of readdirSync(src)) {
    const path = join(src, folder, 'service.ts');
    if (!existsSync(path)) continue;
    for (const link of valueLinks(readFileSync(path, 'utf8')))
      if (link.exported && /(^|[-/])store\.js$|\*/.test(link.target))
        violations.push(`${folder}/service.ts re-exports ${link.target}`);
    if (/^export \*/m.test(readFileSync(path, 'utf8')))
      violations.push(`${folder}/service.ts re-exports a whole module`);
  }
  assert.deepEqual(violations, []);
});

const impureTarget = (target: string) =>
  /^(pg|undici|node:http|node:https|node:net|node:tls|node:http2)$/.test(target) || /(^|[-/])store\.js$/.test(target);

test('published modules are pure (no driver, HTTP or store), but the ones listed to move (none of which is pure now)', () => {
  const impure = new Set<string>();
  for (const capability of capabilities)
    for (const name of capability.published ?? []) {
      if (name === 'schema.ts') continue;
      const text = readFileSync(join(src, capability.name, name), 'utf8');
      if (valueLinks(text).some((link) => impureTarget(link.target))) impure.add(`${capability.name}/${name}`);
    }
  assert.deepEqual([...impure].sort(), [...knownImpure].sort());
});
