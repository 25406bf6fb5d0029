/**
 * A kill -9 of the service at any moment loses no delivery: the delivery rows are the jobs. The
 * real service (embedded PostgreSQL, fresh data directory), a real HTTPS receiver, real kills.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cleanEnv,
  freePorts,
  removeServiceRoot,
  startFacteur,
  waitUntil,
  type FacteurProcess,
} from '../support/processes.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const startTimeout = 90_000;

describe('webhook deliveries survive kill -9', { timeout: 240_000 }, () => {
  let dataDir = '';
  let root = '';
  let receiver: Receiver;
  const launched: FacteurProcess[] = [];

  after(async () => {
    for (const service of launched) {
      if (!service.running) continue;
      service.kill('SIGKILL');
      await service.waitForExit(10_000).catch(() => undefined);
    }
    await receiver?.close();
    // The PostgreSQL server left by the kills is stopped through its pid file, then the folder goes.
    if (root) await removeServiceRoot(root, dataDir);
  });

  async function serve(
    args: string[] = [],
  ): Promise<{ service: FacteurProcess; port: number; demoKey: string | null }> {
    const [port, httpPort] = (await freePorts(2)) as [number, number];
    // NODE_EXTRA_CA_CERTS (set by `npm test`) stays: the service trusts the receiver's certificate.
    const service = startFacteur(
      ['serve', ...args],
      cleanEnv({
        DATABASE_URL: undefined,
        FACTEUR_DATA_DIR: dataDir,
        PORT: String(port),
        HTTP_PORT: String(httpPort),
        FACTEUR_ALLOW_PRIVATE_WEBHOOKS: 'true',
        LOG_LEVEL: 'warn',
      }),
    );
    launched.push(service);
    await service.waitForStdout(/facteur is serving/, startTimeout);
    const demo = /test key \(shown once\): (svc_test_\w+)/.exec(service.stdout);
    return { service, port, demoKey: demo?.[1] ?? null };
  }

  function call(
    port: number,
    method: string,
    path: string,
    key: string,
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
          headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : null }));
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  it('an event committed while no worker runs, an attempt failed before a kill: all happen after restarts', async () => {
    root = await mkdtemp(join(tmpdir(), 'facteur-durability-'));
    dataDir = join(root, 'data');
    receiver = await startReceiver('/durable');
    receiver.fallback = { status: 500 };

    // 1. API only: the event and its delivery are committed, nothing is sent.
    const api = await serve(['--role', 'api']);
    const key = api.demoKey!;
    assert.ok(key, api.service.describe());
    const endpoint = await call(api.port, 'POST', '/v1/webhook-endpoints', key, { url: receiver.url });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const ping = await call(api.port, 'POST', `/v1/webhook-endpoints/${endpoint.body.id}/ping`, key);
    assert.equal(ping.status, 200);
    const eventId = ping.body.id as string;
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(receiver.received.length, 0, 'no worker: nothing sent yet');
    api.service.kill('SIGKILL');
    await api.service.waitForExit(10_000);

    // 2. Everything: the due attempt happens at once (it fails: the receiver answers 500); then kill -9.
    const all = await serve();
    await receiver.waitFor(1, 20_000);
    assert.equal(receiver.received[0]!.headers['service-event-id'], eventId);
    await waitUntil(
      async () => (await call(all.port, 'GET', `/v1/events/${eventId}`, key)).body.attemptCount === 1,
      10_000,
      'the failed attempt to be recorded',
    );
    all.service.kill('SIGKILL');
    await all.service.waitForExit(10_000);

    // 3. The receiver recovers; after a restart, the retry due a minute later happens once the sandbox clock says so.
    receiver.fallback = { status: 200 };
    const again = await serve();
    const event = await call(again.port, 'GET', `/v1/events/${eventId}`, key);
    assert.equal(event.body.delivered, false);
    assert.ok(event.body.nextRetry, 'the retry is planned');
    const advanced = await call(again.port, 'POST', '/v1/sandbox/clock/advance', key, { seconds: 60 });
    assert.equal(advanced.status, 200);
    await receiver.waitFor(2, 20_000);
    await waitUntil(
      async () => (await call(again.port, 'GET', `/v1/events/${eventId}`, key)).body.delivered === true,
      10_000,
      'the delivery to be recorded',
    );
    const final = (await call(again.port, 'GET', `/v1/events/${eventId}`, key)).body;
    assert.deepEqual(
      final.deliveries.map((d: { status: number }) => d.status),
      [500, 200],
    );
    assert.equal(receiver.received.length, 2, 'each attempt once');
    again.service.kill('SIGTERM');
    await again.service.waitForExit(30_000);
  });
});
