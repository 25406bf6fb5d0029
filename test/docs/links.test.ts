/**
 * The README and the guides of docs/ point only at what the repository holds: every relative link
 * reaches a file, every anchor a heading of its page (GitHub's slugs), and every Markdown file a
 * code span names exists in the repository (the README once named design notes that were not in it).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** README.md and every Markdown file under docs/, as paths from the root. */
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

/** The text outside fenced code blocks, line by line (a link inside a block is an example, not a link). */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of the inline links and images of a document, code spans aside. */
function linkTargets(markdown: string): { line: number; target: string }[] {
  const targets: { line: number; target: string }[] = [];
  for (const [index, line] of prose(markdown).entries()) {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      targets.push({ line: index + 1, target: match[1]! });
    const definition = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/.exec(withoutCode);
    if (definition) targets.push({ line: index + 1, target: definition[1]! });
  }
  return targets;
}

/** What is wrong with one link of `document`, or null. */
function brokenLink(document: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:: not the repository's
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? join(root, document) : resolve(root, dirname(document), decodeURIComponent(path));
  if (!file.startsWith(root)) return `${target} leaves the repository`;
  if (!existsSync(file)) return `${target}: no file ${relative(root, file)}`;
  if (anchor === undefined || anchor === '') return null;
  if (!file.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  const anchors = headingAnchors(readFileSync(file, 'utf8'));
  return anchors.has(anchor) ? null : `${target}: ${relative(root, file)} has no heading #${anchor}`;
}

describe('the links of the README and of docs/', () => {
  it('computes anchors as GitHub does', () => {
    const anchors = headingAnchors(
      "# The approved platform (PA) and `pa-simulator`\n## The service's database role\n```\n# not a heading\n```\n## Keys\n## Keys\n",
    );
    assert.deepEqual(
      [...anchors],
      ['the-approved-platform-pa-and-pa-simulator', 'the-services-database-role', 'keys', 'keys-1'],
    );
  });

  it('finds a broken link, a missing anchor and a path outside the repository', () => {
    assert.match(brokenLink('README.md', 'docs/nowhere.md') ?? '', /no file docs\/nowhere\.md/);
    assert.match(brokenLink('README.md', '#no-such-heading') ?? '', /has no heading #no-such-heading/);
    assert.match(brokenLink('docs/api.md', '../../shared/LIFECYCLE.md') ?? '', /leaves the repository/);
    assert.equal(brokenLink('README.md', 'https://example.com/x.md'), null);
    assert.deepEqual(
      linkTargets('[a](docs/a.md#b) `[not](a link)`\n```\n[no](c.md)\n```\n[ref]: ./d.md\n').map((link) => link.target),
      ['docs/a.md#b', './d.md'],
    );
  });

  it('every relative link reaches a file, and every anchor a heading of it', () => {
    const broken: string[] = [];
    for (const document of documents()) {
      const markdown = readFileSync(join(root, document), 'utf8');
      for (const { line, target } of linkTargets(markdown)) {
        const problem = brokenLink(document, target);
        if (problem) broken.push(`${document}:${line}: ${problem}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('every Markdown file named in a code span is one the repository holds', () => {
    const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((path) => path.endsWith('.md'));
    const missing: string[] = [];
    for (const document of documents()) {
      for (const [index, line] of prose(readFileSync(join(root, document), 'utf8')).entries()) {
        for (const match of line.matchAll(/`([^`\s]+\.md)`/g)) {
          const named = match[1]!;
          const here = relative(root, resolve(root, dirname(document), named));
          const found = tracked.some((path) => path === here || path === named || path.endsWith(`/${named}`));
          if (!found) missing.push(`${document}:${index + 1}: \`${named}\``);
        }
      }
    }
    assert.deepEqual(missing, []);
  });
});
