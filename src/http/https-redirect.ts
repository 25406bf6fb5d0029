import { createServer, type Server } from 'node:http';
import { isIPv6 } from 'node:net';
import type { Config } from '../config.js';
import { answerClientError } from './protocol-refusals.js';

/**
 * Plain HTTP only redirects (308, permanent, method and body kept) to `httpsOrigin`, path and
 * query kept. The target never comes from the request: a `Host` header is the client's word, and
 * echoing it would make this port an open redirect (and poison any cache in front of it).
 * A request Node cannot parse gets the contract's envelope, as on the HTTPS port.
 */
export function createRedirectServer(httpsOrigin: string, docsUrl: string): Server {
  const server = createServer((request, response) => {
    response.writeHead(308, {
      Location: `${httpsOrigin}${request.url ?? '/'}`,
      'Content-Type': 'text/plain; charset=utf-8',
      Connection: 'close',
    });
    response.end('This service is served over HTTPS only.\n');
  });
  server.on('clientError', answerClientError({ docsUrl }));
  return server;
}

const anyAddress = new Set(['', '0.0.0.0', '::', '[::]']);

/**
 * Where plain HTTP sends clients: FACTEUR_PUBLIC_URL's origin when set; otherwise the address
 * HTTPS is bound to (HOST), or the default public URL's host (localhost) when HOST is every
 * address, on the port HTTPS actually listens on.
 */
export function redirectOrigin(config: Pick<Config, 'publicUrl' | 'publicUrlSet' | 'host'>, httpsPort: number): string {
  if (config.publicUrlSet) return new URL(config.publicUrl).origin;
  const host = anyAddress.has(config.host) ? new URL(config.publicUrl).hostname : config.host;
  const shown = isIPv6(host) ? `[${host}]` : host;
  return httpsPort === 443 ? `https://${shown}` : `https://${shown}:${httpsPort}`;
}
