/**
 * The embedded PostgreSQL's address: the service reaches it through the cluster's Unix-domain
 * socket (cheaper than TCP on this loopback), TCP on 127.0.0.1 stays for other tools, a server
 * left running is joined through its socket too, and a data directory too deep for a socket
 * path keeps TCP alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { parse } from 'pg-connection-string';
import { openEmbeddedPostgres, socketDirectoryFor } from '../../src/db/embedded-postgres.js';

/** How the server sees a connection: null address over a Unix-domain socket. */
async function serverAddressOf(connectionString: string): Promise<string | null> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<{ address: string | null }>('select inet_server_addr()::text as address')).rows[0]!
      .address;
  } finally {
    await client.end();
  }
}

test(
  'the embedded server: the service connects through its socket, TCP still answers, a running one is joined through it',
  {
    timeout: 180_000,
    skip: process.platform === 'win32',
  },
  async (t) => {
    const root = await mkdtemp(join(tmpdir(), 'facteur-embedded-'));
    const dataDir = join(root, 'data');
    const first = await openEmbeddedPostgres({ dataDir, ownsServer: true, log: () => undefined });
    t.after(async () => {
      await first.stop();
      await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    });
    const clusterDir = join(dataDir, 'postgres');
    const target = parse(first.url);
    assert.equal(target.host, clusterDir, 'the URL names the socket directory');
    assert.equal(await serverAddressOf(first.url), null, 'the connection went through the Unix-domain socket');

    const tcp = new URL(first.url);
    tcp.hostname = '127.0.0.1';
    assert.equal(await serverAddressOf(tcp.toString()), '127.0.0.1/32', 'TCP on 127.0.0.1 answers as well');

    const pidFile = (await readFile(join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n');
    assert.equal(pidFile[4], clusterDir, 'the server announces its socket directory');

    const joined = await openEmbeddedPostgres({ dataDir, ownsServer: false, log: () => undefined });
    assert.equal(joined.started, false);
    assert.equal(joined.url, first.url, 'the running server is joined at the same address');
    assert.equal(await serverAddressOf(joined.url), null);
  },
);

test('a socket path longer than the kernel takes (sun_path) keeps TCP alone', () => {
  assert.equal(socketDirectoryFor('/tmp/facteur/postgres', 5432), '/tmp/facteur/postgres');
  const deep = `/tmp/${'d'.repeat(90)}/postgres`;
  assert.equal(socketDirectoryFor(deep, 5432), null);
});
