/**
 * The README's quick start, run as written: its `sh` blocks are read from README.md (so a change
 * of the text changes what runs), each `curl` is made over HTTPS against a fresh `facteur serve`
 * (embedded PostgreSQL, the certificate it generated, the test key it printed), each `node -pe`
 * runs for real on the answer, and the shell variables carry the ids from call to call as the
 * shell would. Every answer must have the status its endpoint gives on success, and the invoice
 * must end up paid.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  cleanEnv,
  freePorts,
  projectRoot,
  removeServiceRoot,
  startFacteur,
  type FacteurProcess,
} from '../support/processes.js';
import { lex, splitCommands, text, type Token, type Word } from '../support/shell-commands.js';

const startTimeout = 90_000;
/** The address the README writes; the test's server listens elsewhere. */
const readmeOrigin = 'https://localhost:8443';

/** The `sh` blocks of the README's "Quick start" section, in order. */
function quickStartBlocks(readme: string): string[] {
  const start = readme.search(/^## Quick start/m);
  assert.ok(start >= 0, 'the README has no "## Quick start" section');
  const rest = readme.slice(start + 1);
  const next = rest.search(/^## /m);
  const section = next < 0 ? rest : rest.slice(0, next);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** What each endpoint of the quick start answers on success. */
const expectedStatus: [RegExp, number][] = [
  [/^POST \/v1\/tax-profiles$/, 201],
  [/^POST \/v1\/customers$/, 201],
  [/^POST \/v1\/tax-decisions$/, 201],
  [/^POST \/v1\/invoices$/, 201],
  [/^POST \/v1\/invoices\/inv_\w+\/(finalize|send)$/, 200],
  [/^POST \/v1\/sandbox\/invoices\/inv_\w+\/simulate$/, 200],
  [/^POST \/v1\/payments$/, 201],
  [/^GET \/v1\/invoices\/inv_\w+$/, 200],
];

interface Call {
  method: string;
  path: string;
  status: number;
  body: string;
}

interface Run {
  /** The folder the user runs the commands in: `.facteur` (the data directory) is there. */
  cwd: string;
  origin: string;
  key: string;
  vars: Map<string, string>;
  calls: Call[];
}

function request(options: https.RequestOptions, body: string | null): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = https.request({ ...options, agent: false, timeout: 30_000 }, (response) => {
      let answer = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
      response.on('end', () => resolvePromise({ status: response.statusCode!, body: answer }));
    });
    req.on('timeout', () => req.destroy(new Error(`${options.method} ${options.path} timed out`)));
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

/** `curl` with the options the README uses: -s, --cacert, -H, -d, -X and the URL. */
async function curl(words: string[], run: Run): Promise<string> {
  let method: string | null = null;
  let data: string | null = null;
  let cacert: string | null = null;
  let url: string | null = null;
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const value = () => {
      const next = words[++i];
      assert.ok(next !== undefined, `curl ${word} needs a value`);
      return next;
    };
    if (word === '-s' || word === '--silent') continue;
    else if (word === '--cacert') cacert = value();
    else if (word === '-X' || word === '--request') method = value();
    else if (word === '-d' || word === '--data') data = value();
    else if (word === '-H' || word === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (!word.startsWith('-') && url === null) url = word;
    else assert.fail(`curl option ${word} is not one the test knows`);
  }
  if (url === null || !url.startsWith(`${readmeOrigin}/`)) assert.fail(`curl goes to ${url}, not to ${readmeOrigin}`);
  assert.ok(cacert, `curl ${url} has no --cacert: the certificate is self-signed`);
  // As curl does: -d makes a POST, with a form content type unless a header says otherwise.
  method ??= data === null ? 'GET' : 'POST';
  if (data !== null) headers['content-type'] ??= 'application/x-www-form-urlencoded';
  const target = new URL(url.replace(readmeOrigin, run.origin));
  const answer = await request(
    {
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method,
      headers,
      ca: readFileSync(resolve(run.cwd, cacert), 'utf8'),
    },
    data,
  );
  const call = { method, path: target.pathname, status: answer.status, body: answer.body };
  run.calls.push(call);
  const name = `${method} ${target.pathname}`;
  const expected = expectedStatus.find(([pattern]) => pattern.test(name));
  assert.ok(expected, `the quick start calls ${name}, whose success status the test does not know; add it`);
  assert.equal(answer.status, expected[1], `${name} answered ${answer.status}: ${answer.body}`);
  return answer.body;
}

/** A pipeline: `curl ...`, optionally into `node -pe '...'` (run for real). Returns its stdout. */
async function pipeline(tokens: Token[], run: Run): Promise<string> {
  const stages: string[][] = [[]];
  for (const token of tokens) {
    if (token === '|') stages.push([]);
    else stages.at(-1)!.push(text(token));
  }
  assert.ok(stages.length <= 2, `only "curl ... | node -pe ..." pipes are supported: ${JSON.stringify(stages)}`);
  const [first, second] = stages as [string[], string[] | undefined];
  assert.equal(first[0], 'curl', `the quick start runs ${first[0]}: the test runs curl (and node -pe) only`);
  let output = await curl(first, run);
  if (second) {
    assert.deepEqual(second.slice(0, 2), ['node', '-pe'], `curl is piped into ${second.join(' ')}`);
    assert.equal(second.length, 3, 'node -pe takes one expression');
    output = execFileSync(process.execPath, ['-pe', second[2]!], { input: output, encoding: 'utf8' });
  }
  return output;
}

/** Runs one command of a block, as the shell would. */
async function runCommand(raw: string, run: Run): Promise<void> {
  let tokens = lex(raw, run.vars);
  const first = tokens[0];
  if (first && first !== '|' && first.parts.length === 1 && first.parts[0] === 'export') tokens = tokens.slice(1);
  const head = tokens[0] as Word | undefined;
  const assignment = head && typeof head.parts[0] === 'string' ? /^([A-Za-z_]\w*)=/.exec(head.parts[0]) : null;
  if (!assignment) {
    await pipeline(tokens, run);
    return;
  }
  assert.equal(tokens.length, 1, `one assignment per command: ${raw}`);
  const name = assignment[1]!;
  let value = '';
  for (const [index, part] of head!.parts.entries()) {
    const piece = index === 0 ? (part as string).slice(assignment[0].length) : part;
    if (typeof piece === 'string') value += piece;
    // $(...) drops the trailing newlines of what it ran.
    else value += (await pipeline(lex(piece.command, run.vars), run)).replace(/\n+$/, '');
  }
  if (name === 'FACTEUR_KEY') {
    assert.match(value, /^svc_test_\.\.\.$/, 'the README shows where the printed test key goes');
    value = run.key;
  }
  run.vars.set(name, value);
}

describe('the README quick start, run as written against facteur serve', { timeout: 300_000 }, () => {
  let root = '';
  let service: FacteurProcess | null = null;
  let run: Run;

  before(
    async () => {
      root = await mkdtemp(join(tmpdir(), 'facteur-quick-start-'));
      const [port, httpPort] = (await freePorts(2)) as [number, number];
      service = startFacteur(
        ['serve'],
        cleanEnv({
          DATABASE_URL: undefined,
          FACTEUR_DATA_DIR: join(root, '.facteur'),
          PORT: String(port),
          HTTP_PORT: String(httpPort),
          LOG_LEVEL: 'warn',
        }),
      );
      await service.waitForStdout(/facteur is serving/, startTimeout);
      const key = /test key \(shown once\): (svc_test_\w+)/.exec(service.stdout);
      assert.ok(key, `no test key printed\n${service.describe()}`);
      run = { cwd: root, origin: `https://localhost:${port}`, key: key[1]!, vars: new Map(), calls: [] };
    },
    { timeout: startTimeout + 10_000 },
  );

  after(
    async () => {
      if (service?.running) {
        service.kill('SIGTERM');
        await service.waitForExit(30_000).catch(() => service?.kill('SIGKILL'));
      }
      if (root) await removeServiceRoot(root, join(root, '.facteur'));
    },
    { timeout: 60_000 },
  );

  it('reads the shell the way bash does (quotes, splices, continuations, comments)', () => {
    const vars = new Map([['ID', 'inv_1']]);
    assert.deepEqual(splitCommands("a \\\n  b # note\nc 'x\ny' \\\n d\n"), ['a    b', "c 'x\ny'   d"]);
    const words = lex(`curl -d '{"id": "'"$ID"'"}' "x $ID" \${ID}y`, vars).map((token) =>
      token === '|' ? '|' : text(token),
    );
    assert.deepEqual(words, ['curl', '-d', '{"id": "inv_1"}', 'x inv_1', 'inv_1y']);
    assert.throws(() => lex('echo $NOPE', vars), /used before it is set/);
    assert.throws(() => lex('a; b', vars), /unsupported shell syntax/);
  });

  it('takes a new user from the printed key to a finalized, sent and paid invoice', async () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const blocks = quickStartBlocks(readme);
    assert.ok(blocks.length > 0, 'the quick start has no sh block');
    for (const block of blocks) for (const command of splitCommands(block)) await runCommand(command, run);

    const paths = run.calls.map((call) => `${call.method} ${call.path.replace(/(inv|cus|txd)_\w+/g, '$1_…')}`);
    for (const step of [
      'POST /v1/tax-profiles',
      'POST /v1/customers',
      'POST /v1/tax-decisions',
      'POST /v1/invoices',
      'POST /v1/invoices/inv_…/finalize',
      'POST /v1/invoices/inv_…/send',
      'POST /v1/sandbox/invoices/inv_…/simulate',
      'POST /v1/payments',
    ])
      assert.ok(paths.includes(step), `the quick start no longer calls ${step}: ${paths.join(', ')}`);
    const last = run.calls.at(-1)!;
    assert.match(last.path, /^\/v1\/invoices\/inv_/, 'the quick start ends by reading the invoice');
    const invoice = JSON.parse(last.body);
    assert.equal(invoice.id, run.vars.get('INVOICE'));
    assert.deepEqual(
      [invoice.status, invoice.documentStatus, invoice.transmissionStatus, invoice.paymentStatus, invoice.amountDue],
      ['paid', 'finalized', 'approved', 'paid', 0],
    );
    assert.match(invoice.number, /^TEST-F\d{4}-\d{6}$/);
    assert.equal(invoice.total, 32400, 'the README says 324.00 EUR');
  });
});
