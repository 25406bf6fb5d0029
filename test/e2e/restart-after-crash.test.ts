/**
 * kill -9 of `facteur serve` while finalizations are in flight, PostgreSQL left running, then a
 * start again, in a loop: every start that can come up must come up (joining the server left
 * running, or starting it again), and one that cannot must say why and exit non-zero. The crashes
 * come with what a crash can leave behind: an empty serve.pid (killed while writing it), a
 * serve.pid naming a pid now used by another program, a missing postgres.ready (killed during the
 * first start), a PostgreSQL stopping at that moment. Numbers stay gapless across all of it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import pg from 'pg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cleanEnv,
  freePorts,
  processGone,
  sleep,
  startFacteur,
  waitUntil,
  type FacteurProcess,
} from '../support/processes.js';

/**
 * Above the start's own bounds (35 s to join a server found running, 120 s to start one): a start
 * that cannot come up says why itself before the test gives up on it.
 */
const startTimeout = 180_000;
/** Finalizations fired at once before each kill (4 crashes, 3 writes per invoice: under the free plan's 100 writes a minute). */
const burst = 6;

let root = '';
let dataDir = '';
const launched: FacteurProcess[] = [];

interface Serving {
  service: FacteurProcess;
  port: number;
}

function env(port: number, httpPort: number): NodeJS.ProcessEnv {
  return cleanEnv({
    DATABASE_URL: undefined,
    FACTEUR_DATA_DIR: dataDir,
    PORT: String(port),
    HTTP_PORT: String(httpPort),
    LOG_LEVEL: 'warn',
  });
}

/** Starts serve and waits until it serves; fails with its output when it ends first. */
async function startServe(): Promise<Serving> {
  const [port, httpPort] = (await freePorts(2)) as [number, number];
  const service = startFacteur(['serve'], env(port, httpPort));
  launched.push(service);
  await service.waitForStdout(/facteur is serving/, startTimeout);
  return { service, port };
}

const postmasterPid = (): number | null => {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
};

