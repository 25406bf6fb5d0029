import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, exactly as sent. */
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Replies for the next requests, in order; once used up, `fallback` answers. */
  script(...replies: Reply[]): void;
  fallback: Reply;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTPS webhook receiver on 127.0.0.1, with the certificate `npm test` makes and the
 * service trusts through NODE_EXTRA_CA_CERTS.
 */
export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const cert = readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8');
  const key = readFileSync(process.env.FACTEUR_TEST_RECEIVER_KEY!, 'utf8');
  const queue: Reply[] = [];
  const received: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver = { fallback: { status: 200 } as Reply };
  const server: Server = createServer({ cert, key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
      const reply = queue.shift() ?? receiver.fallback;
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        response.end('ok');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    url: `https://localhost:${port}${path}`,
    port,
    received,
    script: (...replies: Reply[]) => void queue.push(...replies),
    waitFor: (count: number, timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A DNS stub: hostnames the tests name, never a real lookup. */
export function stubResolver(table: Record<string, string[]>) {
  return async (hostname: string): Promise<string[]> => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`stub: ${hostname} not found`), { code: 'ENOTFOUND' });
    return addresses;
  };
}
