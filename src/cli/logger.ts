import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';

/** Service logs are JSON on stdout; command-line logs go to stderr so stdout stays the command's JSON. */
export function createLogger(level: string, destination: 'stdout' | 'stderr'): FastifyBaseLogger {
  return pino(
    {
      level,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
    pino.destination(destination === 'stdout' ? 1 : 2),
  ) as unknown as FastifyBaseLogger;
}
