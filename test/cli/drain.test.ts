/**
 * The drain of a stop, on the real process: `bin/facteur.js serve` on a database of its own (the
 * start seals the stored secrets it finds and makes a demo account: not on the suite's shared
 * database), SIGTERM, then `/readyz` answers 503 `draining` for FACTEUR_DRAIN_SECONDS while
 * requests are still served, then the process exits 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { cleanEnv, sleep, startFacteur } from '../support/processes.js';

const adminUrl = process.env.DATABASE_URL!;

interface Answer {
  status: number;
  body: unknown;
}

/** One request on a connection of its own, trusting only the certificate the service generated. */
function get(port: number, path: string, ca: string, key?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: 'localhost',
        port,
        path,
        ca,
        agent: false,
        headers: key ? { authorization: `Bearer ${key}` } : {},
        timeout: 10_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, body: text.startsWith('{') ? JSON.parse(text) : text }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error(`GET ${path} timed out`)));
    request.on('error', reject);
    request.end();
  });
}

test(
  'SIGTERM drains: /readyz answers 503 draining while requests are served, then the process exits 0',
  { timeout: 180_000 },
  async (t) => {
    const database = `facteur_drain_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${database}`);
    const root = await mkdtemp(join(tmpdir(), 'facteur-drain-'));
    t.after(async () => {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
      await rm(root, { recursive: true, force: true });
    });
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    const drainSeconds = 4;
    const service = startFacteur(
      ['serve'],
      cleanEnv({
        DATABASE_URL: url.toString(),
        FACTEUR_DATA_DIR: join(root, 'data'),
        FACTEUR_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        FACTEUR_DRAIN_SECONDS: String(drainSeconds),
        PORT: '0',
        HTTP_PORT: '0',
        HOST: '127.0.0.1',
      }),
    );
    t.after(() => service.kill('SIGKILL'));
    const [, port] = await service.waitForStdout(/facteur is serving https:\/\/localhost:(\d+)/, 120_000);
    const [, key] = await service.waitForStdout(/test key \(shown once\): (\S+)/, 10_000);
    const ca = await readFile(join(root, 'data', 'tls', 'cert.pem'), 'utf8');
    const at = Number(port);
    assert.deepEqual(await get(at, '/readyz', ca), { status: 200, body: { status: 'ready' } });

    const signalled = Date.now();
    service.kill('SIGTERM');
    await service.waitForStdout(/draining: \/readyz answers 503/, 10_000);
    const draining = await get(at, '/readyz', ca);
    assert.deepEqual(draining, { status: 503, body: { status: 'not_ready', reason: 'draining' } });
    const account = await get(at, '/v1/account', ca, key);
    assert.equal(account.status, 200, 'a request during the drain is served');
    assert.equal((await get(at, '/healthz', ca)).status, 200, 'alive while draining');
    await sleep(1000);
    assert.ok(service.running, 'still running one second into a drain of four');
    assert.equal((await get(at, '/readyz', ca)).status, 503);

    const exit = await service.waitForExit(60_000);
    assert.deepEqual(exit, { code: 0, signal: null }, service.describe());
    assert.ok(Date.now() - signalled >= drainSeconds * 1000, 'the close waited for the drain');
    await assert.rejects(get(at, '/readyz', ca), /ECONNREFUSED/, 'the port is closed once it exited');
  },
);
