import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** HSTS: a browser that got one answer over HTTPS uses nothing else for a year, subdomains included. */
export const strictTransportSecurity = 'max-age=31536000; includeSubDomains';

const frameAncestorsNone = "frame-ancestors 'none'";

/** Media types a browser renders as a page, and so could show inside another site's frame. */
const pageTypes = /^\s*(text\/html|application\/xhtml\+xml)\b/i;

/**
 * The headers every answer of the server gets, set here once rather than by each route: HSTS on
 * every answer that went over TLS (a browser ignores it over plain HTTP, and the plain port only
 * redirects), and on every page (public pages, dashboard, docs, error pages) a refusal to be
 * framed, against clickjacking: `X-Frame-Options` for old browsers, `frame-ancestors` in the
 * page's own Content Security Policy (added to it when it has one).
 */
export function installHstsAndFrameRefusal(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    addSecurityHeaders(request, reply);
    return payload;
  });
}

/** The headers above, for an answer no hook sees (the router's refusals). */
export function addSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  // `protocol` is the socket's (or, behind a trusted proxy, X-Forwarded-Proto).
  if (request.protocol === 'https') reply.header('Strict-Transport-Security', strictTransportSecurity);
  if (!pageTypes.test(String(reply.getHeader('content-type') ?? ''))) return;
  reply.header('X-Frame-Options', 'DENY');
  const policy = reply.getHeader('content-security-policy');
  reply.header('Content-Security-Policy', refusingFrames(policy === undefined ? '' : String(policy)));
}

/** The policy with `frame-ancestors 'none'` in place of whatever frame-ancestors it had. */
export function refusingFrames(policy: string): string {
  const directives = policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !/^frame-ancestors(\s|$)/i.test(directive));
  return [...directives, frameAncestorsNone].join('; ');
}
