/**
 * The service as a user starts it: `node bin/facteur.js serve` with no DATABASE_URL (the embedded
 * PostgreSQL in a fresh FACTEUR_DATA_DIR), called over real HTTPS with the certificate it
 * generated, used by the command line while it runs, killed, restarted and stopped.
 *
 * The steps share one data directory and run in order; each names what it relies on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import {
  cleanEnv,
  freePorts,
  processGone,
  removeServiceRoot,
  runFacteur,
  sleep,
  startFacteur,
  waitUntil,
  type FacteurProcess,
  type Finished,
} from '../support/processes.js';

// initdb, tsx loading the sources, two cores shared with the rest of the suite: be patient.
const startTimeout = 90_000;
const stepTimeout = 120_000;

let root = '';
let dataDir = '';
let certPem = '';
const launched: FacteurProcess[] = [];
const sockets = new Set<{ destroy(): void }>();

interface Serving {
  service: FacteurProcess;
  port: number;
  httpPort: number;
}

/** The serving process of the current step, with its ports. */
let current: Serving | null = null;
let demo = { companyId: '', key: '' };
let cliKey = { companyId: '', secret: '' };

/** What a user's shell gives facteur: no DATABASE_URL, so the embedded PostgreSQL of the data directory. */
function userEnv(ports: { port?: number; httpPort?: number } = {}): NodeJS.ProcessEnv {
  return cleanEnv({
    DATABASE_URL: undefined,
    FACTEUR_DATA_DIR: dataDir,
    PORT: ports.port === undefined ? undefined : String(ports.port),
    HTTP_PORT: ports.httpPort === undefined ? undefined : String(ports.httpPort),
  });
}

async function startServe(): Promise<Serving> {
  const [port, httpPort] = (await freePorts(2)) as [number, number];
  const service = startFacteur(['serve'], userEnv({ port, httpPort }));
  launched.push(service);
  const match = await service.waitForStdout(
    /facteur is serving https:\/\/localhost:(\d+) \(HTTP (\d+) redirects to it\)/,
    startTimeout,
  );
  assert.equal(Number(match[1]), port, service.describe());
  assert.equal(Number(match[2]), httpPort, service.describe());
  return { service, port, httpPort };
}

function serving(): Serving {
  assert.ok(current, 'an earlier step should have left a serving process');
  return current;
}

const postmasterPidFile = () => join(dataDir, 'postgres', 'postmaster.pid');

/** The pid of the data directory's PostgreSQL server, while its postmaster.pid exists. */
function postmasterPid(): number | null {
  try {
    const pid = Number(readFileSync(postmasterPidFile(), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

interface HttpsAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A request over TLS that trusts only the certificate facteur generated (no rejectUnauthorized: false). */
function httpsGet(port: number, path: string, key?: string): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: 'localhost',
        port,
        path,
        method: 'GET',
        ca: certPem,
        agent: false,
        headers: key ? { authorization: `Bearer ${key}` } : {},
        timeout: 30_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          const json = String(response.headers['content-type'] ?? '').includes('json');
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: json && text ? JSON.parse(text) : text,
          });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`GET ${path} timed out`)));
    request.on('error', reject);
    request.end();
  });
}

async function accountOf(key: string): Promise<HttpsAnswer> {
  return httpsGet(serving().port, '/v1/account', key);
}

function describeRun(run: Finished): string {
  return `exit ${run.code ?? run.signal}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`;
}

/** A TLS handshake limited to the given versions: the protocol agreed, or the error. */
function handshake(
  port: number,
  options: tls.ConnectionOptions,
): Promise<{ protocol: string | null } | { error: Error }> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: 'localhost', port, servername: 'localhost', ca: certPem, ...options }, () => {
      const protocol = socket.getProtocol();
      socket.destroy();
      resolve({ protocol });
    });
    sockets.add(socket);
    socket.setTimeout(15_000, () => socket.destroy(new Error('handshake timed out')));
    socket.once('error', (error) => resolve({ error }));
  });
}

