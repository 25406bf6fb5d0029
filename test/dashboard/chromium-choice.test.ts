/** Which Chromium the browser tests drive (test/support/chromium.ts): one row per rule. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseChromium, debianChromium, type ChromiumChoice } from '../support/chromium.js';

const rows: {
  name: string;
  env: { FACTEUR_BROWSER?: string; FACTEUR_CHROMIUM?: string };
  files: string[];
  expect: ChromiumChoice | 'invalid';
}[] = [
  { name: 'a bare machine takes the npm one', env: {}, files: [], expect: { source: 'npm' } },
  {
    name: "Debian's when it is installed",
    env: {},
    files: [debianChromium],
    expect: { source: 'debian', path: debianChromium },
  },
  {
    name: 'FACTEUR_CHROMIUM overrides Debian',
    env: { FACTEUR_CHROMIUM: '/opt/chrome/chrome' },
    files: [debianChromium, '/opt/chrome/chrome'],
    expect: { source: 'override', path: '/opt/chrome/chrome' },
  },
  {
    name: 'FACTEUR_CHROMIUM naming nothing is said, never replaced',
    env: { FACTEUR_CHROMIUM: '/opt/chrome/chrome' },
    files: [debianChromium],
    expect: 'invalid',
  },
  {
    name: 'FACTEUR_BROWSER=npm wins over Debian and the override (the first pass of .ci/run)',
    env: { FACTEUR_BROWSER: 'npm', FACTEUR_CHROMIUM: '/opt/chrome/chrome' },
    files: [debianChromium, '/opt/chrome/chrome'],
    expect: { source: 'npm' },
  },
  { name: 'an unknown FACTEUR_BROWSER is said', env: { FACTEUR_BROWSER: 'firefox' }, files: [], expect: 'invalid' },
  {
    name: 'empty variables are unset',
    env: { FACTEUR_BROWSER: '', FACTEUR_CHROMIUM: ' ' },
    files: [],
    expect: { source: 'npm' },
  },
];

for (const row of rows) {
  test(`browser choice: ${row.name}`, () => {
    const choice = chooseChromium(row.env, (path) => row.files.includes(path));
    if (row.expect === 'invalid') assert.equal(choice.source, 'invalid');
    else assert.deepEqual(choice, row.expect);
  });
}
