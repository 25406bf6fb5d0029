/**
 * The host choice of a multi-host DATABASE_URL, on the suite's real server reached through TCP
 * relays (test/support/postgres-proxy.ts): a relay stopped is a server down, a relay made
 * read-only is a standby (its sessions answer `transaction_read_only` on). Not covered: a real
 * streaming standby (`pg_is_in_recovery()` true, what `target_session_attrs=primary` checks),
 * and a host that drops packets rather than refusing (the 5 s attempt timeout).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, disconnect, type Connection } from '../../src/db/database.js';
import { chooseHost } from '../../src/db/session-target.js';
import { KeyCache, listenForAuthChanges } from '../../src/api-keys/key-cache.js';
import { createClaimLoop } from '../../src/workers/claim-loop.js';
import pino from 'pino';
import { startPostgresProxy, type PostgresProxy } from '../support/postgres-proxy.js';
import { freePorts, sleep, waitUntil } from '../support/processes.js';

const databaseUrl = process.env.DATABASE_URL!;

/** The suite's URL (through a relay) naming `ports` on 127.0.0.1, in order, with `query`. */
function listUrl(relay: PostgresProxy, ports: number[], query = ''): string {
  const one = new URL(relay.url);
  const hosts = ports.map((port) => `127.0.0.1:${port}`).join(',');
  const auth = one.username ? `${one.username}${one.password ? `:${one.password}` : ''}@` : '';
  return `postgres://${auth}${hosts}${one.pathname}${query}`;
}

async function relays(t: { after(fn: () => Promise<void>): void }, count: number): Promise<PostgresProxy[]> {
  const started = await Promise.all(Array.from({ length: count }, () => startPostgresProxy(databaseUrl)));
  t.after(async () => {
    await Promise.all(started.map((relay) => relay.stop()));
  });
  return started;
}

async function pool(t: { after(fn: () => Promise<void>): void }, url: string): Promise<Connection> {
  const connection = connect(url, 4);
  t.after(() => disconnect(connection, 2000));
  return connection;
}

const readOnly = async (connection: Connection) =>
  (await connection.pool.query<{ transaction_read_only: string }>('show transaction_read_only')).rows[0]!
    .transaction_read_only;

test('the choice, on given attempts: the first host, in order, that connects and fits', async () => {
  const hosts = [1, 2, 3, 4].map((port) => ({ host: 'h', port }));
  const tried: number[] = [];
  const outcomes: Record<number, () => Promise<boolean>> = {
    1: () => Promise.reject(new Error('connect ECONNREFUSED')),
    2: () => Promise.resolve(false),
    3: () => Promise.resolve(true),
    4: () => Promise.resolve(true),
  };
  const index = await chooseHost(hosts, 'read-write', (host) => {
    tried.push(host.port);
    return outcomes[host.port]!();
  });
  assert.equal(index, 2);
  assert.deepEqual(tried, [1, 2, 3], 'in order, and no further than the first that fits');
  await assert.rejects(
    chooseHost(hosts.slice(0, 2), 'read-write', (host) => outcomes[host.port]!()),
    /no database server is reachable as read-write: h:1: connect ECONNREFUSED; h:2 is not read-write/,
  );
});

test('a first host down: the pool connects to the next one', async (t) => {
  const [relay] = await relays(t, 1);
  const [closed] = await freePorts(1);
  const connection = await pool(t, listUrl(relay!, [closed!, relay!.port]));
  assert.equal((await connection.pool.query<{ one: number }>('select 1 as one')).rows[0]!.one, 1);
  assert.equal((await connection.fast.pool.query<{ one: number }>('select 1 as one')).rows[0]!.one, 1);
  assert.ok(relay!.connections >= 2, 'both pools reached the second host');
});

test('target_session_attrs=read-write passes a read-only server by; without it the first host is taken', async (t) => {
  const [standby, primary] = await relays(t, 2);
  standby!.readOnly = true;
  const readWrite = await pool(
    t,
    listUrl(standby!, [standby!.port, primary!.port], '?target_session_attrs=read-write'),
  );
  assert.equal(await readOnly(readWrite), 'off');
  const probes = standby!.connections;
  assert.ok(probes >= 1, 'the read-only server was tried first');
  // Held connections and the ones after them go straight to the chosen host.
  const clients = await Promise.all([1, 2, 3].map(() => readWrite.pool.connect()));
  for (const client of clients) client.release();
  assert.equal(standby!.connections, probes, 'once chosen, no more attempts on the read-only server');
  await readWrite.pool.query('create temporary table written (x int)');

  const any = await pool(t, listUrl(standby!, [standby!.port, primary!.port]));
  assert.equal(await readOnly(any), 'on', 'any: the first host that connects, read-only or not');
});

