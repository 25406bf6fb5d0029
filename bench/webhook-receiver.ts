/**
 * The webhook bench's receiver, in a process of its own: an HTTPS server on 127.0.0.1 that
 * answers 200 at once and records, per request, its arrival time (epochMs: comparable with the
 * other processes' clocks) and its Service-Event-Id header. The parent takes the records over IPC.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { epochMs, required, runChild } from './webhook-child.js';

export interface ReceiverReady {
  port: number;
}

export interface ReceiverCount {
  requests: number;
  distinctEvents: number;
}

export interface Arrivals {
  eventIds: string[];
  /** Arrival times, epochMs, when the request's headers were read. */
  at: number[];
}

runChild('receiver', async () => {
  const cert = readFileSync(required('BENCH_RECEIVER_CERT'), 'utf8');
  const key = readFileSync(required('BENCH_RECEIVER_KEY'), 'utf8');
  let eventIds: string[] = [];
  let at: number[] = [];
  let distinct = new Set<string>();
  const server = createServer({ cert, key }, (request, response) => {
    const arrived = epochMs();
    const id = request.headers['service-event-id'];
    eventIds.push(typeof id === 'string' ? id : '');
    at.push(arrived);
    if (typeof id === 'string') distinct.add(id);
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    ready: { port: (server.address() as AddressInfo).port } satisfies ReceiverReady,
    handlers: {
      count: (): ReceiverCount => ({ requests: eventIds.length, distinctEvents: distinct.size }),
      /** The records since the last take, which start afresh. */
      take: (): Arrivals => {
        const taken = { eventIds, at };
        eventIds = [];
        at = [];
        distinct = new Set();
        return taken;
      },
      sample: () => ({ cpu: process.cpuUsage() }),
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
});
