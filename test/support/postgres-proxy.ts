import { createServer, connect as connectSocket, type Server, type Socket } from 'node:net';
import { parse } from 'pg-connection-string';

/**
 * A TCP relay in front of the suite's PostgreSQL, for tests of what the service does when its
 * server goes away or is a standby, without stopping the shared server: `stop()` drops every
 * connection and refuses new ones, `start()` listens again on the same port, and `readOnly` makes
 * each new session read-only, as a hot standby's are (it adds `-c default_transaction_read_only=on`
 * to the startup packet's options: `show transaction_read_only` then answers `on`).
 */
export interface PostgresProxy {
  port: number;
  readOnly: boolean;
  /** The connections relayed since the start. */
  connections: number;
  /** DATABASE_URL with this relay's address (127.0.0.1 and its port) in place of the server's. */
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Where the server of `url` listens: its Unix-domain socket or its TCP address. */
function upstreamOf(url: string): { path: string } | { host: string; port: number } {
  const target = parse(url);
  const port = Number(target.port ?? 5432);
  if (target.host?.startsWith('/')) return { path: `${target.host}/.s.PGSQL.${port}` };
  return { host: target.host ?? '127.0.0.1', port };
}

const protocol3 = 196_608;

/** The startup packet with `-c default_transaction_read_only=on` added to its options; others unchanged. */
function readOnlyStartup(packet: Buffer): Buffer {
  if (packet.length < 8 || packet.readInt32BE(4) !== protocol3) return packet;
  const fields = packet
    .subarray(8, packet.length - 1)
    .toString('utf8')
    .split('\0');
  const pairs = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) pairs.set(fields[i]!, fields[i + 1]!);
  pairs.set('options', `${pairs.get('options') ?? ''} -c default_transaction_read_only=on`.trim());
  const body = Buffer.from([...pairs].map(([key, value]) => `${key}\0${value}\0`).join('') + '\0', 'utf8');
  const header = Buffer.alloc(8);
  header.writeInt32BE(body.length + 8, 0);
  header.writeInt32BE(protocol3, 4);
  return Buffer.concat([header, body]);
}

/** Relays `client` to the server; the first packet (the startup, no TLS here) rewritten when read-only. */
function relay(client: Socket, upstream: ReturnType<typeof upstreamOf>, readOnly: boolean, open: Set<Socket>): void {
  const server = 'path' in upstream ? connectSocket(upstream.path) : connectSocket(upstream.port, upstream.host);
  open.add(client).add(server);
  const close = () => {
    client.destroy();
    server.destroy();
    open.delete(client);
    open.delete(server);
  };
  client.on('error', close).on('close', close);
  server.on('error', close).on('close', close);
  let pending = Buffer.alloc(0);
  const first = (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    if (pending.length < 4 || pending.length < pending.readInt32BE(0)) return;
    client.off('data', first);
    const length = pending.readInt32BE(0);
    const startup = pending.subarray(0, length);
    server.write(readOnly ? readOnlyStartup(startup) : startup);
    if (pending.length > length) server.write(pending.subarray(length));
    client.pipe(server);
  };
  client.on('data', first);
  server.pipe(client);
}

export async function startPostgresProxy(databaseUrl: string): Promise<PostgresProxy> {
  const upstream = upstreamOf(databaseUrl);
  const open = new Set<Socket>();
  let server: Server | null = null;
  const proxy: PostgresProxy = {
    port: 0,
    readOnly: false,
    connections: 0,
    url: '',
    async start() {
      const listening = createServer((client) => {
        proxy.connections += 1;
        relay(client, upstream, proxy.readOnly, open);
      });
      await new Promise<void>((resolve, reject) =>
        listening.once('error', reject).listen(proxy.port, '127.0.0.1', resolve),
      );
      server = listening;
      proxy.port = (listening.address() as { port: number }).port;
    },
    async stop() {
      const closing = server;
      server = null;
      for (const socket of open) socket.destroy();
      open.clear();
      if (closing) await new Promise((resolve) => closing.close(resolve));
    },
  };
  await proxy.start();
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  url.searchParams.delete('host');
  proxy.url = url.toString();
  return proxy;
}