test('no host fits: the query fails with each host and why', async (t) => {
  const [standby] = await relays(t, 1);
  standby!.readOnly = true;
  const [closed] = await freePorts(1);
  const connection = await pool(t, listUrl(standby!, [standby!.port, closed!], '?target_session_attrs=read-write'));
  await assert.rejects(
    connection.pool.query('select 1'),
    new RegExp(`127\\.0\\.0\\.1:${standby!.port} is not read-write.*; 127\\.0\\.0\\.1:${closed}: .*ECONNREFUSED`),
  );
});

test('a failover: the primary goes, the standby is promoted; the pool and the LISTEN connection follow it', async (t) => {
  const [first, second] = await relays(t, 2);
  first!.readOnly = true;
  const connection = await pool(t, listUrl(first!, [first!.port, second!.port], '?target_session_attrs=read-write'));
  const states: boolean[] = [];
  const heard: string[] = [];
  class WatchedCache extends KeyCache {
    override setListening(listening: boolean): void {
      states.push(listening);
      super.setListening(listening);
    }
    override forget(message: string): void {
      heard.push(message);
      super.forget(message);
    }
  }
  const errors: unknown[] = [];
  const stop = await listenForAuthChanges(connection.pool, new WatchedCache(), (error) => errors.push(error));
  t.after(stop);
  assert.deepEqual(states, [true]);
  const beforeFailover = first!.connections;

  // The failover: the old primary stops (its connections drop); for a while no server takes
  // writes (the first tries to listen again fail), then the standby is promoted.
  await second!.stop();
  await waitUntil(() => states.at(-1) === false, 5000, 'the listener is lost');
  await sleep(1500);
  const failedTries = errors.length;
  first!.readOnly = false;
  await waitUntil(() => states.at(-1) === true, 15_000, 'the listener listens again');
  assert.ok(failedTries >= 2, `the loss and a failed try were reported (${failedTries})`);
  assert.ok(first!.connections > beforeFailover, 'the listener reconnected to the new primary');
  assert.equal(await readOnly(connection), 'off', 'the pool writes on the new primary');
  await connection.pool.query("select pg_notify('facteur_auth', 'key:key_failover')");
  await waitUntil(() => heard.includes('key:key_failover'), 5000, 'the notification is heard');
});

test("a failover: a claim loop's LISTEN connection follows the new primary (woken by NOTIFY, not its poll)", async (t) => {
  const [first, second] = await relays(t, 2);
  first!.readOnly = true;
  const connection = await pool(t, listUrl(first!, [first!.port, second!.port], '?target_session_attrs=read-write'));
  const channel = 'facteur_failover_test';
  let claims = 0;
  const loop = createClaimLoop<number>({
    pool: connection.pool,
    channel,
    log: pino({ level: 'silent' }),
    concurrency: 1,
    // Far beyond the test: only a notification makes it claim.
    pollMs: 600_000,
    claim: async () => {
      claims += 1;
      return [];
    },
    handle: async () => undefined,
    describe: (item) => ({ item }),
  });
  await loop.start();
  t.after(() => loop.stop());
  const wakes = async (what: string) => {
    const before = claims;
    await connection.pool.query(`select pg_notify('${channel}', '')`);
    await waitUntil(() => claims > before, 5000, what);
  };
  await wakes('woken before the failover');

  await second!.stop();
  await sleep(1500);
  first!.readOnly = false;
  // The loop tries again at 1 s (no writable server yet), then 2 s later.
  let woken = false;
  for (let i = 0; i < 30 && !woken; i += 1) {
    const before = claims;
    await connection.pool.query(`select pg_notify('${channel}', '')`).catch(() => undefined);
    await sleep(500);
    woken = claims > before;
  }
  assert.ok(woken, 'a NOTIFY after the failover wakes the loop');
});