function call(
  port: number,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = https.request(
      {
        host: 'localhost',
        port,
        path,
        method,
        ca,
        agent: false,
        timeout: 30_000,
        headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : null }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${method} ${path} timed out`)));
    request.on('error', reject);
    request.end(payload);
  });
}

const line = { description: 'Conseil', quantity: '1', unitPrice: '100.00', nature: 'services' };

// Seven starts of a service with its own PostgreSQL: 200 to 280 s on a quiet 2-core machine, more beside
// the rest of the suite; the limit catches a hang, not a slow machine.
describe('kill -9 under load, then start again, in a loop', { timeout: 1_200_000 }, () => {
  let current: Serving;
  let key = '';
  let customerId = '';

  before(
    async () => {
      root = await mkdtemp(join(tmpdir(), 'facteur-crash-loop-'));
      dataDir = join(root, 'data');
      current = await startServe();
      key = /test key \(shown once\): (svc_test_\w+)/.exec(current.service.stdout)![1]!;
      const profile = await call(current.port, key, 'POST', '/v1/tax-profiles', {
        validFrom: '2024-01-01',
        establishment: { siret: '12345678200010', postalCode: '75002', country: 'FR' },
        vatNumber: 'FR11123456782',
        regime: 'normal',
        vatOnDebits: false,
        ossRegistered: false,
        ereportingPeriodicity: 'monthly',
      });
      assert.equal(profile.status, 201, JSON.stringify(profile.body));
      const customer = await call(current.port, key, 'POST', '/v1/customers', {
        name: 'Atelier',
        siret: '73282932000017',
        address: { postalCode: '75002', country: 'FR' },
      });
      assert.equal(customer.status, 201, JSON.stringify(customer.body));
      customerId = customer.body.id;
    },
    { timeout: startTimeout + 20_000 },
  );

  after(
    async () => {
      for (const service of launched) {
        if (service.running) {
          service.kill('SIGTERM');
          await service.waitForExit(30_000).catch(() => service.kill('SIGKILL'));
        }
      }
      const pid = postmasterPid();
      if (pid !== null && !processGone(pid)) {
        process.kill(pid, 'SIGINT');
        await waitUntil(() => processGone(pid), 15_000, 'PostgreSQL stops').catch(() => undefined);
      }
      // PostgreSQL's last processes may still be writing as it stops: retried rather than left behind.
      if (root) await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
    { timeout: 60_000 },
  );

  /** Drafts ready to finalize, then their finalizations fired at once and the service killed among them. */
  async function crashUnderLoad(): Promise<void> {
    const ids: string[] = [];
    for (let i = 0; i < burst; i++) {
      const decision = await call(current.port, key, 'POST', '/v1/tax-decisions', {
        taxSource: 'service',
        date: '2026-10-01',
        currency: 'EUR',
        customerId,
        lines: [line],
      });
      const draft = await call(current.port, key, 'POST', '/v1/invoices', {
        customerId,
        lines: [line],
        taxDecisionId: decision.body.id,
      });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      ids.push(draft.body.id);
    }
    const inFlight = ids.map((id) => call(current.port, key, 'POST', `/v1/invoices/${id}/finalize`).catch(() => null));
    // Killed once the first finalization has answered, the others still on their way.
    await Promise.race(inFlight);
    await sleep(Math.random() * 30);
    current.service.kill('SIGKILL');
    assert.equal((await current.service.waitForExit(10_000)).signal, 'SIGKILL');
    await Promise.all(inFlight);
  }

  const variants: [string, () => Promise<void> | void][] = [
    ['PostgreSQL left running', () => undefined],
    ['and serve.pid left empty (killed while writing it)', () => writeFileSync(join(dataDir, 'serve.pid'), '')],
    [
      'and serve.pid naming a pid now used by another program, and no postgres.ready (killed in its first start)',
      () => {
        writeFileSync(join(dataDir, 'serve.pid'), String(process.pid));
        rmSync(join(dataDir, 'postgres.ready'));
      },
    ],
    [
      'and PostgreSQL stopping at that moment',
      () => {
        const pid = postmasterPid();
        assert.ok(pid !== null);
        process.kill(pid, 'SIGINT');
      },
    ],
  ];

  for (const [name, aftermath] of variants) {
    it(`kill -9 with finalizations in flight, ${name}: the next start comes up`, { timeout: 240_000 }, async () => {
      const pgPid = postmasterPid();
      await crashUnderLoad();
      assert.ok(pgPid !== null && !processGone(pgPid), 'PostgreSQL died with the service (the premise)');
      await aftermath();
      current = await startServe();
      const account = await call(current.port, key, 'GET', '/v1/account');
      assert.equal(account.status, 200, 'the data (and the key) are there');
      if (name === 'PostgreSQL left running' || name.includes('serve.pid'))
        assert.equal(postmasterPid(), pgPid, 'the server left running was joined, not replaced');
      assert.ok(existsSync(join(dataDir, 'postgres.ready')), 'the cluster is marked complete');
    });
  }

  it('numbers stayed gapless through the crashes', async () => {
    const numbers: number[] = [];
    let after = '';
    for (;;) {
      const page = await call(current.port, key, 'GET', `/v1/invoices?limit=100${after}`);
      assert.equal(page.status, 200);
      for (const invoice of page.body.data) if (invoice.number) numbers.push(Number(/(\d+)$/.exec(invoice.number)![1]));
      if (!page.body.has_more) break;
      after = `&starting_after=${page.body.next_cursor}`;
    }
    numbers.sort((a, b) => a - b);
    assert.ok(numbers.length > 0, 'some finalizations committed');
    assert.deepEqual(
      numbers,
      numbers.map((_, index) => index + 1),
      'consecutive from 1, no gap, no duplicate',
    );
  });

  it('a stop signal during the start is said, never a silent end', async () => {
    // The start is held at its migrations by their lock, taken here on the server left running.
    current.service.kill('SIGKILL');
    await current.service.waitForExit(10_000);
    const credentials = JSON.parse(readFileSync(join(dataDir, 'postgres-credentials.json'), 'utf8'));
    const port = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
    const holder = new pg.Client({ ...credentials, host: '127.0.0.1', port });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(7361004221)');
      const [httpsPort, httpPort] = (await freePorts(2)) as [number, number];
      const held = startFacteur(['serve'], { ...env(httpsPort, httpPort), LOG_LEVEL: 'info' });
      launched.push(held);
      await held.waitForStdout(/joined the embedded PostgreSQL already running/, startTimeout);
      await waitUntil(
        async () =>
          (
            await holder.query(
              `select 1 from pg_locks where locktype = 'advisory' and not granted and objid = (7361004221::bigint & 4294967295)::oid`,
            )
          ).rowCount === 1,
        30_000,
        'the start waits for the migration lock',
      );
      held.kill('SIGTERM');
      const exit = await held.waitForExit(30_000);
      assert.equal(exit.code, 143, held.describe());
      assert.match(held.stderr, /SIGTERM received while migrating the database: the start is abandoned/);
    } finally {
      await holder.end();
    }
    current = await startServe();
  });

  it('a start that cannot bring PostgreSQL up says why and exits non-zero; once repaired, it comes up', async () => {
    current.service.kill('SIGKILL');
    await current.service.waitForExit(10_000);
    const pgPid = postmasterPid()!;
    process.kill(pgPid, 'SIGINT');
    await waitUntil(() => processGone(pgPid), 15_000, 'PostgreSQL stops');
    const settings = join(dataDir, 'postgres', 'postgresql.auto.conf');
    const saved = readFileSync(settings, 'utf8');
    writeFileSync(settings, `${saved}\nshared_buffers = 'not a size'\n`);
    try {
      const [port, httpPort] = (await freePorts(2)) as [number, number];
      const broken = startFacteur(['serve'], env(port, httpPort));
      launched.push(broken);
      const exit = await broken.waitForExit(startTimeout);
      assert.notEqual(exit.code, 0, broken.describe());
      assert.match(broken.stderr, /the start failed while opening the embedded PostgreSQL/, broken.describe());
      assert.match(broken.stderr, /did not start/, broken.describe());
      assert.match(broken.stderr, /shared_buffers/, `PostgreSQL's own reason is given\n${broken.describe()}`);
      assert.doesNotMatch(broken.stdout, /facteur is serving/);
      assert.ok(!existsSync(join(dataDir, 'serve.pid')), 'a failed start leaves no serve.pid');
    } finally {
      writeFileSync(settings, saved);
    }
    current = await startServe();
    assert.equal((await call(current.port, key, 'GET', '/v1/account')).status, 200);
  });
});
