/**
 * A shell block of the README or of a guide is one the suite runs: today the `sh` blocks of the
 * README's quick start (test/e2e/readme-quick-start.test.ts). Anywhere else a command example is
 * marked `text`, so that no page shows as runnable a block nothing runs.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const shellTags = new Set(['sh', 'bash', 'shell', 'zsh', 'console', 'shell-session']);

/** The sections whose shell blocks a test runs: a document and the heading that opens the section. */
const runSections = [{ document: 'README.md', heading: /^## Quick start/ }];

/** The shell blocks of a document that sit outside every section whose blocks run, with their lines. */
export function unrunShellBlocks(document: string, markdown: string): number[] {
  const found: number[] = [];
  let inRunSection = false;
  let fence: string | null = null;
  for (const [index, line] of markdown.split('\n').entries()) {
    const opening = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (fence) {
      if (opening && opening[1] === fence && opening[2] === '') fence = null;
      continue;
    }
    if (opening) {
      fence = opening[1]!;
      if (shellTags.has(opening[2]!.toLowerCase()) && !inRunSection) found.push(index + 1);
      continue;
    }
    if (/^#{1,2} /.test(line))
      inRunSection = runSections.some((section) => section.document === document && section.heading.test(line));
  }
  return found;
}

function documents(): string[] {
  const found = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return found;
}

describe('shell blocks of the README and of docs/', () => {
  it('tells a block outside the run sections from one inside', () => {
    const markdown =
      '# t\n```sh\na\n```\n## Quick start\n```sh\nb\n```\n## Next\n  ```bash\nc\n  ```\n```text\nd\n```\n';
    assert.deepEqual(unrunShellBlocks('README.md', markdown), [2, 10]);
    assert.deepEqual(unrunShellBlocks('docs/x.md', markdown), [2, 6, 10]);
  });

  it('are only where the suite runs them', () => {
    const unrun = documents().flatMap((document) =>
      unrunShellBlocks(document, readFileSync(join(root, document), 'utf8')).map((line) => `${document}:${line}`),
    );
    assert.deepEqual(unrun, [], 'mark a command example that the suite does not run as `text`');
  });
});
