import { createServer, type Server } from 'node:http';

/**
 * Plain HTTP only redirects (308, permanent, method and body kept) to the HTTPS address:
 * the public URL's origin when set, otherwise the host the client asked for on the HTTPS port.
 */
export function createRedirectServer(httpsPort: number, publicOrigin: string | null): Server {
  return createServer((request, response) => {
    const target = publicOrigin ?? originFromHost(request.headers.host, httpsPort);
    response.writeHead(308, {
      Location: `${target}${request.url ?? '/'}`,
      'Content-Type': 'text/plain; charset=utf-8',
      Connection: 'close',
    });
    response.end('This service is served over HTTPS only.\n');
  });
}

function originFromHost(hostHeader: string | undefined, httpsPort: number): string {
  const fallback = 'localhost';
  const raw = (hostHeader ?? fallback).trim();
  // Keep only a well-formed host name or address; never echo an arbitrary header into Location.
  const host = /^\[[0-9a-fA-F:.]+\]/.exec(raw)?.[0] ?? /^[A-Za-z0-9.-]+/.exec(raw)?.[0] ?? fallback;
  return httpsPort === 443 ? `https://${host}` : `https://${host}:${httpsPort}`;
}
