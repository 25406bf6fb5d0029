import type { FastifyReply } from 'fastify';

/**
 * Sends a public page (no key: an invoice's payment page, a quote's page): never cached, never
 * indexed, no referrer leaking its secret address, no script, inline styles only.
 */
export function sendPublicPage(reply: FastifyReply, page: string): FastifyReply {
  return reply
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
    .type('text/html; charset=utf-8')
    .send(page);
}
