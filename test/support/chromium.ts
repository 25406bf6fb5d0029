/**
 * Which Chromium the browser tests drive, and launching it with playwright-core (which never
 * downloads a browser). In order:
 *
 * 1. `FACTEUR_BROWSER=npm`: the Chromium of the `@sparticuz/chromium` devDependency, whatever is
 *    installed (`.ci/run` forces it on its first pass, to prove `npm ci && npm test` needs nothing else);
 * 2. `FACTEUR_CHROMIUM=/path/to/chromium`: that binary;
 * 3. Debian's `/usr/bin/chromium` when it is there;
 * 4. else the npm one: `chromium.executablePath()` unpacks it (about 200 MB, a few seconds) into a
 *    temporary folder of this process, removed when the browser closes.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium as playwright, type Browser } from 'playwright-core';

export const debianChromium = '/usr/bin/chromium';

export type ChromiumChoice =
  | { source: 'override'; path: string }
  | { source: 'debian'; path: string }
  | { source: 'npm' }
  | { source: 'invalid'; reason: string };

/** The choice, from the environment and whether a file exists; pure, so that it is tested alone. */
export function chooseChromium(
  env: { FACTEUR_BROWSER?: string | undefined; FACTEUR_CHROMIUM?: string | undefined },
  exists: (path: string) => boolean,
): ChromiumChoice {
  const forced = env.FACTEUR_BROWSER?.trim() ?? '';
  if (forced === 'npm') return { source: 'npm' };
  if (forced !== '')
    return { source: 'invalid', reason: `FACTEUR_BROWSER is "${forced}"; the one value it takes is \`npm\`.` };
  const override = env.FACTEUR_CHROMIUM?.trim() ?? '';
  if (override !== '')
    return exists(override)
      ? { source: 'override', path: override }
      : { source: 'invalid', reason: `FACTEUR_CHROMIUM names ${override}, which does not exist.` };
  if (exists(debianChromium)) return { source: 'debian', path: debianChromium };
  return { source: 'npm' };
}

/** What every launch needs: no sandbox (CI runs as root), no network of its own. */
const testFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export interface LaunchedChromium {
  browser: Browser;
  /** Where it came from and its version, printed by the tests. */
  description: string;
  /** Closes the browser and removes what was unpacked for it. */
  close(): Promise<void>;
}

async function unpackNpmChromium(): Promise<{ path: string; args: string[]; folder: string }> {
  const { default: sparticuz } = await import('@sparticuz/chromium');
  // The package unpacks into os.tmpdir() and reuses whatever `chromium` it finds there, even one
  // half-written by a killed run; a folder of this process's own is never half-written.
  const folder = await mkdtemp(join(tmpdir(), 'facteur-chromium-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  try {
    const path = await sparticuz.executablePath();
    // Its fonts.conf names /tmp/fonts; point fontconfig at the fonts unpacked here, and the system's.
    await writeFile(
      join(folder, 'fonts.conf'),
      '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n' +
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n' +
        `  <dir>${join(folder, 'fonts')}</dir>\n  <cachedir>${join(folder, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    // Its own `--headless='shell'` says which headless mode its binary is (chrome-headless-shell).
    const args = [...new Set([...sparticuz.args, ...testFlags])];
    return { path, args, folder };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
}

/** Launches the chosen Chromium, headless; throws with the reason when there is none to launch. */
export async function launchChromium(): Promise<LaunchedChromium> {
  const choice = chooseChromium(process.env, existsSync);
  if (choice.source === 'invalid') throw new Error(choice.reason);
  if (choice.source !== 'npm') {
    const browser = await playwright.launch({
      executablePath: choice.path,
      args: ['--headless', ...testFlags],
      headless: true,
    });
    return {
      browser,
      description: `${choice.source}, Chromium ${browser.version()} (${choice.path})`,
      close: () => browser.close(),
    };
  }
  const unpacked = await unpackNpmChromium();
  const removeFolder = () => rm(unpacked.folder, { recursive: true, force: true });
  try {
    const browser = await playwright.launch({
      executablePath: unpacked.path,
      args: unpacked.args,
      headless: true,
      env: { ...process.env, FONTCONFIG_FILE: join(unpacked.folder, 'fonts.conf') },
    });
    return {
      browser,
      description: `npm @sparticuz/chromium, Chromium ${browser.version()} (${unpacked.path})`,
      close: async () => {
        await browser.close();
        await removeFolder();
      },
    };
  } catch (error) {
    await removeFolder();
    throw error;
  }
}