// Lets a client offer TLS 1.1 at all: OpenSSL 3 refuses it at its default security level.
const tls11 = { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' } as const;

before(
  async () => {
    root = await mkdtemp(join(tmpdir(), 'facteur-e2e-'));
    dataDir = join(root, 'data');
    current = await startServe();
    certPem = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
  },
  { timeout: startTimeout + 10_000 },
);

after(
  async () => {
    for (const socket of sockets) socket.destroy();
    for (const service of launched) {
      service.kill('SIGKILL');
      await service.waitForExit(10_000).catch(() => undefined);
    }
    // A PostgreSQL the service left behind (a failed step, or the shutdown bug below) is stopped first.
    if (root) await removeServiceRoot(root, dataDir);
  },
  { timeout: 60_000 },
);

describe('facteur serve with the embedded database, over HTTPS', { timeout: 600_000 }, () => {
  it('prints a demo company and a test key on its first start', () => {
    const { service } = serving();
    const company = /company: (co_[0-9a-z]+)/.exec(service.stdout);
    const key = /test key \(shown once\): (svc_test_[0-9A-Za-z]{32})\b/.exec(service.stdout);
    assert.ok(company && key, `no demo account printed\n${service.describe()}`);
    demo = { companyId: company[1]!, key: key[1]! };
    assert.match(service.stdout, /First start: a demo company and a test API key were created/);
    assert.ok(existsSync(join(dataDir, 'tls', 'key.pem')), 'the generated private key is in the data directory');
  });

  it(
    'answers GET /v1/account over TLS with the demo key, with the platform headers',
    { timeout: stepTimeout },
    async () => {
      const before = Math.floor(Date.now() / 1000);
      const response = await accountOf(demo.key);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.equal(response.body.object, 'account');
      assert.equal(response.body.id, demo.companyId);
      assert.equal(response.body.livemode, false);

      assert.match(String(response.headers['x-request-id']), /^req_[0-9a-z]+$/);
      assert.equal(response.headers['service-version'], '2026-09-01');
      // A test key's GET is not rate limited (Limits): the headers say so rather than being absent.
      assert.equal(response.headers['x-ratelimit-limit'], 'not_applied');
      assert.equal(response.headers['x-ratelimit-remaining'], 'not_applied');
      const reset = String(response.headers['x-ratelimit-reset']);
      assert.match(reset, /^\d+$/);
      assert.ok(
        Number(reset) > before && Number(reset) <= Math.ceil(Date.now() / 1000) + 60,
        `X-RateLimit-Reset ${reset} is not the end of the current minute`,
      );

      const anonymous = await httpsGet(serving().port, '/v1/account');
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, 'missing_api_key');
    },
  );

  it('refuses TLS 1.1 and accepts TLS 1.2 and TLS 1.3', { timeout: stepTimeout }, async () => {
    const { port } = serving();
    // The same client handshake succeeds against a server that allows TLS 1.1: the refusal below is facteur's.
    const control = tls.createServer(
      {
        cert: certPem,
        key: readFileSync(join(dataDir, 'tls', 'key.pem'), 'utf8'),
        minVersion: 'TLSv1',
        ciphers: 'DEFAULT@SECLEVEL=0',
      },
      (socket) => socket.end(),
    );
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
    try {
      const allowed = await handshake((control.address() as { port: number }).port, { ...tls11, host: '127.0.0.1' });
      assert.deepEqual(allowed, { protocol: 'TLSv1.1' }, 'the control server should accept TLS 1.1');
    } finally {
      control.close();
    }

    const old = await handshake(port, tls11);
    assert.ok('error' in old, `facteur accepted a TLS 1.1 handshake: ${JSON.stringify(old)}`);
    assert.deepEqual(await handshake(port, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' }), { protocol: 'TLSv1.2' });
    assert.deepEqual(await handshake(port, { minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' }), { protocol: 'TLSv1.3' });
  });

  it('redirects plain HTTP to the same address over HTTPS (308)', { timeout: stepTimeout }, async () => {
    const { port, httpPort } = serving();
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.get({ host: 'localhost', port: httpPort, path: '/v1/account?x=1', agent: false }, resolve);
      request.on('error', reject);
    });
    response.resume();
    assert.equal(response.statusCode, 308);
    assert.equal(response.headers.location, `https://localhost:${port}/v1/account?x=1`);
  });

  it(
    'lets the command line create a company and a key on the same data directory while it runs',
    { timeout: stepTimeout },
    async () => {
      const company = await runFacteur(
        ['company', 'create', '--name', 'Atelier Durand', '--siren', '732829320', '--plan', 'essential'],
        userEnv(),
      );
      assert.equal(company.code, 0, describeRun(company));
      const { id: companyId } = JSON.parse(company.stdout);
      assert.match(companyId, /^co_/);

      const key = await runFacteur(['key', 'create', '--company', companyId, '--env', 'test'], userEnv());
      assert.equal(key.code, 0, describeRun(key));
      const { secret } = JSON.parse(key.stdout);
      assert.match(secret, /^svc_test_[0-9A-Za-z]{32}$/);
      cliKey = { companyId, secret };

      // The running service sees the key at once: no restart, no cache.
      const response = await accountOf(secret);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.equal(response.body.id, companyId);
      assert.equal(response.body.plan, 'essential');
      assert.ok(serving().service.running, 'the command line stopped the serving process or its database');
    },
  );

  it('refuses a second serve on the same data directory', { timeout: stepTimeout }, async () => {
    const [port, httpPort] = (await freePorts(2)) as [number, number];
    const second = startFacteur(['serve'], userEnv({ port, httpPort }));
    launched.push(second);
    const exit = await second.waitForExit(startTimeout);
    assert.notEqual(exit.code, 0, second.describe());
    assert.match(second.stderr, /another "facteur serve"/, second.describe());
    assert.doesNotMatch(second.stdout, /facteur is serving/);

    // The first one still serves, on its database.
    const response = await accountOf(demo.key);
    assert.equal(response.status, 200, JSON.stringify(response.body));
  });

  it(
    'stops on SIGTERM, and stops the PostgreSQL server it started',
    {
      timeout: stepTimeout,
    },
    async () => {
      const { service } = serving();
      const pgPid = postmasterPid();
      assert.ok(pgPid !== null && !processGone(pgPid), 'the embedded PostgreSQL should be running');
      service.kill('SIGTERM');
      const exit = await service.waitForExit(30_000);
      current = null;
      await waitUntil(
        () => !existsSync(postmasterPidFile()) && processGone(pgPid),
        15_000,
        `PostgreSQL ${pgPid} stops`,
      );
      assert.deepEqual(exit, { code: 0, signal: null }, service.describe());
      assert.ok(!existsSync(join(dataDir, 'serve.pid')), 'serve.pid is left behind');
    },
  );

  it(
    'starts again on the same data: the data is there and no new demo key is made',
    { timeout: stepTimeout },
    async () => {
      current = await startServe();
      assert.doesNotMatch(current.service.stdout, /svc_test_|First start/, 'a second demo key was printed');
      // Two companies by now (the demo one, the command line's): the banner says how to find one and make a key.
      await current.service.waitForStdout(/no key is shown after the first start/, startTimeout);
      assert.match(
        current.service.stdout,
        /npx facteur company list .*npx facteur key create --company co_… --env test/,
      );
      for (const key of [demo.key, cliKey.secret]) {
        const response = await accountOf(key);
        assert.equal(response.status, 200, JSON.stringify(response.body));
      }
    },
  );

  it(
    'survives kill -9: the next serve adopts the PostgreSQL left running and keeps the data',
    { timeout: stepTimeout },
    async () => {
      const { service } = serving();
      const pgPid = postmasterPid();
      assert.ok(pgPid !== null && !processGone(pgPid), 'the embedded PostgreSQL should be running');
      service.kill('SIGKILL');
      assert.equal((await service.waitForExit(30_000)).signal, 'SIGKILL');
      current = null;
      await sleep(200);
      assert.ok(!processGone(pgPid), 'PostgreSQL died with the killed service (the premise of this step)');
      assert.ok(
        existsSync(join(dataDir, 'serve.pid')),
        'a killed service cannot remove serve.pid (the premise of this step)',
      );

      current = await startServe();
      assert.equal(
        postmasterPid(),
        pgPid,
        'the new serve started another PostgreSQL rather than adopting the running one',
      );
      assert.doesNotMatch(
        current.service.stdout,
        /svc_test_|First start/,
        'a new demo key was printed after the crash',
      );
      for (const key of [demo.key, cliKey.secret]) {
        const response = await accountOf(key);
        assert.equal(response.status, 200, JSON.stringify(response.body));
      }
    },
  );

  it(
    'on SIGTERM with a request in flight, stops the adopted PostgreSQL too',
    {
      timeout: stepTimeout,
    },
    async () => {
      const { service, port } = serving();
      const pgPid = postmasterPid();
      assert.ok(pgPid !== null && !processGone(pgPid), 'the embedded PostgreSQL should be running');
      // A request whose body has not arrived yet: the shutdown has to wait for it (or drop it).
      const socket = tls.connect({ host: 'localhost', port, servername: 'localhost', ca: certPem });
      sockets.add(socket);
      socket.on('error', () => undefined);
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
      socket.write(
        `POST /v1/webhook-endpoints HTTP/1.1\r\nHost: localhost:${port}\r\nAuthorization: Bearer ${demo.key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"url":',
      );
      await sleep(500);

      service.kill('SIGTERM');
      await sleep(1_000);
      socket.destroy();
      const exit = await service.waitForExit(30_000);
      current = null;
      await waitUntil(
        () => !existsSync(postmasterPidFile()) && processGone(pgPid),
        8_000,
        `PostgreSQL ${pgPid} stops after the service exited with ${exit.code ?? exit.signal}`,
      ).catch((error: Error) => assert.fail(`${error.message}: it is left running\n${service.describe()}`));
      assert.deepEqual(exit, { code: 0, signal: null }, service.describe());
      assert.ok(!existsSync(join(dataDir, 'serve.pid')), 'serve.pid is left behind');
    },
  );

  it(
    'at the end, SIGTERM stops serve and its PostgreSQL, and nothing is left running',
    {
      timeout: stepTimeout,
    },
    async () => {
      // After the previous step PostgreSQL is running or not (it depends on that bug): either way this serve owns it.
      current = await startServe();
      const { service } = current;
      const response = await accountOf(cliKey.secret);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const pgPid = postmasterPid();
      assert.ok(pgPid !== null && !processGone(pgPid), 'the embedded PostgreSQL should be running');

      service.kill('SIGTERM');
      const exit = await service.waitForExit(30_000);
      current = null;
      await waitUntil(
        () => !existsSync(postmasterPidFile()) && processGone(pgPid),
        10_000,
        `PostgreSQL ${pgPid} stops`,
      ).catch((error: Error) => assert.fail(`${error.message}: it is left running\n${service.describe()}`));
      assert.deepEqual(exit, { code: 0, signal: null }, service.describe());
      assert.ok(!existsSync(join(dataDir, 'serve.pid')), 'serve.pid is left behind');
    },
  );
});
