/**
 * Rule 1 of the exchange's issue: only `platform/` (and the simulator, which is a platform) builds
 * the AFNOR connector or calls a platform's flows: deposit, search, subscribe, read. A capability
 * declares what it does with a flow (platform/flows.ts) and the exchange calls the platform for it.
 * The calls below were made by capabilities when the rule came: each is to move into the exchange
 * (and off the list, which must not name a call that is gone); no other may appear.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const allowedFolders = new Set(['platform', 'pa-simulator']);
/** The connector's calls on the platform's flows (Flow Service and its webhooks). */
const flowCalls = [
  'deposit',
  'findDeposit',
  'getFlow',
  'readLifecycle',
  'eventsOfFlow',
  'subscribe',
  'listIncoming',
  'downloadFlow',
];

const knownCalls: Record<string, string[]> = {
  'ereporting/service.ts': ['getFlow'],
  'invoices/sandbox-statuses.ts': ['deposit', 'eventsOfFlow', 'findDeposit', 'getFlow'],
};
const knownImports = new Set<string>([]);

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });

const outside = sources(src)
  .map((full) => ({ path: relative(src, full), text: readFileSync(full, 'utf8') }))
  .filter((file) => !allowedFolders.has(file.path.split('/')[0]!));

const callPattern = new RegExp(`\\.\\s*(${flowCalls.join('|')})\\(`, 'g');

test("outside platform/, nothing calls a platform's flows but the calls listed to move (and the list holds none that is gone)", () => {
  const found: Record<string, string[]> = {};
  for (const file of outside) {
    const calls = [...new Set([...file.text.matchAll(callPattern)].map((match) => match[1]!))].sort();
    if (calls.length > 0) found[file.path] = calls;
  }
  assert.deepEqual(found, knownCalls);
});

test('outside platform/ and the simulator, nothing imports the AFNOR connector but the files listed to move', () => {
  const importers = outside
    .filter((file) => /from '[./]*\/platform\/afnor-connector\.js'/.test(file.text))
    .map((file) => file.path)
    .sort();
  assert.deepEqual(importers, [...knownImports].sort());
});
