import pino, { type DestinationStream } from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { redactedUrl, scrubbedLine } from './log-redaction.js';

/**
 * Fastify's own request serializer, with the URL's one-time secrets redacted: the password link,
 * payment and quote page tokens travel in the path (log-redaction.ts).
 */
function requestOf(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Service logs are JSON on stdout; command-line logs go to stderr so stdout stays the command's
 * JSON (tests give a stream). Headers that authenticate are redacted when logged, request URLs
 * lose their secrets, and every line is scrubbed of the service's secret shapes before it is
 * written, whatever field holds them.
 */
export function createLogger(level: string, destination: 'stdout' | 'stderr' | DestinationStream): FastifyBaseLogger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["set-cookie"]',
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
      serializers: { req: requestOf },
      hooks: { streamWrite: scrubbedLine },
    },
    typeof destination === 'string' ? pino.destination(destination === 'stdout' ? 1 : 2) : destination,
  ) as unknown as FastifyBaseLogger;
}
