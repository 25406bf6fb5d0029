import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { StripeShape } from './stripe-shape.js';

/**
 * A local Stripe: `POST /v1/checkout/sessions` (form-encoded, bearer key, `Idempotency-Key`) and
 * `GET /v1/checkout/sessions`, answered in the shapes of Stripe's published OpenAPI description
 * (`checkout.session`, `list`, the `error` object with its 401 for an unknown key). What it does
 * is set by the test: answer, be down (503), hang past the client's time-out, or answer garbage.
 */
export type StripeBehaviour = 'ok' | 'down' | 'timeout' | 'malformed';

export interface SessionSeen {
  key: string;
  idempotencyKey: string | undefined;
  form: URLSearchParams;
  session: StripeShape<Stripe.Checkout.Session>;
}

export interface StripeServer {
  url: string;
  /** Keys Stripe knows; any other is refused with 401. */
  keys: Set<string>;
  behaviour: StripeBehaviour;
  sessions: SessionSeen[];
  requests: number;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'request-id': `req_${randomBytes(7).toString('hex')}`,
  });
  response.end(JSON.stringify(body));
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const invalidKey = (key: string) => ({
  error: {
    type: 'invalid_request_error',
    message: `Invalid API Key provided: ${key.slice(0, 8)}********${key.slice(-4)}`,
  },
});

export async function startStripeServer(): Promise<StripeServer> {
  const sockets = new Set<Socket>();
  const byIdempotencyKey = new Map<string, StripeShape<Stripe.Checkout.Session>>();
  const state: StripeServer = {
    url: '',
    keys: new Set(),
    behaviour: 'ok',
    sessions: [],
    requests: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    void (async () => {
      state.requests++;
      const body = await readText(request);
      if (state.behaviour === 'timeout') return; // never answers: the client's time-out ends it
      if (state.behaviour === 'down') return send(response, 503, { error: { type: 'api_error', message: 'down' } });
      if (state.behaviour === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end('{"object": "checkout.sess');
      }
      const key = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!state.keys.has(key)) return send(response, 401, invalidKey(key));
      const url = new URL(request.url ?? '/', 'http://stripe.local');
      if (request.method === 'GET' && url.pathname === '/v1/checkout/sessions') {
        const list: StripeShape<Stripe.ApiList<Stripe.Checkout.Session>> = {
          object: 'list',
          data: [],
          has_more: false,
          url: '/v1/checkout/sessions',
        };
        return send(response, 200, list);
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
        const known = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
        if (known) return send(response, 200, known);
        const form = new URLSearchParams(body);
        const id = `cs_live_${randomBytes(12).toString('hex')}`;
        const session: StripeShape<Stripe.Checkout.Session> = {
          id,
          object: 'checkout.session',
          mode: (form.get('mode') ?? undefined) as Stripe.Checkout.Session.Mode | undefined,
          amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
          currency: form.get('line_items[0][price_data][currency]'),
          client_reference_id: form.get('client_reference_id'),
          metadata: Object.fromEntries(
            [...form].flatMap(([name, value]) => {
              const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
              return key ? [[key, value]] : [];
            }),
          ),
          payment_status: 'unpaid',
          status: 'open',
          success_url: form.get('success_url'),
          cancel_url: form.get('cancel_url'),
          livemode: true,
          url: `https://checkout.stripe.com/c/pay/${id}`,
        };
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, session);
        state.sessions.push({ key, idempotencyKey, form, session });
        return send(response, 200, session);
      }
      send(response, 404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${url.pathname})` },
      });
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
