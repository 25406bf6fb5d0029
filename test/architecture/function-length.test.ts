/**
 * Rule 6 of the exchange's issue: a function past about 80 lines gets named steps, and a worker
 * is a small object, not a long closure. Read from the source with the TypeScript parser. Route
 * plugins (`*routes.ts`) and dashboard pages are lists of routes, each its own step, and are not
 * counted. The functions below were already longer when the rule came: each is to be split (and
 * taken off the list, which must not hold a function that is no longer long, or gone); no other
 * function may grow past the bound.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const maxLines = 80;

const knownLong = new Set([
  'cli/commands.ts:runAdminCommand',
  'customers/customer-checks.ts:checkCustomer',
  'db/embedded-postgres.ts:openEmbeddedPostgres',
  'einvoice/cii-reader.ts:readCii',
  'einvoice/cii-writer.ts:writeCii',
  'einvoice/draft-conformance.ts:checkDraftConformance',
  'einvoice/official-validator.ts:validateBatch',
  'einvoice/pdf-renderer.ts:drawTotals',
  'einvoice/ubl-reader.ts:readUbl',
  'invoices/finalize.ts:<anonymous>',
  'invoices/finalize.ts:finalizeDocument',
  'invoices/fixtures.ts:<anonymous>',
  'invoices/fixtures.ts:seedInvoiceFixtures',
  'invoices/generation.ts:createFileWorker',
  'invoices/tax-gate.ts:checkBacking',
  'jobs/worker.ts:createJobWorker',
  'received/service.ts:ingestReceivedInvoice',
  'tax/engine.ts:conclude',
  'tax/line-tax.ts:checkLineTax',
  'tax/service.ts:createTaxDecision',
  'workers/claim-loop.ts:createClaimLoop',
]);

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });

const countedFile = (path: string) =>
  !/(^|-)routes\.ts$/.test(path.split('/').at(-1)!) && !path.startsWith('dashboard/pages/');

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '<anonymous>';
}

/** Every function of src/ whose body spans more than the bound: `file:name`. */
function longFunctions(): string[] {
  const found: string[] = [];
  for (const full of sources(src)) {
    const path = relative(src, full);
    if (!countedFile(path)) continue;
    const file = ts.createSourceFile(full, readFileSync(full, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (
        (ts.isFunctionDeclaration(node) ||
          ts.isFunctionExpression(node) ||
          ts.isArrowFunction(node) ||
          ts.isMethodDeclaration(node)) &&
        node.body
      ) {
        const first = file.getLineAndCharacterOfPosition(node.body.getStart()).line;
        const last = file.getLineAndCharacterOfPosition(node.body.getEnd()).line;
        if (last - first + 1 > maxLines) found.push(`${path}:${nameOf(node)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

test(`no new function past ${maxLines} lines: it gets named steps`, () => {
  const long = longFunctions();
  assert.deepEqual(
    long.filter((entry) => !knownLong.has(entry)),
    [],
    'split these into named steps (a worker: a small object of its steps)',
  );
  assert.deepEqual(
    [...knownLong].filter((entry) => !long.includes(entry)),
    [],
    'these are short now (or gone): take them off the list',
  );
});
