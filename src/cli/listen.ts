import { Agent, request, type Dispatcher } from 'undici';
import { signatureHeader } from '../webhooks/signature.js';
import type { ServiceClient } from './service-client.js';

export interface ListenOptions {
  client: ServiceClient;
  /** Where each event is POSTed, signed as a webhook delivery is. */
  forwardTo: string;
  /** The signing secret the local receiver verifies with (`whsec_…`). */
  secret: string;
  intervalMs: number;
  /** Accept any certificate of the local receiver (a development server's self-signed one). */
  skipVerify?: boolean;
  print(line: string): void;
  signal: AbortSignal;
}

interface ListedEvent {
  id: string;
  type: string;
  created: string;
}

/** Newest first, as the list answers: the events not seen yet, reading further pages while a whole page is new. */
async function unseenEvents(client: ServiceClient, seen: Set<string>): Promise<ListedEvent[]> {
  const unseen: ListedEvent[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page: { data: ListedEvent[]; has_more: boolean; next_cursor: string | null } = await client.call(
      'GET',
      `/v1/events?limit=100${cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ''}`,
    );
    const fresh = page.data.filter((event) => !seen.has(event.id));
    unseen.push(...fresh);
    if (fresh.length < page.data.length || !page.has_more || !page.next_cursor) return unseen;
    cursor = page.next_cursor;
  }
}

/** One forward, with the headers of a delivery (contract, Events); the line says what the receiver answered. */
async function forward(options: ListenOptions, dispatcher: Dispatcher, event: ListedEvent): Promise<string> {
  const body = JSON.stringify(event);
  const started = `${new Date().toISOString()}  ${event.type}  ${event.id}  -> POST ${options.forwardTo}`;
  try {
    const response = await request(options.forwardTo, {
      method: 'POST',
      dispatcher,
      body,
      headers: {
        'content-type': 'application/json',
        'service-signature': signatureHeader([options.secret], Math.floor(Date.now() / 1000), body),
        'service-event-id': event.id,
        'service-event-type': event.type,
        'user-agent': 'Service-Webhooks/1.0',
      },
    });
    await response.body.dump();
    return `${started}  [${response.statusCode}]`;
  } catch (error) {
    return `${started}  [failed: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * `facteur listen`: the development loop of a webhook receiver. The company's test events that
 * happen from now on (those already there are not sent) are read from `GET /v1/events` and POSTed
 * to the local URL, oldest first, each signed with `secret` exactly as a delivery is signed; one
 * line per event. Nothing is written on the service: its own deliveries go on as before.
 */
export async function listen(options: ListenOptions): Promise<void> {
  const dispatcher = new Agent(options.skipVerify ? { connect: { rejectUnauthorized: false } } : {});
  try {
    // What happened before the start is not forwarded: the newest page marks where "from now" begins.
    const newest: { data: ListedEvent[] } = await options.client.call('GET', '/v1/events?limit=100');
    const seen = new Set(newest.data.map((event) => event.id));
    options.print(`Ready. Forwarding the test events to ${options.forwardTo}`);
    options.print(`Signing secret (verify the Service-Signature header with it): ${options.secret}`);
    while (!options.signal.aborted) {
      await pause(options.intervalMs, options.signal);
      if (options.signal.aborted) break;
      let fresh: ListedEvent[];
      try {
        fresh = await unseenEvents(options.client, seen);
      } catch (error) {
        options.print(`the events could not be read (retrying): ${error instanceof Error ? error.message : error}`);
        continue;
      }
      for (const event of fresh.reverse()) {
        seen.add(event.id);
        options.print(await forward(options, dispatcher, event));
      }
    }
  } finally {
    await dispatcher.close();
  }
}
