/**
 * The container files, linted without Docker (the suite never builds the image): the
 * Dockerfile's instructions as Docker reads them (comments dropped, continued lines joined), and
 * compose.yaml as YAML with the service and its PostgreSQL.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { projectRoot } from '../support/processes.js';

interface Instruction {
  name: string;
  args: string;
}

function instructionsOf(text: string): Instruction[] {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line) && pending === '') continue;
    const continued = /\\\s*$/.test(line);
    pending += continued ? line.replace(/\\\s*$/, ' ') : line;
    if (continued) continue;
    if (pending.trim()) logical.push(pending.trim());
    pending = '';
  }
  return logical.map((line) => {
    const [name, ...rest] = line.split(/\s+/);
    return { name: name!.toUpperCase(), args: rest.join(' ') };
  });
}

const read = (file: string) => readFileSync(`${projectRoot}/${file}`, 'utf8');

describe('the container files', () => {
  const instructions = instructionsOf(read('Dockerfile'));
  const all = (name: string) => instructions.filter((instruction) => instruction.name === name);

  test('a small Node 20 base; npm ci at build (it compiles the validators); serve as the command', () => {
    assert.equal(instructions[0]?.name, 'FROM');
    assert.match(instructions[0]!.args, /^node:20(-slim|-alpine)?$/);
    assert.ok(
      all('RUN').some((run) => /\bnpm ci\b/.test(run.args) && !/--ignore-scripts/.test(run.args)),
      'npm ci with its prepare step',
    );
    assert.ok(JSON.parse(read('package.json')).scripts.prepare.includes('compile-validators'));
    assert.deepEqual(JSON.parse(all('CMD').at(-1)!.args), ['node', 'bin/facteur.js', 'serve']);
  });

  test('runs as a user that is not root, from before the command', () => {
    const users = all('USER');
    assert.ok(users.length > 0, 'a USER instruction');
    assert.doesNotMatch(users.at(-1)!.args, /^(root|0)(:|$)/);
    assert.ok(instructions.lastIndexOf(users.at(-1)!) < instructions.indexOf(all('CMD').at(-1)!));
  });

  test('the data directory is a volume, and the service is told to use it', () => {
    const volumes = all('VOLUME').flatMap((volume) =>
      volume.args.startsWith('[') ? (JSON.parse(volume.args) as string[]) : volume.args.split(/\s+/),
    );
    const env = all('ENV')
      .map((line) => line.args)
      .join(' ');
    const dataDir = /FACTEUR_DATA_DIR=(\S+)/.exec(env)?.[1];
    assert.ok(dataDir, 'FACTEUR_DATA_DIR set');
    assert.ok(volumes.includes(dataDir), `${dataDir} is a VOLUME`);
  });

  test('a HEALTHCHECK on /healthz', () => {
    const checks = all('HEALTHCHECK');
    assert.equal(checks.length, 1);
    assert.match(checks[0]!.args, /\bCMD\b/);
    assert.match(checks[0]!.args, /\/healthz/);
  });

  test('.dockerignore keeps node_modules and the local data out of the context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    for (const entry of ['node_modules', '.facteur', '.git']) assert.ok(ignored.includes(entry), entry);
  });

  test('compose.yaml parses, with facteur built here on a PostgreSQL service named by DATABASE_URL', () => {
    const compose = parse(read('compose.yaml'));
    const { facteur, postgres } = compose.services;
    assert.ok(facteur && postgres, 'both services');
    assert.equal(facteur.build, '.');
    assert.match(postgres.image, /^postgres:\d+/);
    const url = new URL(facteur.environment.DATABASE_URL);
    assert.equal(url.protocol, 'postgres:');
    assert.equal(url.hostname, 'postgres');
    assert.equal(url.username, postgres.environment.POSTGRES_USER);
    assert.equal(url.pathname, `/${postgres.environment.POSTGRES_DB}`);
    assert.equal(facteur.depends_on.postgres.condition, 'service_healthy');
    assert.ok(postgres.healthcheck, 'PostgreSQL says when it is ready');
    assert.ok(
      facteur.volumes.some((volume: string) => volume.endsWith(':/data')),
      'the data directory kept',
    );
  });
});
