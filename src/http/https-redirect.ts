import { createServer, type Server } from 'node:http';
import { answerClientError } from './protocol-refusals.js';

/**
 * Plain HTTP only redirects (308, permanent, method and body kept) to the HTTPS address:
 * the public URL's origin when set, otherwise the host the client asked for on the HTTPS port.
 * A request Node cannot parse gets the contract's envelope, as on the HTTPS port.
 */
export function createRedirectServer(httpsPort: number, publicOrigin: string | null, docsUrl: string): Server {
  const server = createServer((request, response) => {
    const target = publicOrigin ?? originFromHost(request.headers.host, httpsPort);
    response.writeHead(308, {
      Location: `${target}${request.url ?? '/'}`,
      'Content-Type': 'text/plain; charset=utf-8',
      Connection: 'close',
    });
    response.end('This service is served over HTTPS only.\n');
  });
  server.on('clientError', answerClientError({ docsUrl }));
  return server;
}

function originFromHost(hostHeader: string | undefined, httpsPort: number): string {
  const fallback = 'localhost';
  const raw = (hostHeader ?? fallback).trim();
  // Keep only a well-formed host name or address; never echo an arbitrary header into Location.
  const host = /^\[[0-9a-fA-F:.]+\]/.exec(raw)?.[0] ?? /^[A-Za-z0-9.-]+/.exec(raw)?.[0] ?? fallback;
  return httpsPort === 443 ? `https://${host}` : `https://${host}:${httpsPort}`;
}
